import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as filesRoute from '@/app/v1/files/route';
import { json, route } from '@/lib/api/handler';
import { ENV_ADMIN_KEY_ID } from '@/lib/auth/api-keys';
import { apiKeys, files, idempotencyKeys } from '@/lib/db/schema';
import { useTestApp, type TestResponse } from '@/test/support/app';
import { fixture, formWith } from '@/test/support/fixtures';

const app = useTestApp();

let counter = 0;
/** A fresh Idempotency-Key per use, so tests never see each other's records. */
const newIdemKey = (label: string) => `idem-${label}-${Date.now()}-${++counter}`;

function createKey(body: unknown, idempotencyKey: string | null, key?: string): Promise<TestResponse> {
  return app.call(apiKeysRoute.POST, {
    method: 'POST',
    path: '/v1/api-keys',
    body,
    key,
    headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
  });
}

function upload(
  name: string,
  bytes: Uint8Array,
  fields: Record<string, string>,
  idempotencyKey: string | null,
  key?: string,
): Promise<TestResponse> {
  return app.call(filesRoute.POST, {
    method: 'POST',
    path: '/v1/files',
    body: formWith(name, bytes, fields),
    key,
    headers: idempotencyKey === null ? {} : { 'Idempotency-Key': idempotencyKey },
  });
}

async function apiKeyRowsNamed(name: string) {
  return app.db.select({ id: apiKeys.id }).from(apiKeys).where(eq(apiKeys.name, name));
}

async function fileRowsNamed(filename: string) {
  return app.db.select({ id: files.id }).from(files).where(eq(files.filename, filename));
}

async function idempotencyRows(key: string) {
  return app.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
}

describe('Idempotency-Key on POST /v1/api-keys', () => {
  it('replays the first response (same status, identical body, Idempotent-Replayed) and creates one row', async () => {
    const idem = newIdemKey('replay');
    const name = `replayed ${idem}`;
    const first = await createKey({ name, scopes: ['files:read'] }, idem);
    expect(first.status).toBe(201);
    expect(first.body.id).toMatch(/^key_/);
    expect(first.headers.get('idempotent-replayed')).toBeNull();

    const second = await createKey({ name, scopes: ['files:read'] }, idem);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.headers.get('content-type')).toContain('application/json');
    expect(second.text).toBe(first.text);
    expect(second.body.id).toBe(first.body.id);
    expect(second.headers.get('x-request-id')).toMatch(/^req_/);
    expect(second.headers.get('x-request-id')).not.toBe(first.headers.get('x-request-id'));

    expect(await apiKeyRowsNamed(name)).toEqual([{ id: first.body.id }]);
    const [record] = await idempotencyRows(idem);
    expect(record).toMatchObject({ principal: ENV_ADMIN_KEY_ID, method: 'POST', path: '/v1/api-keys', state: 'completed', responseStatus: 201 });
    // The stored response holds the new key's secret: it must not sit in the table in clear text.
    expect(first.body.key).toMatch(/^sk_test_/);
    expect(record.responseBody).not.toContain(first.body.key);
    expect(record.responseBody).not.toContain(first.body.key.slice(8));
  });

  it('treats the same JSON with another key order and whitespace as the same request', async () => {
    const idem = newIdemKey('order');
    const name = `ordered ${idem}`;
    const first = await createKey({ name, scopes: ['files:read'], expires_in_days: 7 }, idem);
    expect(first.status).toBe(201);
    const reordered = await app.call(apiKeysRoute.POST, {
      method: 'POST',
      path: '/v1/api-keys',
      headers: { 'Idempotency-Key': idem, 'content-type': 'application/json' },
      body: `{ "expires_in_days": 7,\n  "scopes": ["files:read"], "name": ${JSON.stringify(name)} }`,
    });
    expect(reordered.status).toBe(201);
    expect(reordered.headers.get('idempotent-replayed')).toBe('true');
    expect(reordered.body.id).toBe(first.body.id);
    expect(await apiKeyRowsNamed(name)).toHaveLength(1);
  });

  it('answers 409 IDEMPOTENCY_KEY_REUSED for a different body under the same key, and keeps the first result', async () => {
    const idem = newIdemKey('reuse');
    const first = await createKey({ name: `first ${idem}` }, idem);
    expect(first.status).toBe(201);

    const conflict = await createKey({ name: `second ${idem}` }, idem);
    expect(conflict.status).toBe(409);
    expect(conflict.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(conflict.body.error.request_id).toBe(conflict.headers.get('x-request-id'));
    expect(conflict.headers.get('idempotent-replayed')).toBeNull();
    expect(await apiKeyRowsNamed(`second ${idem}`)).toHaveLength(0);

    // The original request still replays after the conflict.
    const again = await createKey({ name: `first ${idem}` }, idem);
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(first.body.id);
  });

  it('answers 409 when a key used on one endpoint is reused on another', async () => {
    const idem = newIdemKey('cross');
    const created = await createKey({ name: `cross ${idem}` }, idem);
    expect(created.status).toBe(201);
    const onFiles = await upload(`cross-${idem}.txt`, Buffer.from('cross'), {}, idem);
    expect(onFiles.status).toBe(409);
    expect(onFiles.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await fileRowsNamed(`cross-${idem}.txt`)).toHaveLength(0);

    const idem2 = newIdemKey('cross-back');
    const uploaded = await upload(`back-${idem2}.txt`, Buffer.from('back'), {}, idem2);
    expect(uploaded.status).toBe(201);
    const onKeys = await createKey({ name: `back ${idem2}` }, idem2);
    expect(onKeys.status).toBe(409);
    expect(onKeys.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    expect(await apiKeyRowsNamed(`back ${idem2}`)).toHaveLength(0);
  });

  it('runs ten concurrent identical requests once: one row, one id for all', async () => {
    const idem = newIdemKey('concurrent');
    const name = `concurrent ${idem}`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => createKey({ name, scopes: ['kb:read'] }, idem)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(new Set(responses.map((r) => r.body.key)).size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await apiKeyRowsNamed(name)).toEqual([{ id: [...ids][0] }]);
  });

  it('does not burn the key on a 400 validation error: a corrected retry succeeds', async () => {
    const idem = newIdemKey('invalid-first');
    const bad = await createKey({ name: '', scopes: ['files:read'] }, idem);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    expect(await idempotencyRows(idem)).toHaveLength(0);

    const good = await createKey({ name: `corrected ${idem}`, scopes: ['files:read'] }, idem);
    expect(good.status).toBe(201);
    expect(good.headers.get('idempotent-replayed')).toBeNull();
    const replay = await createKey({ name: `corrected ${idem}`, scopes: ['files:read'] }, idem);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body.id).toBe(good.body.id);
  });

  it('does not burn the key when the creation itself fails (403 inside the effect)', async () => {
    // An api-keys:* administrator may not grant files:* (it does not hold it): createApiKey throws 403.
    const limitedAdmin = await app.createKey({ scopes: ['api-keys:*'] });
    const idem = newIdemKey('effect-fails');
    const refused = await createKey({ name: `effect ${idem}`, scopes: ['files:*'] }, idem, limitedAdmin.key);
    expect(refused.status).toBe(403);
    expect(refused.body.error.code).toBe('INSUFFICIENT_SCOPE');
    expect(await idempotencyRows(idem)).toHaveLength(0);

    const retry = await createKey({ name: `effect ${idem}`, scopes: ['api-keys:*'] }, idem, limitedAdmin.key);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBeNull();
    expect(await apiKeyRowsNamed(`effect ${idem}`)).toHaveLength(1);
  });

  it('does not store an error response a handler returns (not throws): the retry runs the effect again', async () => {
    let runs = 0;
    const flaky = route({ auth: 'authenticated', body: z.object({ n: z.number() }), idempotent: true }, async ({ body }) => {
      runs += 1;
      return runs === 1 ? json({ error: { code: 'SERVICE_UNAVAILABLE', message: 'try later' } }, 503) : json({ n: body.n, run: runs }, 201);
    });
    const idem = newIdemKey('returned-error');
    const send = () => app.call(flaky, { method: 'POST', path: '/v1/flaky', body: { n: 7 }, headers: { 'Idempotency-Key': idem } });
    expect((await send()).status).toBe(503);
    expect(await idempotencyRows(idem)).toHaveLength(0);
    const ok = await send();
    expect(ok.status).toBe(201);
    expect(ok.body).toEqual({ n: 7, run: 2 });
    const replay = await send();
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual({ n: 7, run: 2 });
    expect(runs).toBe(2);
  });

  it('scopes keys per API key: two callers can use the same Idempotency-Key independently', async () => {
    const other = await app.createKey({ scopes: ['*'] });
    const idem = newIdemKey('per-principal');
    const mine = await createKey({ name: `mine ${idem}` }, idem);
    const theirs = await createKey({ name: `theirs ${idem}` }, idem, other.key);
    expect(mine.status).toBe(201);
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);

    // Each caller still gets its own replay.
    const mineAgain = await createKey({ name: `mine ${idem}` }, idem);
    const theirsAgain = await createKey({ name: `theirs ${idem}` }, idem, other.key);
    expect(mineAgain.body.id).toBe(mine.body.id);
    expect(theirsAgain.body.id).toBe(theirs.body.id);
    expect(theirsAgain.headers.get('idempotent-replayed')).toBe('true');

    const records = await idempotencyRows(idem);
    expect(records.map((r) => r.principal).sort()).toEqual([ENV_ADMIN_KEY_ID, other.id].sort());
  });

  it('forgets a record older than 24 hours: the request runs again', async () => {
    const idem = newIdemKey('expired');
    const name = `expired ${idem}`;
    const first = await createKey({ name }, idem);
    expect(first.status).toBe(201);

    await app.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '25 hours'` })
      .where(and(eq(idempotencyKeys.principal, ENV_ADMIN_KEY_ID), eq(idempotencyKeys.key, idem)));

    const second = await createKey({ name }, idem);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBeNull();
    expect(second.body.id).not.toBe(first.body.id);
    expect(await apiKeyRowsNamed(name)).toHaveLength(2);

    // The new record is fresh and replays from now on.
    const [record] = await idempotencyRows(idem);
    expect(Date.now() - record.createdAt.getTime()).toBeLessThan(60_000);
    const third = await createKey({ name }, idem);
    expect(third.headers.get('idempotent-replayed')).toBe('true');
    expect(third.body.id).toBe(second.body.id);
  });

  it('still replays a record just under 24 hours old', async () => {
    const idem = newIdemKey('fresh');
    const first = await createKey({ name: `fresh ${idem}` }, idem);
    await app.db
      .update(idempotencyKeys)
      .set({ createdAt: sql`now() - interval '23 hours'` })
      .where(eq(idempotencyKeys.key, idem));
    const second = await createKey({ name: `fresh ${idem}` }, idem);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.body.id).toBe(first.body.id);
  });

  it('rejects an invalid Idempotency-Key with 400 INVALID_REQUEST and creates nothing', async () => {
    for (const bad of ['k'.repeat(300), 'has space', 'cl\u00e9']) {
      const name = `invalid idem ${bad.length} ${++counter}`;
      const res = await createKey({ name }, bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field).toBe('Idempotency-Key');
      expect(await apiKeyRowsNamed(name)).toHaveLength(0);
    }
    const ok = await createKey({ name: `max length ${++counter}` }, 'k'.repeat(255));
    expect(ok.status).toBe(201);
  });
});

describe('Idempotency-Key on POST /v1/files (multipart)', () => {
  it('replays the same file and fields although the multipart boundary differs on each send', async () => {
    const bytes = fixture('pdf/code_and_formula.pdf');
    const idem = newIdemKey('upload');
    const filename = `idem-${idem}.pdf`;
    const fields = { metadata: '{"project":"alpha"}', tags: 'a,b' };

    // Two sends of the same form really are framed differently.
    const boundary = (form: FormData) => new Request('http://localhost/', { method: 'POST', body: form }).headers.get('content-type');
    expect(boundary(formWith(filename, bytes, fields))).not.toBe(boundary(formWith(filename, bytes, fields)));

    const first = await upload(filename, bytes, fields, idem);
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const second = await upload(filename, bytes, fields, idem);
    expect(second.status).toBe(201);
    expect(second.headers.get('idempotent-replayed')).toBe('true');
    expect(second.text).toBe(first.text);
    expect(second.body.id).toBe(first.body.id);
    expect(await fileRowsNamed(filename)).toEqual([{ id: first.body.id }]);
  });

  it('answers 409 for a different file, or different fields, under the same key', async () => {
    const idem = newIdemKey('upload-reuse');
    const filename = `reuse-${idem}.txt`;
    const first = await upload(filename, Buffer.from('version one'), { tags: 'x' }, idem);
    expect(first.status).toBe(201);

    const otherBytes = await upload(filename, Buffer.from('version two'), { tags: 'x' }, idem);
    expect(otherBytes.status).toBe(409);
    expect(otherBytes.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    const otherFile = await upload(`other-${idem}.txt`, Buffer.from('version one'), { tags: 'x' }, idem);
    expect(otherFile.status).toBe(409);

    const otherTags = await upload(filename, Buffer.from('version one'), { tags: 'y' }, idem);
    expect(otherTags.status).toBe(409);

    expect(await fileRowsNamed(filename)).toHaveLength(1);
    expect(await fileRowsNamed(`other-${idem}.txt`)).toHaveLength(0);
  });

  it('runs ten concurrent identical uploads once', async () => {
    const idem = newIdemKey('upload-concurrent');
    const filename = `concurrent-${idem}.txt`;
    const responses = await Promise.all(Array.from({ length: 10 }, () => upload(filename, Buffer.from('same bytes'), { tags: 't' }, idem)));
    expect(responses.map((r) => r.status)).toEqual(Array(10).fill(201));
    const ids = new Set(responses.map((r) => r.body.id));
    expect(ids.size).toBe(1);
    expect(responses.filter((r) => r.headers.get('idempotent-replayed') === 'true')).toHaveLength(9);
    expect(await fileRowsNamed(filename)).toEqual([{ id: [...ids][0] }]);
  });

  it('does not burn the key on a 415 or 400 upload: a corrected retry succeeds', async () => {
    const idem = newIdemKey('upload-fix');
    const unsupported = await upload('blob.bin', Buffer.from('not a supported type'), {}, idem);
    expect(unsupported.status).toBe(415);
    expect(unsupported.body.error.code).toBe('UNSUPPORTED_FORMAT');
    const badMetadata = await upload(`fixed-${idem}.txt`, Buffer.from('ok'), { metadata: '[1]' }, idem);
    expect(badMetadata.status).toBe(400);
    expect(await idempotencyRows(idem)).toHaveLength(0);

    const fixed = await upload(`fixed-${idem}.txt`, Buffer.from('ok'), {}, idem);
    expect(fixed.status).toBe(201);
    expect(fixed.headers.get('idempotent-replayed')).toBeNull();
    const replay = await upload(`fixed-${idem}.txt`, Buffer.from('ok'), {}, idem);
    expect(replay.body.id).toBe(fixed.body.id);
    expect(await fileRowsNamed(`fixed-${idem}.txt`)).toHaveLength(1);
  });

  it('scopes upload keys per API key', async () => {
    const writer = await app.createKey({ scopes: ['files:*'] });
    const idem = newIdemKey('upload-principal');
    const filename = `principal-${idem}.txt`;
    const a = await upload(filename, Buffer.from('same'), {}, idem);
    const b = await upload(filename, Buffer.from('same'), {}, idem, writer.key);
    expect(a.status).toBe(201);
    expect(b.status).toBe(201);
    expect(b.headers.get('idempotent-replayed')).toBeNull();
    expect(b.body.id).not.toBe(a.body.id);
    expect(await fileRowsNamed(filename)).toHaveLength(2);
  });

  it('rejects an over-long Idempotency-Key on upload with 400 and stores nothing', async () => {
    const filename = `long-key-${++counter}.txt`;
    const res = await upload(filename, Buffer.from('x'), {}, 'u'.repeat(300));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(res.body.error.details.field).toBe('Idempotency-Key');
    expect(await fileRowsNamed(filename)).toHaveLength(0);
  });
});
