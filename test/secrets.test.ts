import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { resetConfig } from '@/lib/config';
import { encryptSecret, resetSecretKey } from '@/lib/crypto/secret-box';
import { settings, webhooks } from '@/lib/db/schema';
import { checkSharedSecrets, SecretMismatchError } from '@/lib/ops/secrets';
import { resetAuthSecret } from '@/lib/users/session';
import { useTestApp } from '@/test/support/app';

/**
 * Replicas on one database must share QUARRY_SECRET_KEY and NEXTAUTH_SECRET: a process whose
 * secrets differ from the ones recorded by the first is refused, with the variable named.
 */
const app = useTestApp({ QUARRY_SECRET_KEY: 'replica-secret-key-aaaaaaaa', NEXTAUTH_SECRET: 'replica-auth-secret-aaaaaaaa' });
const original = { key: 'replica-secret-key-aaaaaaaa', auth: 'replica-auth-secret-aaaaaaaa' };

/** This process as a replica started with other variables. */
function actAs(vars: Record<string, string | undefined>): void {
  for (const [name, value] of Object.entries(vars)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  resetConfig();
  resetSecretKey();
  resetAuthSecret();
}

afterEach(() => actAs({ QUARRY_SECRET_KEY: original.key, NEXTAUTH_SECRET: original.auth, QUARRY_SECRETS_CHANGED: undefined }));

describe('shared secrets', () => {
  it('records the first process’s fingerprints and admits processes holding the same secrets', async () => {
    await app.db.delete(settings).where(eq(settings.key, 'secret_fingerprints'));
    await checkSharedSecrets(app.db);
    const [row] = await app.db.select().from(settings).where(eq(settings.key, 'secret_fingerprints'));
    expect(JSON.stringify(row.value)).not.toContain(original.key);
    expect(JSON.stringify(row.value)).not.toContain(original.auth);
    await checkSharedSecrets(app.db);
  });

  it('refuses a process with another QUARRY_SECRET_KEY, or none, naming the variable', async () => {
    await checkSharedSecrets(app.db);
    actAs({ QUARRY_SECRET_KEY: 'replica-secret-key-bbbbbbbb' });
    await expect(checkSharedSecrets(app.db)).rejects.toThrow(/QUARRY_SECRET_KEY differs from the one other Quarry processes/);
    actAs({ QUARRY_SECRET_KEY: undefined });
    const unset = await checkSharedSecrets(app.db).catch((err) => err);
    expect(unset).toBeInstanceOf(SecretMismatchError);
    expect(unset.message).toMatch(/QUARRY_SECRET_KEY is not set, so this process made its own/);
  });

  it('refuses a process with another NEXTAUTH_SECRET', async () => {
    await checkSharedSecrets(app.db);
    actAs({ NEXTAUTH_SECRET: 'replica-auth-secret-bbbbbbbb' });
    await expect(checkSharedSecrets(app.db)).rejects.toThrow(/NEXTAUTH_SECRET differs/);
  });

  it('records new secrets when told they changed on purpose', async () => {
    await checkSharedSecrets(app.db);
    actAs({ NEXTAUTH_SECRET: 'replica-auth-secret-cccccccc', QUARRY_SECRETS_CHANGED: 'true' });
    await checkSharedSecrets(app.db);
    actAs({ QUARRY_SECRETS_CHANGED: undefined });
    await checkSharedSecrets(app.db);
    actAs({ NEXTAUTH_SECRET: original.auth });
    await expect(checkSharedSecrets(app.db)).rejects.toThrow(/NEXTAUTH_SECRET differs/);
    actAs({ QUARRY_SECRETS_CHANGED: 'true' });
    await checkSharedSecrets(app.db);
  });

  it('on a database from before fingerprints, a webhook secret sealed under another key is the proof', async () => {
    await app.db.delete(settings).where(eq(settings.key, 'secret_fingerprints'));
    const otherKey = Buffer.alloc(32, 7);
    await app.db.insert(webhooks).values({
      id: 'wh_01secretcheck',
      url: 'https://example.com/hook',
      events: ['file.uploaded'],
      secretCiphertext: encryptSecret('whsec_sealed_elsewhere', otherKey),
    } as typeof webhooks.$inferInsert);
    try {
      await expect(checkSharedSecrets(app.db)).rejects.toThrow(/QUARRY_SECRET_KEY differs/);
      // Nothing recorded: the wrong key must not become the reference.
      expect(await app.db.select().from(settings).where(eq(settings.key, 'secret_fingerprints'))).toEqual([]);
      await app.db.update(webhooks).set({ secretCiphertext: encryptSecret('whsec_sealed_here') }).where(eq(webhooks.id, 'wh_01secretcheck'));
      await checkSharedSecrets(app.db);
    } finally {
      await app.db.delete(webhooks).where(eq(webhooks.id, 'wh_01secretcheck'));
    }
  });
});
