import { createHmac } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import { decryptSecret, secretKey } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db/client';
import { settings, webhooks } from '@/lib/db/schema';
import { authSecret } from '@/lib/users/session';

const KEY = 'secret_fingerprints';

interface Fingerprints {
  secret_key: string;
  auth_secret: string;
}

/** A one-way fingerprint: proves two processes hold the same secret without storing it. */
function fingerprint(secret: Buffer | string, purpose: string): string {
  return createHmac('sha256', secret).update(`quarry ${purpose} check`).digest('hex');
}

function current(): Fingerprints {
  return { secret_key: fingerprint(secretKey(), 'secret key'), auth_secret: fingerprint(authSecret(), 'sign-in secret') };
}

export class SecretMismatchError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'SecretMismatchError';
  }
}

function explain(which: 'QUARRY_SECRET_KEY' | 'NEXTAUTH_SECRET', isSet: boolean): string {
  const what =
    which === 'QUARRY_SECRET_KEY'
      ? 'the key that encrypts stored secrets (webhook signing secrets, embedding provider keys)'
      : 'the secret that signs console sessions';
  const cause = isSet
    ? `${which} differs from the one other Quarry processes on this database use`
    : `${which} is not set, so this process made its own in its data directory, and it differs from the one other Quarry processes on this database use`;
  return (
    `Quarry will not start: ${cause} (${what}). Every replica must be given the same QUARRY_SECRET_KEY and NEXTAUTH_SECRET. ` +
    'If you changed them on purpose on every replica, start one process with QUARRY_SECRETS_CHANGED=true to record the new ones.'
  );
}

/**
 * Several processes on one PostgreSQL database must hold the same QUARRY_SECRET_KEY and
 * NEXTAUTH_SECRET, or one replica cannot read what another encrypted and sessions flap between
 * them. The first process records fingerprints of its secrets; a later one whose secrets differ
 * is refused with a message naming the variable. On the first check of a database written
 * before fingerprints existed, a stored webhook secret that does not decrypt is the proof.
 */
export async function checkSharedSecrets(db: Db): Promise<void> {
  const mine = current();
  const config = getConfig();
  if (process.env.QUARRY_SECRETS_CHANGED === 'true') {
    await db
      .insert(settings)
      .values({ key: KEY, value: mine })
      .onConflictDoUpdate({ target: settings.key, set: { value: mine, updatedAt: new Date() } });
    return;
  }
  const first = await db.insert(settings).values({ key: KEY, value: mine }).onConflictDoNothing().returning({ key: settings.key });
  if (first.length > 0) {
    // Data written before fingerprints existed: a sealed value that does not open under this key.
    const [sealed] = await db.select({ secret: webhooks.secretCiphertext }).from(webhooks).limit(1);
    if (sealed && !opens(sealed.secret)) {
      await db.delete(settings).where(eq(settings.key, KEY));
      throw new SecretMismatchError(explain('QUARRY_SECRET_KEY', Boolean(config.secretKey)));
    }
    return;
  }
  const [row] = await db.select().from(settings).where(eq(settings.key, KEY)).limit(1);
  const recorded = row?.value as Partial<Fingerprints> | undefined;
  if (recorded?.secret_key !== mine.secret_key) throw new SecretMismatchError(explain('QUARRY_SECRET_KEY', Boolean(config.secretKey)));
  if (recorded?.auth_secret !== mine.auth_secret) throw new SecretMismatchError(explain('NEXTAUTH_SECRET', Boolean(config.console.authSecret)));
}

function opens(sealed: string): boolean {
  try {
    decryptSecret(sealed);
    return true;
  } catch {
    return false;
  }
}
