import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as maintenanceRoute from '@/app/admin/maintenance/route';
import * as apiKeyRoute from '@/app/v1/api-keys/[key_id]/route';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as eventsRoute from '@/app/v1/events/route';
import * as fileExtractionsRoute from '@/app/v1/files/[file_id]/extractions/route';
import * as filesRoute from '@/app/v1/files/route';
import * as meRoute from '@/app/v1/me/route';
import { forgetCachedKeys } from '@/lib/auth/api-keys';
import { SCOPES } from '@/lib/auth/scopes';
import { apiKeys, idempotencyKeys } from '@/lib/db/schema';
import { expireKey, useTestApp, type TestResponse } from '@/test/support/app';
import { createKb } from '@/test/support/knowledge-bases';

const app = useTestApp();

const KEY_FORMAT = /^sk_test_[A-Za-z0-9]{32}$/;
const DAY_MS = 86_400_000;

function createKey(body: unknown, key?: string) {
  return app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body, key });
}

function listKeys(query = '', key?: string) {
  return app.call(apiKeysRoute.GET, { path: `/v1/api-keys${query}`, key });
}

function revokeKey(id: string, key?: string) {
  return app.call(apiKeyRoute.DELETE, { method: 'DELETE', path: `/v1/api-keys/${id}`, params: { key_id: id }, key });
}

/** A request that any valid key may make (GET /v1/files needs files:read, which "*" covers). */
function useKey(key: string) {
  return app.call(filesRoute.GET, { path: '/v1/files', key });
}

async function keyRow(id: string) {
  const [row] = await app.db.select().from(apiKeys).where(eq(apiKeys.id, id));
  return row;
}

async function allListed(): Promise<{ id: string; name: string }[]> {
  const res = await listKeys('?limit=100');
  expect(res.status).toBe(200);
  expect(res.body.total).toBeLessThanOrEqual(100);
  return res.body.items;
}

/** The one error body: exactly {error:{code,message,details?,request_id}}, request_id = X-Request-Id. */
function expectError(res: TestResponse, status: number, code: string): Record<string, any> {
  expect(res.status, res.text).toBe(status);
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(Object.keys(error).filter((k) => !['code', 'message', 'details', 'request_id'].includes(k))).toEqual([]);
  expect(error.request_id).toMatch(/^req_/);
  expect(res.headers.get('x-request-id')).toBe(error.request_id);
  return error;
}

describe('POST /v1/api-keys', () => {
  it('creates a key in the sk_test_ format and returns it with its metadata', async () => {
    const before = Date.now();
    const res = await createKey({ name: 'ci deploy', scopes: ['files:read', 'extractions:write'] });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      ['allowed_ips', 'created_at', 'expires_at', 'id', 'key', 'key_prefix', 'knowledge_base_ids', 'name', 'scopes'].sort(),
    );
    expect(res.body.key).toMatch(KEY_FORMAT);
    expect(res.body.id).toMatch(/^key_[0-9a-z]{26}$/);
    expect(res.body).toMatchObject({
      name: 'ci deploy',
      scopes: ['files:read', 'extractions:write'],
      allowed_ips: null,
      knowledge_base_ids: null,
      expires_at: null,
    });
    expect(res.body.key.startsWith(res.body.key_prefix)).toBe(true);
    expect(res.body.key_prefix.length).toBeLessThan(res.body.key.length);
    expect(new Date(res.body.created_at).toISOString()).toBe(res.body.created_at);
    expect(Date.parse(res.body.created_at)).toBeGreaterThanOrEqual(before - 1000);
    expect(res.headers.get('x-request-id')).toMatch(/^req_/);

    // The new key works at once.
    expect((await useKey(res.body.key)).status).toBe(200);
  });

  it('gives every key a different secret', async () => {
    const a = await createKey({ name: 'twin a' });
    const b = await createKey({ name: 'twin b' });
    expect(a.body.key).toMatch(KEY_FORMAT);
    expect(b.body.key).toMatch(KEY_FORMAT);
    expect(a.body.key).not.toBe(b.body.key);
    expect(a.body.id).not.toBe(b.body.id);
  });

  it('stores only the SHA-256 hash of the key, never the key itself', async () => {
    const res = await createKey({ name: 'hashed' });
    const key: string = res.body.key;
    const row = await keyRow(res.body.id);
    expect(row.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(row.keyPrefix).toBe(res.body.key_prefix);
    const everyRow = JSON.stringify(await app.db.select().from(apiKeys));
    expect(everyRow).not.toContain(key);
    // Nor the secret part alone.
    expect(everyRow).not.toContain(key.slice('sk_test_'.length));
  });

  it('keeps no plaintext key in the idempotency store, yet replays the same key', async () => {
    const headers = { 'idempotency-key': 'create-secret-once' };
    const first = await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'replayed' }, headers });
    const again = await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'replayed' }, headers });
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const stored = JSON.stringify(await app.db.select().from(idempotencyKeys));
    expect(stored).toContain('create-secret-once');
    expect(stored).not.toContain(first.body.key.slice('sk_test_'.length));
    expect(stored).not.toContain(first.body.id);
  });

  it('grants all permissions (["*"]) when scopes are omitted, and de-duplicates scopes', async () => {
    const all = await createKey({ name: 'everything' });
    expect(all.status).toBe(201);
    expect(all.body.scopes).toEqual(['*']);
    expect((await keyRow(all.body.id)).scopes).toEqual(['*']);
    const admin = await app.call(maintenanceRoute.GET, { path: '/admin/maintenance', key: all.body.key });
    expect(admin.status).toBe(200);

    const dup = await createKey({ name: 'dup', scopes: ['files:read', 'files:read'] });
    expect(dup.status).toBe(201);
    expect(dup.body.scopes).toEqual(['files:read']);
  });

  it('rejects an unknown or empty scope list with 400 INVALID_REQUEST and creates nothing', async () => {
    const countBefore = (await app.db.select().from(apiKeys)).length;
    for (const scopes of [['files:admin'], ['files:read', 'everything'], ['FILES:READ'], [], 'files:read', [1]]) {
      const res = await createKey({ name: 'bad scope', scopes });
      const error = expectError(res, 400, 'INVALID_REQUEST');
      expect(error.details.field, JSON.stringify(scopes)).toMatch(/^scopes/);
    }
    expect((await app.db.select().from(apiKeys)).length).toBe(countBefore);
  });

  it('rejects a missing name with 400', async () => {
    for (const body of [{}, { name: '' }, { name: '   ' }, { name: 42 }]) {
      const error = expectError(await createKey(body), 400, 'INVALID_REQUEST');
      expect(error.details.field).toBe('name');
    }
  });

  it('rejects a bad allowed_ips entry with 400', async () => {
    for (const entry of ['10.0.0.0/33', 'abc', '1.2.3', '1.2.3.4/', '256.1.1.1', '2001:db8::/129', '1.2.3/8', '']) {
      const res = await createKey({ name: 'bad ip', allowed_ips: ['192.0.2.1', entry] });
      const error = expectError(res, 400, 'INVALID_REQUEST');
      expect(error.details.field, entry).toBe('allowed_ips.1');
    }
    expectError(await createKey({ name: 'bad ip', allowed_ips: '10.0.0.1' }), 400, 'INVALID_REQUEST');
  });

  it('accepts IPv4, IPv6 and CIDR allowed_ips and enforces them', async () => {
    const res = await createKey({ name: 'office', allowed_ips: ['192.0.2.0/24', '2001:db8::/48', '198.51.100.7'] });
    expect(res.status).toBe(201);
    expect(res.body.allowed_ips).toEqual(['192.0.2.0/24', '2001:db8::/48', '198.51.100.7']);
    const call = (ip: string) => app.call(filesRoute.GET, { path: '/v1/files', key: res.body.key, ip });
    expect((await call('192.0.2.200')).status).toBe(200);
    expect((await call('198.51.100.7')).status).toBe(200);
    expect((await call('2001:db8:0:ffff::1')).status).toBe(200);
    expectError(await call('198.51.100.8'), 403, 'IP_NOT_ALLOWED');
    expectError(await call('2001:db8:1::1'), 403, 'IP_NOT_ALLOWED');
  });

  it('rejects expires_in_days that is not a positive integer with 400', async () => {
    for (const days of [0, -1, 1.5, 'x', '30', null, true]) {
      const res = await createKey({ name: 'bad expiry', expires_in_days: days });
      const error = expectError(res, 400, 'INVALID_REQUEST');
      expect(error.details.field, String(days)).toBe('expires_in_days');
    }
  });

  it('sets expires_at expires_in_days ahead, and no expiry when omitted', async () => {
    const before = Date.now();
    const res = await createKey({ name: 'monthly', expires_in_days: 30 });
    const after = Date.now();
    expect(res.status).toBe(201);
    const expires = Date.parse(res.body.expires_at);
    expect(expires).toBeGreaterThanOrEqual(before + 30 * DAY_MS - 1000);
    expect(expires).toBeLessThanOrEqual(after + 30 * DAY_MS + 1000);
    expect((await keyRow(res.body.id)).expiresAt?.getTime()).toBe(expires);
    expect((await useKey(res.body.key)).status).toBe(200);

    const forever = await createKey({ name: 'forever' });
    expect(forever.body.expires_at).toBeNull();
    expect((await keyRow(forever.body.id)).expiresAt).toBeNull();
  });

  it('needs an administrator: a files:* key gets 403 INSUFFICIENT_SCOPE', async () => {
    const { key } = await app.createKey({ scopes: ['files:*'] });
    const countBefore = (await app.db.select().from(apiKeys)).length;
    for (const body of [{ name: 'nope' }, { name: 'nope', scopes: ['files:read'] }]) {
      const error = expectError(await createKey(body, key), 403, 'INSUFFICIENT_SCOPE');
      expect(error.details.required_scope).toBe('api-keys:*');
    }
    expectError(await listKeys('', key), 403, 'INSUFFICIENT_SCOPE');
    expect((await app.db.select().from(apiKeys)).length).toBe(countBefore);
  });

  it('an api-keys:* key cannot grant scopes it lacks, but can grant api-keys:*', async () => {
    const { key } = await app.createKey({ scopes: ['api-keys:*'] });
    const countBefore = (await app.db.select().from(apiKeys)).length;

    const files = expectError(await createKey({ name: 'x', scopes: ['files:read'] }, key), 403, 'INSUFFICIENT_SCOPE');
    expect(files.details.ungrantable_scopes).toEqual(['files:read']);
    expect(files.message).toContain('files:read');

    const omitted = expectError(await createKey({ name: 'x' }, key), 403, 'INSUFFICIENT_SCOPE');
    expect(omitted.details.ungrantable_scopes).toEqual(['*']);

    const mixed = expectError(
      await createKey({ name: 'x', scopes: ['api-keys:*', 'files:read', 'webhooks:*'] }, key),
      403,
      'INSUFFICIENT_SCOPE',
    );
    expect(mixed.details.ungrantable_scopes).toEqual(['files:read', 'webhooks:*']);
    expect((await app.db.select().from(apiKeys)).length).toBe(countBefore);

    const ok = await createKey({ name: 'delegate', scopes: ['api-keys:*'] }, key);
    expect(ok.status).toBe(201);
    expect(ok.body.scopes).toEqual(['api-keys:*']);
    expect(ok.body.key).toMatch(KEY_FORMAT);
  });
});

describe('GET /v1/api-keys', () => {
  it('lists keys with key_prefix and never the key itself', async () => {
    const created = await createKey({ name: 'listed', scopes: ['kb:read'], allowed_ips: ['192.0.2.9'] });
    const res = await listKeys('?limit=100');
    expect(res.status).toBe(200);
    expect(res.text).not.toContain(created.body.key);
    expect(res.text).not.toContain(created.body.key.slice('sk_test_'.length));
    const item = res.body.items.find((k: { id: string }) => k.id === created.body.id);
    expect(Object.keys(item).sort()).toEqual(
      ['allowed_ips', 'created_at', 'expires_at', 'id', 'key_prefix', 'knowledge_base_ids', 'last_used_at', 'name', 'scopes'].sort(),
    );
    expect(item).toMatchObject({
      name: 'listed',
      scopes: ['kb:read'],
      allowed_ips: ['192.0.2.9'],
      knowledge_base_ids: null,
      last_used_at: null,
      expires_at: null,
      created_at: created.body.created_at,
    });
    expect(item.key_prefix.startsWith('sk_test_')).toBe(true);
    expect(created.body.key.startsWith(item.key_prefix)).toBe(true);
    expect(item.key_prefix.length).toBeLessThan(created.body.key.length);
    for (const k of res.body.items) {
      expect(k).not.toHaveProperty('key');
      expect(k).not.toHaveProperty('key_hash');
    }
  });

  it('echoes limit and offset, paginates and sorts by name', async () => {
    for (const name of ['zsortc', 'zsorta', 'zsortb']) expect((await createKey({ name })).status).toBe(201);

    const defaults = await listKeys();
    expect(defaults.status).toBe(200);
    expect(defaults.body).toMatchObject({ limit: 50, offset: 0 });
    expect(defaults.body.total).toBeGreaterThanOrEqual(3);

    const asc = await listKeys('?sort_by=name&order=asc&limit=100');
    const ascNames: string[] = asc.body.items.map((k: { name: string }) => k.name);
    expect(ascNames.filter((n) => n.startsWith('zsort'))).toEqual(['zsorta', 'zsortb', 'zsortc']);
    expect(asc.body.items.length).toBe(asc.body.total);

    const desc = await listKeys('?sort_by=name&order=desc&limit=100');
    expect(desc.body.items.map((k: { name: string }) => k.name).filter((n: string) => n.startsWith('zsort'))).toEqual([
      'zsortc',
      'zsortb',
      'zsorta',
    ]);

    const page = await listKeys('?sort_by=name&order=asc&limit=2&offset=1');
    expect(page.status).toBe(200);
    expect(page.body).toMatchObject({ limit: 2, offset: 1, total: asc.body.total });
    expect(page.body.items.map((k: { id: string }) => k.id)).toEqual(asc.body.items.slice(1, 3).map((k: { id: string }) => k.id));

    const beyond = await listKeys(`?offset=${asc.body.total}`);
    expect(beyond.body.items).toEqual([]);
    expect(beyond.body.total).toBe(asc.body.total);

    // Default order: newest first.
    const newest = await listKeys('?limit=1');
    expect(newest.body.items[0].name).toBe('zsortb');
  });

  it('rejects bad sort and pagination parameters with 400', async () => {
    for (const q of ['sort_by=key_hash', 'sort_by=scopes', 'order=up', 'limit=0', 'limit=101', 'offset=-1', 'limit=x']) {
      const error = expectError(await listKeys(`?${q}`), 400, 'INVALID_REQUEST');
      expect(error.details.field, q).toBe(q.split('=')[0]);
    }
    expect((await listKeys('?sort_by=last_used_at&order=asc')).status).toBe(200);
    expect((await listKeys('?sort_by=expires_at&order=desc')).status).toBe(200);
  });
});

describe('DELETE /v1/api-keys/{key_id}', () => {
  it('revokes with 204; the key then gets 401, leaves the list, and a second revoke is 404', async () => {
    const created = await createKey({ name: 'short-lived' });
    const id: string = created.body.id;
    expect((await useKey(created.body.key)).status).toBe(200);
    const totalBefore = (await listKeys()).body.total;

    const res = await revokeKey(id);
    expect(res.status).toBe(204);
    expect(res.text).toBe('');

    const denied = expectError(await useKey(created.body.key), 401, 'UNAUTHORIZED');
    expect(denied.message).toMatch(/revoked/i);
    expect((await keyRow(id)).revokedAt).toBeInstanceOf(Date);

    const after = await listKeys('?limit=100');
    expect(after.body.total).toBe(totalBefore - 1);
    expect(after.body.items.some((k: { id: string }) => k.id === id)).toBe(false);

    const again = expectError(await revokeKey(id), 404, 'API_KEY_NOT_FOUND');
    expect(again.details.id).toBe(id);
  });

  it('answers 404 API_KEY_NOT_FOUND for unknown ids, including the environment administrator', async () => {
    expectError(await revokeKey('key_01jd0000000000000000000000'), 404, 'API_KEY_NOT_FOUND');
    expectError(await revokeKey('key_environment_admin'), 404, 'API_KEY_NOT_FOUND');
    expect((await useKey(app.adminKey)).status).toBe(200);
  });

  it('a revoked administrator key can no longer create keys', async () => {
    const admin = await createKey({ name: 'temp admin', scopes: ['api-keys:*'] });
    expect((await createKey({ name: 'child', scopes: ['api-keys:*'] }, admin.body.key)).status).toBe(201);
    expect((await revokeKey(admin.body.id)).status).toBe(204);
    expectError(await createKey({ name: 'child', scopes: ['api-keys:*'] }, admin.body.key), 401, 'UNAUTHORIZED');
  });

  it('needs an administrator key', async () => {
    const target = await createKey({ name: 'target' });
    const { key } = await app.createKey({ scopes: ['files:*', 'webhooks:*'] });
    const error = expectError(await revokeKey(target.body.id, key), 403, 'INSUFFICIENT_SCOPE');
    expect(error.details.required_scope).toBe('api-keys:*');
    expect((await keyRow(target.body.id)).revokedAt).toBeNull();
    expect((await useKey(target.body.key)).status).toBe(200);
  });
});

describe('key use', () => {
  it('sets last_used_at on use and does not rewrite it within a minute', async () => {
    const created = await createKey({ name: 'tracked' });
    const id: string = created.body.id;
    expect((await keyRow(id)).lastUsedAt).toBeNull();

    const before = Date.now();
    expect((await useKey(created.body.key)).status).toBe(200);
    const first = (await keyRow(id)).lastUsedAt;
    expect(first).toBeInstanceOf(Date);
    expect(first!.getTime()).toBeGreaterThanOrEqual(before - 1000);
    expect(first!.getTime()).toBeLessThanOrEqual(Date.now() + 1000);

    await new Promise((r) => setTimeout(r, 20));
    expect((await useKey(created.body.key)).status).toBe(200);
    const second = (await keyRow(id)).lastUsedAt;
    expect(second!.getTime()).toBe(first!.getTime());

    const listed = (await allListed()).find((k) => k.id === id) as unknown as { last_used_at: string };
    expect(listed.last_used_at).toBe(first!.toISOString());

    // Once the minute has passed, the next use writes it again.
    const longAgo = new Date(Date.now() - 61_000);
    await app.db.update(apiKeys).set({ lastUsedAt: longAgo }).where(eq(apiKeys.id, id));
    forgetCachedKeys(); // the embedded database's in-process key cache does not see direct edits
    expect((await useKey(created.body.key)).status).toBe(200);
    const third = (await keyRow(id)).lastUsedAt;
    expect(third!.getTime()).toBeGreaterThan(longAgo.getTime() + 60_000);
  });

  it('an expired key gets 401 with a message about its expiry', async () => {
    const created = await createKey({ name: 'expiring', expires_in_days: 1 });
    expect((await useKey(created.body.key)).status).toBe(200);
    await expireKey(app.db, created.body.id);
    const error = expectError(await useKey(created.body.key), 401, 'UNAUTHORIZED');
    expect(error.message).toMatch(/expire/i);
    // Still listed (it was not revoked), with its expiry in the past.
    const listed = (await allListed()).find((k) => k.id === created.body.id) as unknown as { expires_at: string };
    expect(Date.parse(listed.expires_at)).toBeLessThan(Date.now());
  });

  it('answers 401 for an unknown key of the right format', async () => {
    const error = expectError(await useKey('sk_test_' + 'A'.repeat(32)), 401, 'UNAUTHORIZED');
    expect(error.message).toMatch(/invalid/i);
  });

  it('the QUARRY_ADMIN_KEY holds every scope', async () => {
    expect(app.adminKey.startsWith('sk_test_')).toBe(true);
    expect((await useKey(app.adminKey)).status).toBe(200);
    expect((await app.call(eventsRoute.GET, { path: '/v1/events' })).status).toBe(200);
    expect((await app.call(maintenanceRoute.GET, { path: '/admin/maintenance' })).status).toBe(200);
    const ext = await app.call(fileExtractionsRoute.GET, {
      path: '/v1/files/file_01jd0000000000000000000000/extractions',
      params: { file_id: 'file_01jd0000000000000000000000' },
    });
    expectError(ext, 404, 'FILE_NOT_FOUND');
    expect((await listKeys()).status).toBe(200);

    // It may grant any scope, alone or all together.
    for (const scope of SCOPES) {
      const res = await createKey({ name: `granted ${scope}`, scopes: [scope] });
      expect(res.status, scope).toBe(201);
      expect(res.body.scopes).toEqual([scope]);
    }
    const all = await createKey({ name: 'granted all', scopes: [...SCOPES] });
    expect(all.status).toBe(201);
    expect(all.body.scopes).toEqual([...SCOPES]);
  });
});

describe('keys limited to knowledge bases (knowledge_base_ids)', () => {
  it('creates one with files, extractions and kb scopes by default, shown in the answer, the list and /v1/me', async () => {
    const a = await createKb(app, { name: 'limit a' });
    const b = await createKb(app, { name: 'limit b' });
    const res = await createKey({ name: 'agent', knowledge_base_ids: [a, b, a] });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'], knowledge_base_ids: [a, b] });
    expect((await keyRow(res.body.id)).knowledgeBaseIds).toEqual([a, b]);
    const listed = (await allListed()).find((k) => k.id === res.body.id) as unknown as { knowledge_base_ids: string[] };
    expect(listed.knowledge_base_ids).toEqual([a, b]);
    const me = await app.call(meRoute.GET, { path: '/v1/me', key: res.body.key });
    expect(me.body).toMatchObject({ kind: 'api_key', knowledge_base_ids: [a, b], scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'] });

    const narrow = await createKey({ name: 'searcher', scopes: ['kb:search'], knowledge_base_ids: [a] });
    expect(narrow.body).toMatchObject({ scopes: ['kb:search'], knowledge_base_ids: [a] });
    // null is the same as leaving it out: every knowledge base.
    const open = await createKey({ name: 'open', scopes: ['kb:read'], knowledge_base_ids: null });
    expect(open.body.knowledge_base_ids).toBeNull();
    const unlimitedMe = await app.call(meRoute.GET, { path: '/v1/me', key: open.body.key });
    expect(unlimitedMe.body.knowledge_base_ids).toBeNull();
  });

  it('answers 404 KNOWLEDGE_BASE_NOT_FOUND naming the unknown ids, and creates nothing', async () => {
    const a = await createKb(app, { name: 'exists' });
    const missing = ['kb_01jd0000000000000000000000', 'kb_01jd0000000000000000000001'];
    const countBefore = (await app.db.select().from(apiKeys)).length;
    const error = expectError(await createKey({ name: 'x', knowledge_base_ids: [a, ...missing] }), 404, 'KNOWLEDGE_BASE_NOT_FOUND');
    expect(error.details).toMatchObject({ field: 'knowledge_base_ids', ids: missing });
    expect((await app.db.select().from(apiKeys)).length).toBe(countBefore);
  });

  it('rejects ids that are not knowledge base ids, an empty list, more than 100, and scopes beyond knowledge bases with 400', async () => {
    const a = await createKb(app, { name: 'valid' });
    const countBefore = (await app.db.select().from(apiKeys)).length;
    for (const [knowledge_base_ids, field] of [
      [['file_01jd0000000000000000000000'], 'knowledge_base_ids.0'],
      [['kb_'], 'knowledge_base_ids.0'],
      [[], 'knowledge_base_ids'],
      [Array.from({ length: 101 }, () => a), 'knowledge_base_ids'],
      ['kb_x', 'knowledge_base_ids'],
    ] as const) {
      const error = expectError(await createKey({ name: 'x', knowledge_base_ids }), 400, 'INVALID_REQUEST');
      expect(error.details.field, JSON.stringify(knowledge_base_ids).slice(0, 40)).toBe(field);
    }
    for (const scopes of [['*'], ['webhooks:*'], ['kb:read', 'api-keys:*']]) {
      const error = expectError(await createKey({ name: 'x', scopes, knowledge_base_ids: [a] }), 400, 'INVALID_REQUEST');
      expect(error.details.field).toBe('scopes');
      expect(error.details.scopes).toEqual(scopes.filter((s) => s !== 'kb:read'));
    }
    expect((await app.db.select().from(apiKeys)).length).toBe(countBefore);
  });

  it('documents the field in the OpenAPI schemas of the request and of both answers', async () => {
    const { openApiDocument } = await import('@/lib/api/openapi');
    const schemas = (openApiDocument() as unknown as { components: { schemas: Record<string, { properties: Record<string, { description?: string }> }> } }).components.schemas;
    for (const name of ['CreateApiKey', 'CreatedApiKey', 'ApiKey', 'Me']) {
      expect(schemas[name].properties.knowledge_base_ids?.description, name).toMatch(/knowledge bases/);
    }
  });
});
