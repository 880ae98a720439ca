/**
 * What a sync does for items whose document is not as the source says: a document that failed is
 * tried again at the next sync (and counted failed again, with its reason, while it still fails),
 * one removed from the knowledge base by hand is added back, and two items with the same bytes
 * make one document (the second is skipped, not failed).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as documentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as runRoute from '@/app/v1/sources/[source_id]/runs/[run_id]/route';
import * as runsRoute from '@/app/v1/sources/[source_id]/runs/route';
import * as syncRoute from '@/app/v1/sources/[source_id]/sync/route';
import { useTestApp } from './support/app';
import { createKb, drainWorkflows } from './support/knowledge-bases';
import { startSite, type Site } from './support/site-server';

const app = useTestApp({ QUARRY_SOURCES_ALLOW_PRIVATE: 'true' });
let site: Site;
const HTML = 'text/html; charset=utf-8';
const page = (title: string, text: string, links = '') => `<!doctype html><html><head><title>${title}</title></head><body><h1>${title}</h1><p>${text}</p>${links}</body></html>`;

beforeAll(async () => {
  site = await startSite();
  site.setPage('/repair/', { contentType: HTML, etag: '"index-1"', body: page('Repair', 'The index of the repair shop.', '<a href="broken.pdf">Broken</a> <a href="a.html">A</a> <a href="b.html">B</a> <a href="kept.html">Kept</a>') });
  // A PDF by its first bytes, cut off after them: its extraction fails.
  site.setPage('/repair/broken.pdf', { contentType: 'application/pdf', etag: '"broken-1"', body: '%PDF-1.7\n%\u00e2\u00e3\u00cf\u00d3\n1 0 obj\n<< /Type /Catalog' });
  const same = page('Twin', 'Twin pages carry the same words about the walnut harvest.');
  site.setPage('/repair/a.html', { contentType: HTML, etag: '"a-1"', body: same });
  site.setPage('/repair/b.html', { contentType: HTML, etag: '"b-1"', body: same });
  site.setPage('/repair/kept.html', { contentType: HTML, etag: '"kept-1"', body: page('Kept', 'A page about the chestnut press that someone removes by hand.') });
});

afterAll(async () => {
  await site?.close();
});

type Run = { id: string; counts: Record<string, number> };

async function latest(sourceId: string): Promise<Run> {
  return (await app.call(runsRoute.GET, { path: `/v1/sources/${sourceId}/runs`, params: { source_id: sourceId } })).body.items[0];
}

async function failures(sourceId: string, runId: string): Promise<{ url: string; reason: string }[]> {
  return (await app.call(runRoute.GET, { path: `/v1/sources/${sourceId}/runs/${runId}`, params: { source_id: sourceId, run_id: runId } })).body.failures;
}

async function sync(sourceId: string): Promise<Run> {
  expect((await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } })).status).toBe(202);
  await drainWorkflows(app);
  return latest(sourceId);
}

describe('putting documents right', () => {
  let kbId: string;
  let sourceId: string;
  const docs = async () => (await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents`, params: { kb_id: kbId } })).body;

  it('counts a document that could not be extracted as failed, with why; the same bytes twice make one document', async () => {
    kbId = await createKb(app);
    const res = await app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body: { type: 'web', knowledge_base_id: kbId, config: { start_url: `${site.url}/repair/` } } });
    expect(res.status, res.text).toBe(201);
    sourceId = res.body.id;
    await drainWorkflows(app);
    const run = await latest(sourceId);
    expect(run.counts).toEqual({ added: 3, updated: 0, unchanged: 0, deleted: 0, failed: 1, skipped: 1 });
    const [failure] = await failures(sourceId, run.id);
    expect(failure.url).toBe(`${site.url}/repair/broken.pdf`);
    expect(failure.reason).toMatch(/^The document could not be indexed: The file could not be turned into text/);
    expect((await docs()).total).toBe(4);
  }, 60_000);

  it('tries the failed document again at the next sync, and adds back one removed by hand', async () => {
    const list = await docs();
    const kept = list.items.find((d: { source_item: { url: string } }) => d.source_item.url.endsWith('/kept.html'));
    const removed = await app.call(documentRoute.DELETE, { method: 'DELETE', path: `/v1/knowledge-bases/${kbId}/documents/${kept.id}`, params: { kb_id: kbId, document_id: kept.id } });
    expect(removed.status).toBe(204);
    expect((await docs()).total).toBe(3);

    const mark = site.requests.length;
    const run = await sync(sourceId);
    // Nothing changed at the site; the broken PDF was extracted again and failed again.
    expect(run.counts).toEqual({ added: 0, updated: 0, unchanged: 3, deleted: 0, failed: 1, skipped: 1 });
    expect(site.requests.slice(mark).filter((r) => r.path === '/repair/broken.pdf').map((r) => r.headers['if-none-match'])).toEqual(['"broken-1"']);
    expect((await failures(sourceId, run.id))[0].reason).toMatch(/could not be turned into text/);
    const after = await docs();
    expect(after.total).toBe(4);
    expect(after.items.find((d: { source_item: { url: string } }) => d.source_item.url.endsWith('/kept.html')).status).toBe('indexed');
  }, 60_000);

  it('indexes it once the site serves it whole', async () => {
    site.setPage('/repair/broken.pdf', { contentType: HTML, etag: '"broken-2"', body: page('Fixed', 'The manual is readable now and mentions the quince press.') });
    const run = await sync(sourceId);
    expect(run.counts).toMatchObject({ updated: 1, failed: 0 });
    const statuses = (await docs()).items.map((d: { status: string }) => d.status);
    expect(statuses).toEqual(['indexed', 'indexed', 'indexed', 'indexed']);
  }, 60_000);
});
