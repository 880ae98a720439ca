/**
 * Search while a changed document is indexed again in place: every answer holds the chunks of one
 * version only (the old one until the new chunks are stored, then the new one), each result says
 * which, and a search never finds the document missing. On PostgreSQL the searches run
 * concurrently with the indexing transaction; on the embedded database they interleave with it.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import * as sourceRoute from '@/app/v1/sources/[source_id]/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as syncRoute from '@/app/v1/sources/[source_id]/sync/route';
import { useTestApp } from './support/app';
import { createKb, drainWorkflows } from './support/knowledge-bases';
import { startSite, type Site } from './support/site-server';

const app = useTestApp({ QUARRY_SOURCES_ALLOW_PRIVATE: 'true' });
let site: Site;

/** A long page whose every paragraph names its version, so each chunk tells which it came from. */
function versionPage(version: string): string {
  const paragraphs = Array.from(
    { length: 60 },
    (_, i) => `<p>Section ${i + 1} of the ${version} edition: the orchard ledger records ${version} harvest figures for row ${i + 1}, with notes on pruning and grafting.</p>`,
  );
  return `<!doctype html><html><head><title>Ledger</title></head><body><h1>Ledger</h1>${paragraphs.join('\n')}</body></html>`;
}

beforeAll(async () => {
  site = await startSite();
  site.setPage('/ledger.html', { contentType: 'text/html; charset=utf-8', etag: '"v1"', body: versionPage('amber') });
});

afterAll(async () => {
  await site?.close();
});

describe('search during a re-index', () => {
  it('never returns a mix of versions', async () => {
    const kbId = await createKb(app, { chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 0 } });
    const created = await app.call(sourcesRoute.POST, { method: 'POST', path: '/v1/sources', body: { type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/ledger.html` } } });
    expect(created.status, created.text).toBe(201);
    await drainWorkflows(app);

    site.setPage('/ledger.html', { contentType: 'text/html; charset=utf-8', etag: '"v2"', body: versionPage('cobalt') });
    const synced = await app.call(syncRoute.POST, { method: 'POST', path: `/v1/sources/${created.body.id}/sync`, params: { source_id: created.body.id } });
    expect(synced.status).toBe(202);

    const seen: Array<{ version: number; editions: string[] }> = [];
    let indexing = true;
    const searching = (async () => {
      while (indexing) {
        const res = await app.call(searchRoute.POST, {
          method: 'POST',
          path: `/v1/knowledge-bases/${kbId}/hybrid-search`,
          params: { kb_id: kbId },
          body: { query: 'orchard ledger harvest figures pruning grafting', top_k: 20 },
        });
        expect(res.status, res.text).toBe(200);
        const chunks = res.body.chunks as Array<{ content: string; file_version: number }>;
        expect(chunks.length).toBeGreaterThan(0);
        const versions = [...new Set(chunks.map((c) => c.file_version))];
        const editions = [...new Set(chunks.flatMap((c) => [...c.content.matchAll(/\b(amber|cobalt) (edition|harvest)/g)].map((m) => m[1])))];
        expect(versions).toHaveLength(1);
        expect(editions).toHaveLength(1);
        seen.push({ version: versions[0], editions });
        await new Promise((r) => setImmediate(r));
      }
    })();
    await drainWorkflows(app);
    indexing = false;
    await searching;

    // Both versions were served, each alone, the old one first.
    expect(seen.length).toBeGreaterThan(1);
    expect(seen[0]).toEqual({ version: 1, editions: ['amber'] });
    const after = await app.call(searchRoute.POST, {
      method: 'POST',
      path: `/v1/knowledge-bases/${kbId}/hybrid-search`,
      params: { kb_id: kbId },
      body: { query: 'orchard ledger harvest figures', top_k: 20 },
    });
    expect(after.body.chunks.every((c: { file_version: number; content: string }) => c.file_version === 2 && !c.content.includes('amber'))).toBe(true);
    const switched = seen.findIndex((s) => s.version === 2);
    if (switched >= 0) expect(seen.slice(switched).every((s) => s.version === 2 && s.editions[0] === 'cobalt')).toBe(true);
  }, 120_000);

  it('chunks a source’s documents its own way, and again when its chunking changes', async () => {
    site.setPage('/chunky.html', { contentType: 'text/html; charset=utf-8', etag: '"c1"', body: versionPage('jade') });
    const kbId = await createKb(app, { name: 'own chunking', chunking_strategy: { type: 'paragraph', chunk_size: 1024 } });
    const created = await app.call(sourcesRoute.POST, {
      method: 'POST',
      path: '/v1/sources',
      body: { type: 'url', knowledge_base_id: kbId, config: { url: `${site.url}/chunky.html` }, chunking: { type: 'fixed', chunk_size: 64, overlap: 0 } },
    });
    expect(created.status, created.text).toBe(201);
    expect(created.body.chunking).toEqual({ type: 'fixed', chunk_size: 64, overlap: 0 });
    await drainWorkflows(app);
    const chunkCount = async () => {
      const res = await app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents`, params: { kb_id: kbId } });
      expect(res.body.items[0].status).toBe('indexed');
      return res.body.items[0].chunk_count as number;
    };
    const small = await chunkCount();
    const patched = await app.call(sourceRoute.PATCH, { method: 'PATCH', path: `/v1/sources/${created.body.id}`, params: { source_id: created.body.id }, body: { chunking: null } });
    expect(patched.status, patched.text).toBe(200);
    await drainWorkflows(app);
    const large = await chunkCount();
    // 60 paragraphs of ~30 tokens: 64-token windows make several times the chunks of 1024-token paragraphs.
    expect(small).toBeGreaterThan(large * 3);
  }, 120_000);
});
