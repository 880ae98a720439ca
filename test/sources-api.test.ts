/**
 * The source resource's API with the server's default settings (private addresses refused):
 * validation with the field named, the private-address guard on every type, schedules in plain
 * words, updates, the connection test, and scopes.
 */
import { afterEach, describe, expect, it } from 'vitest';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as sourceRoute from '@/app/v1/sources/[source_id]/route';
import * as testRoute from '@/app/v1/sources/test/route';
import { setSourceLookup } from '@/lib/sources/http';
import { useTestApp } from './support/app';
import { createKb } from './support/knowledge-bases';

const app = useTestApp();

afterEach(() => setSourceLookup(undefined));

/** A literal public address: accepted without a DNS lookup, never called (no first sync). */
const PUBLIC_URL = 'https://93.184.216.34/handbook.pdf';

async function create(body: Record<string, unknown>, key?: string) {
  return app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body, key });
}

describe('creating a source', () => {
  it('answers 201 with the config and its defaults, the schedule in words and no first sync when sync is false', async () => {
    const kbId = await createKb(app);
    const res = await create({ type: 'url', knowledge_base_id: kbId, config: { url: PUBLIC_URL }, schedule: { interval: '6h' }, sync: false });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({
      type: 'url',
      name: '93.184.216.34/handbook.pdf',
      config: { url: PUBLIC_URL, keep_deleted: false },
      has_credentials: false,
      schedule: { interval: '6h', interval_seconds: 21_600 },
      schedule_description: 'Every 6 hours',
      extraction_mode: 'normal',
      chunking: null,
      enabled: true,
      item_count: 0,
      last_run: null,
    });
    const next = Date.parse(res.body.next_sync_at) - Date.now();
    expect(next).toBeGreaterThan(5.9 * 3600_000);
    expect(next).toBeLessThanOrEqual(6 * 3600_000);
  });

  it('reads a cron schedule in its time zone and says it in words', async () => {
    const kbId = await createKb(app);
    const res = await create({ type: 'url', knowledge_base_id: kbId, config: { url: PUBLIC_URL }, schedule: { cron: '0 3 * * 1-5', timezone: 'Europe/Paris' }, sync: false });
    expect(res.status, res.text).toBe(201);
    expect(res.body.schedule).toEqual({ cron: '0 3 * * 1-5', timezone: 'Europe/Paris' });
    expect(res.body.schedule_description).toBe('At 03:00 AM, Monday through Friday (Europe/Paris)');
    const hour = new Intl.DateTimeFormat('en-GB', { timeZone: 'Europe/Paris', hour: '2-digit', hour12: false }).format(new Date(res.body.next_sync_at));
    expect(hour).toBe('03');
  });

  it.each([
    [{ type: 'ftp', config: {} }, 'type'],
    [{ type: 'web', config: {} }, 'config.start_url'],
    [{ type: 'web', config: { start_url: 'ftp://example.com/' } }, 'config.start_url'],
    [{ type: 'web', config: { start_url: 'https://example.com/', max_depth: 11 } }, 'config.max_depth'],
    [{ type: 's3', config: { bucket: 'Not A Bucket' } }, 'config.bucket'],
    [{ type: 'url', config: { url: PUBLIC_URL }, credentials: { token: 'x' } }, 'credentials'],
    [{ type: 's3', config: { bucket: 'docs' }, credentials: { access_key_id: 'a' } }, 'credentials.secret_access_key'],
    [{ type: 'url', config: { url: PUBLIC_URL }, schedule: { interval: '2m' } }, 'schedule.interval'],
    [{ type: 'url', config: { url: PUBLIC_URL }, schedule: { cron: 'every day' } }, 'schedule.cron'],
    [{ type: 'url', config: { url: PUBLIC_URL }, schedule: { cron: '* * * * * *' } }, 'schedule.cron'],
    [{ type: 'url', config: { url: PUBLIC_URL }, schedule: { cron: '0 3 * * *', timezone: 'Mars/Olympus' } }, 'schedule.timezone'],
    [{ type: 'url', config: { url: PUBLIC_URL }, chunking: { chunk_size: 10 } }, 'chunking.chunk_size'],
  ])('refuses %j with 400 naming %s', async (body, field) => {
    const kbId = await createKb(app);
    const res = await create({ knowledge_base_id: kbId, sync: false, ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error.code).toBe('INVALID_REQUEST');
    expect(String(res.body.error.details.field)).toBe(field);
  });

  it('answers 404 for a knowledge base that does not exist', async () => {
    const res = await create({ type: 'url', knowledge_base_id: 'kb_01jd0000000000000000000000', config: { url: PUBLIC_URL } });
    expect(res.status).toBe(404);
    expect(res.body.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
  });
});

describe('the private-address guard', () => {
  it.each([
    ['a loopback start URL', { type: 'web', config: { start_url: 'http://127.0.0.1:8080/docs/' } }],
    ['a metadata address', { type: 'url', config: { url: 'http://169.254.169.254/latest/meta-data/' } }],
    ['a private bucket endpoint', { type: 's3', config: { bucket: 'docs', endpoint: 'http://10.0.0.5:9000' } }],
    ['a local name', { type: 'url', config: { url: 'http://fileserver.local/report.pdf' } }],
    ['an IPv6 loopback sitemap', { type: 'web', config: { sitemap_url: 'http://[::1]/sitemap.xml' } }],
  ])('refuses %s', async (_what, body) => {
    const kbId = await createKb(app);
    const res = await create({ knowledge_base_id: kbId, ...body });
    expect(res.status, res.text).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'INVALID_REQUEST', details: { field: 'config' } });
    expect(res.body.error.message).toMatch(/sources may not reach private, loopback, link-local or metadata addresses/);
  });

  it('refuses a name that resolves to a private address now, and the connection test likewise', async () => {
    setSourceLookup(async () => [{ address: '192.168.1.20', family: 4 }]);
    const kbId = await createKb(app);
    const res = await create({ knowledge_base_id: kbId, type: 'web', config: { start_url: 'https://intranet.example.com/docs/' } });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/intranet\.example\.com resolves to 192\.168\.1\.20/);
    const tested = await app.call(testRoute.POST, { method: 'POST', path: '/v1/sources/test', body: { type: 'web', config: { start_url: 'https://intranet.example.com/docs/' } } });
    expect(tested.status).toBe(400);
  });
});

describe('updating and deleting', () => {
  it('changes the schedule, disables and enables, keeps credentials write-only, and 404s once deleted', async () => {
    const kbId = await createKb(app);
    const created = await create({
      type: 's3',
      knowledge_base_id: kbId,
      config: { bucket: 'docs', endpoint: 'https://93.184.216.34' },
      credentials: { access_key_id: 'AKIAEXAMPLE', secret_access_key: 'a-secret-that-stays-secret' },
      sync: false,
    });
    expect(created.status, created.text).toBe(201);
    expect(created.text).not.toContain('a-secret-that-stays-secret');
    const id = created.body.id;
    const patch = (body: Record<string, unknown>) => app.call(sourceRoute.PATCH, { method: 'PATCH', path: `/v1/sources/${id}`, params: { source_id: id }, body });

    const scheduled = await patch({ schedule: { cron: '30 2 * * *' }, name: 'Handbook bucket' });
    expect(scheduled.body).toMatchObject({ name: 'Handbook bucket', schedule: { cron: '30 2 * * *', timezone: 'UTC' }, schedule_description: 'At 02:30 AM (UTC)' });
    expect(scheduled.body.next_sync_at).not.toBeNull();
    const disabled = await patch({ enabled: false });
    expect(disabled.body).toMatchObject({ enabled: false, next_sync_at: null });
    expect((await patch({ enabled: true })).body.next_sync_at).not.toBeNull();
    expect((await patch({ schedule: null })).body).toMatchObject({ schedule: null, schedule_description: null, next_sync_at: null });
    // Config can change; credentials stay until replaced or removed.
    const moved = await patch({ config: { bucket: 'docs', prefix: 'handbook/', endpoint: 'https://93.184.216.34' } });
    expect(moved.body).toMatchObject({ config: { prefix: 'handbook/' }, has_credentials: true });
    expect((await patch({ credentials: null })).body.has_credentials).toBe(false);
    expect((await patch({ type: 'web' })).status).toBe(400);

    const deleted = await app.call(sourceRoute.DELETE, { method: 'DELETE', path: `/v1/sources/${id}`, params: { source_id: id } });
    expect(deleted.status).toBe(204);
    const after = await app.call(sourceRoute.GET, { path: `/v1/sources/${id}`, params: { source_id: id } });
    expect(after.status).toBe(404);
    expect(after.body.error).toMatchObject({ code: 'SOURCE_NOT_FOUND', details: { id } });
  });

  it('lists sources newest first, filtered by knowledge base', async () => {
    const a = await createKb(app, { name: 'list a' });
    const b = await createKb(app, { name: 'list b' });
    const first = await create({ type: 'url', knowledge_base_id: a, config: { url: `${PUBLIC_URL}?1` }, sync: false });
    const second = await create({ type: 'url', knowledge_base_id: a, config: { url: `${PUBLIC_URL}?2` }, sync: false });
    await create({ type: 'url', knowledge_base_id: b, config: { url: `${PUBLIC_URL}?3` }, sync: false });
    const res = await app.call(sourcesRoute.GET, { path: `/v1/sources?knowledge_base_id=${a}` });
    expect(res.status).toBe(200);
    expect(res.body.total).toBe(2);
    expect(res.body.items.map((s: { id: string }) => s.id)).toEqual([second.body.id, first.body.id]);
  });
});

describe('scopes', () => {
  it('a key without sources scopes is refused; sources:read reads but does not write', async () => {
    const kbId = await createKb(app);
    const kbOnly = await app.createKey({ scopes: ['kb:*'] });
    const refused = await app.call(sourcesRoute.GET, { path: '/v1/sources', key: kbOnly.key });
    expect(refused.status).toBe(403);
    expect(refused.body.error.details.required_scope).toBe('sources:read');
    const reader = await app.createKey({ scopes: ['sources:read'] });
    expect((await app.call(sourcesRoute.GET, { path: '/v1/sources', key: reader.key })).status).toBe(200);
    const write = await create({ type: 'url', knowledge_base_id: kbId, config: { url: PUBLIC_URL }, sync: false }, reader.key);
    expect(write.status).toBe(403);
    expect(write.body.error.details.required_scope).toBe('sources:write');
  });
});
