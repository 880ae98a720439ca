import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as filesRoute from '@/app/v1/files/route';
import { apiKeys } from '@/lib/db/schema';
import { useTestApp } from '@/test/support/app';

const app = useTestApp({ QUARRY_KEY_ENV: 'live' });

describe('POST /v1/api-keys with QUARRY_KEY_ENV=live', () => {
  it('creates sk_live_ keys that work and are stored hashed', async () => {
    const res = await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'production' } });
    expect(res.status).toBe(201);
    expect(res.body.key).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
    expect(res.body.key_prefix.startsWith('sk_live_')).toBe(true);
    expect(res.body.key.startsWith(res.body.key_prefix)).toBe(true);

    const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, res.body.id));
    expect(row.keyHash).toBe(createHash('sha256').update(res.body.key).digest('hex'));

    const use = await app.call(filesRoute.GET, { path: '/v1/files', key: res.body.key });
    expect(use.status).toBe(200);

    const list = await app.call(apiKeysRoute.GET, { path: '/v1/api-keys' });
    expect(list.text).not.toContain(res.body.key);
    const item = list.body.items.find((k: { id: string }) => k.id === res.body.id);
    expect(item.key_prefix.startsWith('sk_live_')).toBe(true);
  });
});
