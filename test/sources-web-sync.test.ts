/**
 * web and url sources synced end to end against a small site on loopback (test/support/site-server):
 * the crawl's page set with robots.txt, depth, prefix, redirects, canonicals and a 404 obeyed; an
 * unchanged page costs one conditional request; a changed page is a new version re-indexed in
 * place; a page gone is removed; a single URL is re-checked with its ETag.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as runRoute from '@/app/v1/sources/[source_id]/runs/[run_id]/route';
import * as runsRoute from '@/app/v1/sources/[source_id]/runs/route';
import * as syncRoute from '@/app/v1/sources/[source_id]/sync/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import { files, sourceItems } from '@/lib/db/schema';
import { useTestApp } from './support/app';
import { createKb, drainWorkflows } from './support/knowledge-bases';
import { startReceiver } from './support/receiver';
import { manualPdf, startSite, type Site } from './support/site-server';

const app = useTestApp({ QUARRY_SOURCES_ALLOW_PRIVATE: 'true', QUARRY_WEBHOOK_ALLOW_INSECURE: 'true' });
let site: Site;

beforeAll(async () => {
  site = await startSite();
});

afterAll(async () => {
  await site?.close();
});

type Run = { id: string; status: string; counts: Record<string, number>; items_total: number; limit_reached: boolean };

async function latestRun(sourceId: string): Promise<Run> {
  const res = await app.call(runsRoute.GET, { path: `/v1/sources/${sourceId}/runs`, params: { source_id: sourceId } });
  expect(res.status, res.text).toBe(200);
  return res.body.items[0];
}

async function sync(sourceId: string): Promise<Run> {
  const res = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
  expect(res.status, res.text).toBe(202);
  await drainWorkflows(app);
  return latestRun(sourceId);
}

async function createSource(body: Record<string, unknown>): Promise<string> {
  const res = await app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body });
  expect(res.status, res.text).toBe(201);
  await drainWorkflows(app);
  return res.body.id;
}

/** The paths of the pages a source holds as files. */
async function storedPaths(sourceId: string): Promise<string[]> {
  const rows = await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId));
  return rows.filter((r) => r.fileId && r.state === 'present').map((r) => new URL(r.url).pathname).sort();
}

async function search(kbId: string, query: string) {
  const res = await app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body: { query, top_k: 3 } });
  expect(res.status, res.text).toBe(200);
  return res.body.chunks as Array<{ content: string }>;
}

describe('a web source', () => {
  let kbId: string;
  let sourceId: string;

  it('crawls the site within reach: robots.txt, depth, prefix, nofollow, redirects, canonicals and a 404 obeyed', async () => {
    kbId = await createKb(app);
    sourceId = await createSource({ type: 'web', knowledge_base_id: kbId, config: { start_url: `${site.url}/docs/`, max_depth: 2 } });
    const run = await latestRun(sourceId);
    expect(run).toMatchObject({ status: 'completed', counts: { added: 6, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 6 }, items_total: 12, limit_reached: false });
    expect(await storedPaths(sourceId)).toEqual(['/docs/', '/docs/appendix.html', '/docs/deep/level2.html', '/docs/guide.html', '/docs/intro.html', '/docs/manual.pdf']);
    // Never asked for: disallowed by robots.txt, outside the prefix, too deep, only linked with nofollow.
    const asked = site.requests.map((r) => r.path);
    for (const path of ['/docs/private/secret.html', '/blog/x.html', '/docs/deep/level3.html', '/docs/nofollow.html']) expect(asked).not.toContain(path);

    const detail = await app.call(runRoute.GET, { path: `/v1/sources/${sourceId}/runs/${run.id}`, params: { source_id: sourceId, run_id: run.id } });
    expect(detail.body.failures).toEqual([]);
    expect((await search(kbId, 'heliotrope'))[0].content).toContain('heliotrope');
    // The PDF was fetched by its content type and extracted.
    expect((await search(kbId, 'tamarind'))[0].content).toContain('tamarind');
  }, 120_000);

  it('resyncs an unchanged site with conditional requests: the ETag page answers 304 and still leads to the page only it links', async () => {
    const mark = site.requests.length;
    const run = await sync(sourceId);
    expect(run.counts).toEqual({ added: 0, updated: 0, unchanged: 6, deleted: 0, failed: 0, skipped: 6 });
    // The guide is asked for once, conditionally: /docs/old.html, which redirects to it, is not followed.
    const guide = site.requests.slice(mark).filter((r) => r.path === '/docs/guide.html');
    expect(guide).toHaveLength(1);
    expect(guide[0].headers['if-none-match']).toBeDefined();
    // The appendix is linked only from the guide, whose 304 carried no body.
    expect(await storedPaths(sourceId)).toContain('/docs/appendix.html');
  }, 60_000);

  it('stores a changed page as the next version, and removes a page that is gone', async () => {
    site.setPage('/docs/intro.html', {
      contentType: 'text/html; charset=utf-8',
      body: '<!doctype html><html><head><title>Introduction</title></head><body><h1>Introduction</h1><p>The orchard now grows persimmons along the south wall.</p><a href="deep/level2.html">Deeper</a></body></html>',
    });
    site.removePage('/docs/appendix.html');
    const run = await sync(sourceId);
    expect(run.counts).toMatchObject({ added: 0, updated: 1, deleted: 1, unchanged: 4 });
    const [intro] = await app.db.select().from(sourceItems).where(eq(sourceItems.key, `${site.url}/docs/intro.html`));
    const file = await app.call(fileRoute.GET, { path: `/v1/files/${intro.fileId}`, params: { file_id: intro.fileId! } });
    expect(file.body).toMatchObject({ version: 2, source_item: { source_id: sourceId, url: `${site.url}/docs/intro.html` } });
    expect((await search(kbId, 'persimmons'))[0].content).toContain('persimmons');
    expect((await search(kbId, 'heliotrope sheds')).some((c) => c.content.includes('heliotrope sheds'))).toBe(false);
    expect(await storedPaths(sourceId)).not.toContain('/docs/appendix.html');
    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents`, params: { kb_id: kbId } });
    expect(docs.body.total).toBe(5);
  }, 60_000);

  it('stops at max_pages and then removes nothing it did not reach', async () => {
    const limitedKb = await createKb(app, { name: 'limited' });
    const limited = await createSource({ type: 'web', knowledge_base_id: limitedKb, config: { start_url: `${site.url}/docs/`, max_pages: 3 } });
    const run = await latestRun(limited);
    expect(run).toMatchObject({ status: 'completed', items_total: 3, limit_reached: true });
    expect(run.counts.added).toBe(3);

    // Deleting the knowledge base takes its sources with it; their files stay, as plain files.
    const fileIds = (await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, limited))).map((r) => r.fileId!);
    expect(fileIds).toHaveLength(3);
    const deleted = await app.call(kbRoute.DELETE, { method: 'DELETE', path: `/v1/knowledge-bases/${limitedKb}`, params: { kb_id: limitedKb } });
    expect(deleted.status).toBe(204);
    for (const fileId of fileIds) {
      const file = await app.call(fileRoute.GET, { path: `/v1/files/${fileId}`, params: { file_id: fileId } });
      expect(file.body).toMatchObject({ id: fileId, source_item: null });
    }
  }, 60_000);
});

describe('a page with a great many links', () => {
  it('follows at most 5,000 of them and stops at max_pages', async () => {
    const links = Array.from({ length: 12_000 }, (_, i) => `<a href="p${i}.html">${i}</a>`).join(' ');
    site.setPage('/huge/', { contentType: 'text/html; charset=utf-8', body: `<!doctype html><html><body><p>A directory of twelve thousand pages.</p>${links}</body></html>` });
    const kbId = await createKb(app, { name: 'huge' });
    const sourceId = await createSource({ type: 'web', knowledge_base_id: kbId, config: { start_url: `${site.url}/huge/`, max_pages: 20 } });
    const run = await latestRun(sourceId);
    // The start page, then 19 of its links (none of which exists).
    expect(run).toMatchObject({ status: 'completed', items_total: 20, limit_reached: true, counts: { added: 1, skipped: 19, failed: 0 } });
    const [start] = await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId));
    expect(start.links).toHaveLength(5000);
  }, 60_000);
});

describe('a url source', () => {
  it('fetches one document, then re-checks it with its ETag: unchanged costs one request that returns no body', async () => {
    const kbId = await createKb(app, { name: 'one url' });
    const sourceId = await createSource({ type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/docs/manual.pdf` } });
    expect((await latestRun(sourceId)).counts).toMatchObject({ added: 1, failed: 0 });
    const [item] = await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId));
    const [row] = await app.db.select().from(files).where(eq(files.id, item.fileId!));
    expect(row).toMatchObject({ filename: 'manual.pdf', contentType: 'application/pdf', version: 1 });

    const mark = site.requests.length;
    expect((await sync(sourceId)).counts).toMatchObject({ unchanged: 1, updated: 0 });
    const asked = site.requests.slice(mark);
    expect(asked).toHaveLength(1);
    expect(asked[0].headers['if-none-match']).toBe('"manual-v1"');

    site.removePage('/docs/manual.pdf');
    expect((await sync(sourceId)).counts).toMatchObject({ deleted: 1 });
    expect(await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId))).toEqual([]);
  }, 60_000);

  it('keeps the document of an item gone from the source when keep_deleted is set', async () => {
    site.setPage('/docs/kept.pdf', { body: manualPdf(), contentType: 'application/pdf', etag: '"kept-1"' });
    const kbId = await createKb(app, { name: 'kept' });
    const sourceId = await createSource({ type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/docs/kept.pdf`, keep_deleted: true } });
    expect((await latestRun(sourceId)).counts.added).toBe(1);
    site.removePage('/docs/kept.pdf');
    const run = await sync(sourceId);
    expect(run.counts).toMatchObject({ deleted: 0, skipped: 1 });
    const [item] = await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId));
    expect(item.state).toBe('gone');
    const docs = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents`, params: { kb_id: kbId } });
    expect(docs.body.items).toHaveLength(1);
    expect(docs.body.items[0].status).toBe('indexed');
    // Back at the site with the same bytes: present again, unchanged.
    site.setPage('/docs/kept.pdf', { body: manualPdf(), contentType: 'application/pdf', etag: '"kept-1"' });
    expect((await sync(sourceId)).counts).toMatchObject({ unchanged: 1, added: 0 });
    const [back] = await app.db.select().from(sourceItems).where(eq(sourceItems.sourceId, sourceId));
    expect(back.state).toBe('present');
  }, 60_000);

  it('records a URL that answers with an error as a failure with its reason, and removes nothing', async () => {
    const kbId = await createKb(app, { name: 'failing url' });
    site.setPage('/docs/broken', { status: 500, body: 'oops' });
    const sourceId = await createSource({ type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/docs/broken` } });
    const run = await latestRun(sourceId);
    expect(run).toMatchObject({ status: 'completed', counts: { failed: 1, added: 0 } });
    const detail = await app.call(runRoute.GET, { path: `/v1/sources/${sourceId}/runs/${run.id}`, params: { source_id: sourceId, run_id: run.id } });
    expect(detail.body.failures).toEqual([{ key: `${site.url}/docs/broken`, url: `${site.url}/docs/broken`, reason: `HTTP 500 from ${site.url}/docs/broken` }]);
  }, 60_000);
});

describe('sync events', () => {
  it('reach webhooks: source.sync.completed with the counts, source.sync.failed with the error', async () => {
    const receiver = await startReceiver();
    try {
      const hook = await app.call(webhooksRoute.POST, {
        method: 'POST',
        path: '/v1/webhooks',
        body: { url: receiver.url, events: ['source.sync.completed', 'source.sync.failed'], secret: 'source-events-secret-0123' },
      });
      expect(hook.status, hook.text).toBe(201);
      const kbId = await createKb(app, { name: 'events' });
      const ok = await createSource({ type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/docs/intro.html` } });
      const failing = await createSource({
        type: 's3',
        knowledge_base_id: kbId,
        config: { bucket: 'nowhere', endpoint: 'http://127.0.0.1:9', force_path_style: true },
        credentials: { access_key_id: 'x', secret_access_key: 'y' },
      });
      await drainWorkflows(app);
      const events = receiver.received.map((r) => JSON.parse(r.body.toString()) as { type: string; data: Record<string, unknown> });
      const completed = events.find((e) => e.type === 'source.sync.completed' && e.data.source_id === ok);
      expect(completed?.data).toMatchObject({ kb_id: kbId, status: 'completed', counts: { added: 1, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 }, limit_reached: false });
      const failed = events.find((e) => e.type === 'source.sync.failed' && e.data.source_id === failing);
      expect(failed?.data).toMatchObject({ kb_id: kbId, status: 'failed', error: { code: expect.any(String), message: expect.stringContaining('nowhere') } });
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
