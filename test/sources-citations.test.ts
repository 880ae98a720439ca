/**
 * POST /v1/citations/verify against a real site on loopback: a passage is current while the page
 * is unchanged (asked with a HEAD, nothing downloaded), stale once the page changed at the site
 * (before any sync), stale after the sync stored the next version, and gone once the page and
 * then its document are gone. An upload's citation is current without asking anyone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import * as verifyRoute from '@/app/v1/citations/verify/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as syncRoute from '@/app/v1/sources/[source_id]/sync/route';
import { useTestApp } from './support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from './support/knowledge-bases';
import { startSite, type Site } from './support/site-server';

const app = useTestApp({ QUARRY_SOURCES_ALLOW_PRIVATE: 'true' });
let site: Site;

const pageHtml = (text: string) => `<!doctype html><html><head><title>Leave policy</title></head><body><h1>Leave policy</h1><p>${text}</p></body></html>`;

beforeAll(async () => {
  site = await startSite();
  site.setPage('/policies/leave.html', { contentType: 'text/html; charset=utf-8', etag: '"leave-1"', body: pageHtml('Staff take twenty days of leave, booked through the juniper form.') });
});

afterAll(async () => {
  await site?.close();
});

async function verify(citations: Record<string, unknown>[], extra: Record<string, unknown> = {}) {
  const res = await app.call(verifyRoute.POST, { method: 'POST', path: '/v1/citations/verify', body: { citations, ...extra } });
  expect(res.status, res.text).toBe(200);
  return res.body.results as Array<{ status: string; reason: string; source_checked: boolean; cited_file_version: number | null; current_file_version: number | null; source_item: { url: string } | null }>;
}

async function topChunk(kbId: string, query: string) {
  const res = await app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body: { query, top_k: 1 } });
  expect(res.status, res.text).toBe(200);
  return res.body.chunks[0] as { id: string; document_id: string; file_version: number; source_item: { url: string } | null; content: string };
}

async function sync(sourceId: string) {
  const res = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${sourceId}/sync`, params: { source_id: sourceId } });
  expect(res.status, res.text).toBe(202);
  await drainWorkflows(app);
}

describe('verifying citations', () => {
  let kbId: string;
  let sourceId: string;
  let cited: Awaited<ReturnType<typeof topChunk>>;

  it('a passage from an unchanged page is current, checked with a HEAD request only', async () => {
    kbId = await createKb(app);
    const res = await app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body: { type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/policies/leave.html` } } });
    expect(res.status, res.text).toBe(201);
    sourceId = res.body.id;
    await drainWorkflows(app);
    cited = await topChunk(kbId, 'juniper form');
    expect(cited).toMatchObject({ file_version: 1, source_item: { url: `${site.url}/policies/leave.html` } });

    const mark = site.requests.length;
    const [verdict] = await verify([{ chunk_id: cited.id }]);
    expect(verdict).toMatchObject({ status: 'current', source_checked: true, cited_file_version: 1, current_file_version: 1 });
    expect(site.requests.slice(mark).map((r) => r.method)).toEqual(['HEAD']);
    // Without asking the source: what is stored.
    const [quiet] = await verify([{ chunk_id: cited.id }], { check_source: false });
    expect(quiet).toMatchObject({ status: 'current', source_checked: false });
    expect(site.requests.length).toBe(mark + 1);
  }, 60_000);

  it('is stale once the page changed at the site, before any sync', async () => {
    site.setPage('/policies/leave.html', { contentType: 'text/html; charset=utf-8', etag: '"leave-2"', body: pageHtml('Staff take twenty-five days of leave, booked through the rowan form.') });
    const [verdict] = await verify([{ chunk_id: cited.id }]);
    expect(verdict).toMatchObject({ status: 'stale', source_checked: true });
    expect(verdict.reason).toMatch(/changed at its source/);
  });

  it('is stale after the sync stored the next version; the new passage is current', async () => {
    await sync(sourceId);
    const [old, byVersion, chunkAlone] = await verify([
      { chunk_id: cited.id, document_id: cited.document_id },
      { document_id: cited.document_id, file_version: 1 },
      { chunk_id: cited.id },
    ]);
    expect(old.status).toBe('stale');
    expect(old.reason).toMatch(/indexed again/);
    // Re-indexing replaced the chunk: alone, its id names nothing any more.
    expect(chunkAlone.status).toBe('gone');
    expect(byVersion).toMatchObject({ status: 'stale', cited_file_version: 1, current_file_version: 2 });
    const fresh = await topChunk(kbId, 'rowan form');
    expect(fresh).toMatchObject({ file_version: 2 });
    expect((await verify([{ chunk_id: fresh.id }]))[0]).toMatchObject({ status: 'current', cited_file_version: 2 });
  }, 60_000);

  it('is gone when the page is gone from the site, and when its document is removed', async () => {
    const fresh = await topChunk(kbId, 'rowan form');
    site.removePage('/policies/leave.html');
    expect((await verify([{ chunk_id: fresh.id }]))[0]).toMatchObject({ status: 'gone', source_checked: true });
    await sync(sourceId);
    const [verdict] = await verify([{ chunk_id: fresh.id }]);
    expect(verdict.status).toBe('gone');
  }, 60_000);

  it('an uploaded document’s passage is current without asking anyone; unknown ids are gone; a citation needs an id', async () => {
    const uploads = await createKb(app, { name: 'uploads' });
    const { fileId } = await extractedFile(app, 'memo.md', '# Memo\n\nThe quarterly review moves to Thursday.\n');
    expect((await addDoc(app, uploads, { file_id: fileId })).status).toBe(201);
    await drainWorkflows(app);
    const chunk = await topChunk(uploads, 'quarterly review');
    const [current, unknown] = await verify([{ chunk_id: chunk.id }, { chunk_id: 'chunk_01jd0000000000000000000000' }]);
    expect(current).toMatchObject({ status: 'current', source_checked: false, source_item: null, cited_file_version: 1 });
    expect(unknown.status).toBe('gone');
    const bad = await app.call(verifyRoute.POST, { method: 'POST', path: '/v1/citations/verify', body: { citations: [{}] } });
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
  }, 60_000);
});
