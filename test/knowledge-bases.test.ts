import { and, count, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as eventsRoute from '@/app/v1/events/route';
import * as documentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as documentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import * as kbsRoute from '@/app/v1/knowledge-bases/route';
import { extractions, kbChunks, kbDocuments, kbIndexStats, kbPostings } from '@/lib/db/schema';
import { POSTING_BYTES } from '@/lib/search/postings';
import { newId } from '@/lib/ids';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();

const getKb = (id: string) => app.call(kbRoute.GET, { path: `/v1/knowledge-bases/${id}`, params: { kb_id: id } });
const getDoc = (kbId: string, id: string) =>
  app.call(documentRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents/${id}`, params: { kb_id: kbId, document_id: id } });
const listDocs = (kbId: string, qs = '') =>
  app.call(documentsRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents${qs}`, params: { kb_id: kbId } });

const MANUAL = `# Installation

Install the package with npm and start the server on port 3000.

# Configuration

Set DATABASE_URL to use PostgreSQL; without it the embedded database stores everything in the data directory.

# Backups

Copy the data directory while the server is stopped.`;

async function eventsOf(type: string) {
  const res = await app.call(eventsRoute.GET, { path: `/v1/events?type=${type}&limit=100` });
  expect(res.status).toBe(200);
  return res.body.items as { type: string; data: Record<string, unknown> }[];
}

describe('knowledge bases', () => {
  it('creates with documented defaults and returns metadata, counts and the embedding space', async () => {
    const res = await app.call(kbsRoute.POST, {
      method: 'POST',
      path: '/v1/knowledge-bases',
      body: { name: 'Handbook', description: 'Staff handbook', metadata: { team: 'ops' } },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Handbook',
      description: 'Staff handbook',
      chunking_strategy: { type: 'paragraph', chunk_size: 512, overlap: 64 },
      metadata: { team: 'ops' },
      embedding: { provider: 'builtin', dimensions: 384 },
      document_count: 0,
      chunk_count: 0,
    });
    expect(res.body.id).toMatch(/^kb_/);
    const detail = await getKb(res.body.id);
    expect(detail.status).toBe(200);
    expect(detail.body).toMatchObject({ id: res.body.id, metadata: { team: 'ops' }, updated_at: expect.any(String) });
    const created = await eventsOf('knowledge_base.created');
    expect(created.some((e) => e.data.kb_id === res.body.id)).toBe(true);
  });

  it('validates the chunking strategy and the other fields', async () => {
    const cases: [unknown, string][] = [
      [{}, 'name'],
      [{ name: '' }, 'name'],
      [{ name: 'x', chunking_strategy: { type: 'sentences' } }, 'chunking_strategy.type'],
      [{ name: 'x', chunking_strategy: { chunk_size: 63 } }, 'chunking_strategy.chunk_size'],
      [{ name: 'x', chunking_strategy: { chunk_size: 8193 } }, 'chunking_strategy.chunk_size'],
      [{ name: 'x', chunking_strategy: { chunk_size: 100.5 } }, 'chunking_strategy.chunk_size'],
      [{ name: 'x', chunking_strategy: { chunk_size: 128, overlap: 128 } }, 'chunking_strategy.overlap'],
      [{ name: 'x', chunking_strategy: { overlap: -1 } }, 'chunking_strategy.overlap'],
      [{ name: 'x', chunking_strategy: { overlap: 600 } }, 'chunking_strategy.overlap'],
      [{ name: 'x', metadata: [1, 2] }, 'metadata'],
      [{ name: 'x', chunking_strategy: { type: 'fixed', extra: 1 } }, 'chunking_strategy'],
    ];
    for (const [body, field] of cases) {
      const res = await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body });
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
      expect(res.body.error.details.field, JSON.stringify(body)).toBe(field);
    }
    const ok = await app.call(kbsRoute.POST, {
      method: 'POST',
      path: '/v1/knowledge-bases',
      body: { name: 'small', chunking_strategy: { type: 'fixed', chunk_size: 64 } },
    });
    expect(ok.status).toBe(201);
    expect(ok.body.chunking_strategy).toEqual({ type: 'fixed', chunk_size: 64, overlap: 8 });
  });

  it('lists with pagination and answers 404 KNOWLEDGE_BASE_NOT_FOUND for unknown ids', async () => {
    await createKb(app, { name: 'a-list' });
    await createKb(app, { name: 'b-list' });
    const page = await app.call(kbsRoute.GET, { path: '/v1/knowledge-bases?limit=1&offset=0' });
    expect(page.status).toBe(200);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.total).toBeGreaterThanOrEqual(2);
    expect(Object.keys(page.body.items[0]).sort()).toEqual(['chunk_count', 'created_at', 'description', 'document_count', 'id', 'name']);
    const missing = 'kb_01jd0000000000000000000000';
    for (const res of [
      await getKb(missing),
      await app.call(kbRoute.PATCH, { method: 'PATCH', path: `/v1/knowledge-bases/${missing}`, params: { kb_id: missing }, body: { name: 'x' } }),
      await app.call(kbRoute.DELETE, { method: 'DELETE', path: `/v1/knowledge-bases/${missing}`, params: { kb_id: missing } }),
      await listDocs(missing),
      await addDoc(app, missing, { file_id: 'file_01jd0000000000000000000000' }),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('KNOWLEDGE_BASE_NOT_FOUND');
    }
  });

  it('updates name, description and metadata', async () => {
    const id = await createKb(app, { name: 'before', metadata: { a: 1 } });
    const res = await app.call(kbRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/knowledge-bases/${id}`,
      params: { kb_id: id },
      body: { name: 'after', description: 'new', metadata: { b: 2 } },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id, name: 'after', description: 'new', metadata: { b: 2 }, index_status: 'ready' });
    const bad = await app.call(kbRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/knowledge-bases/${id}`,
      params: { kb_id: id },
      body: { chunking_strategy: { chunk_size: 64, overlap: 100 } },
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.details.field).toBe('chunking_strategy.overlap');
  });
});

describe('documents', () => {
  it('adds a file as a pending document titled from the extraction, indexes it and counts it', async () => {
    const kbId = await createKb(app);
    const { fileId } = await extractedFile(app, 'manual.md', MANUAL, { title: 'Operator manual' });
    const res = await addDoc(app, kbId, { file_id: fileId, metadata: { lang: 'en' } });
    expect(res.status, res.text).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(['created_at', 'extraction_id', 'file_id', 'id', 'kb_id', 'metadata', 'status', 'title']);
    expect(res.body).toMatchObject({ kb_id: kbId, file_id: fileId, title: 'Operator manual', status: 'pending', metadata: { lang: 'en' } });
    expect(res.body.id).toMatch(/^doc_/);

    await drainWorkflows(app);
    const doc = await getDoc(kbId, res.body.id);
    expect(doc.status).toBe(200);
    expect(doc.body).toMatchObject({ status: 'indexed', chunk_count: 3, indexed_at: expect.any(String) });
    const kb = await getKb(kbId);
    expect(kb.body).toMatchObject({ document_count: 1, chunk_count: 3 });

    const chunks = await app.db.select().from(kbChunks).where(eq(kbChunks.documentId, res.body.id)).orderBy(kbChunks.chunkIndex);
    expect(chunks.map((c) => c.metadata)).toEqual([
      { lang: 'en', chunk_index: 0, page: null, section: 'Installation', char_start: 0, char_end: 79 },
      { lang: 'en', chunk_index: 1, page: null, section: 'Configuration', char_start: 81, char_end: 207 },
      { lang: 'en', chunk_index: 2, page: null, section: 'Backups', char_start: 209, char_end: 272 },
    ]);
    expect(chunks[0].content).toContain('Install the package');

    const indexing = await eventsOf('document.indexing');
    expect(indexing.some((e) => e.data.document_id === res.body.id)).toBe(true);
    const indexed = await eventsOf('document.indexed');
    expect(indexed.find((e) => e.data.document_id === res.body.id)?.data).toEqual({
      document_id: res.body.id,
      kb_id: kbId,
      file_id: fileId,
      chunk_count: 3,
    });
  });

  it('titles by filename without an extracted title, and takes a given title first', async () => {
    const kbId = await createKb(app);
    const a = await extractedFile(app, 'notes-2024.txt', 'Some notes.');
    const b = await extractedFile(app, 'other.txt', 'Other notes.', { title: 'Ignored' });
    expect((await addDoc(app, kbId, { file_id: a.fileId })).body.title).toBe('notes-2024.txt');
    expect((await addDoc(app, kbId, { file_id: b.fileId, title: 'Chosen' })).body.title).toBe('Chosen');
  });

  it('refuses unknown files, unfinished extractions and duplicates', async () => {
    const kbId = await createKb(app);
    const unknown = await addDoc(app, kbId, { file_id: 'file_01jd0000000000000000000000' });
    expect([unknown.status, unknown.body.error.code]).toEqual([404, 'FILE_NOT_FOUND']);
    const malformed = await addDoc(app, kbId, { file_id: 'nope' });
    expect([malformed.status, malformed.body.error.code]).toEqual([400, 'INVALID_FILE_ID']);
    const missing = await addDoc(app, kbId, {});
    expect(missing.status).toBe(400);

    // A newer extraction still running does not hide the completed one: that one is indexed.
    const { fileId, extractionId } = await extractedFile(app, 'x.md', '# X\n\ntext');
    const now = new Date(Date.now() + 1000);
    await app.db.insert(extractions).values({ id: newId('extraction'), fileId, status: 'processing', mode: 'advanced', createdAt: now, updatedAt: now });
    const whileRunning = await addDoc(app, kbId, { file_id: fileId });
    expect(whileRunning.status).toBe(201);
    const [stored] = await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, whileRunning.body.id));
    expect(stored.extractionId).toBe(extractionId);

    // A file whose only extraction is still running is added and waits for it (test/ingestion.test.ts).
    const fresh = await extractedFile(app, 'fresh.md', 'text');
    await app.db.update(extractions).set({ status: 'processing' }).where(eq(extractions.fileId, fresh.fileId));
    const running = await addDoc(app, kbId, { file_id: fresh.fileId });
    expect(running.status, running.text).toBe(201);
    expect(running.body.extraction_id).toBe(fresh.extractionId);

    const bare = await extractedFile(app, 'bare.md', 'bare text');
    await app.db.delete(extractions).where(eq(extractions.fileId, bare.fileId));
    const none = await addDoc(app, kbId, { file_id: bare.fileId });
    expect([none.status, none.body.error.code]).toEqual([409, 'EXTRACTION_NOT_COMPLETED']);

    const ok = await extractedFile(app, 'ok.md', 'fine');
    expect((await addDoc(app, kbId, { file_id: ok.fileId })).status).toBe(201);
    const again = await addDoc(app, kbId, { file_id: ok.fileId });
    expect([again.status, again.body.error.code]).toEqual([409, 'DOCUMENT_EXISTS']);
    // The same file may be in another knowledge base.
    expect((await addDoc(app, await createKb(app), { file_id: ok.fileId })).status).toBe(201);
  });

  it('lists documents paginated and filtered by status; 404 DOCUMENT_NOT_FOUND', async () => {
    const kbId = await createKb(app);
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const { fileId } = await extractedFile(app, `d${i}.md`, `# Doc ${i}\n\nBody ${i}`);
      ids.push((await addDoc(app, kbId, { file_id: fileId })).body.id);
    }
    const pending = await listDocs(kbId, '?status=pending&limit=2');
    expect(pending.status).toBe(200);
    expect(pending.body).toMatchObject({ total: 3, limit: 2, offset: 0 });
    expect(pending.body.items.map((d: { id: string }) => d.id)).toEqual(ids.slice(0, 2));
    expect(Object.keys(pending.body.items[0]).sort()).toEqual(['chunk_count', 'created_at', 'file_id', 'file_version', 'id', 'latest_file_version', 'source_item', 'status', 'title']);
    // An upload: version 1, not yet indexed, from no source.
    expect(pending.body.items[0]).toMatchObject({ file_version: null, latest_file_version: 1, source_item: null });
    await drainWorkflows(app);
    expect((await listDocs(kbId, '?status=pending')).body.total).toBe(0);
    expect((await listDocs(kbId, '?status=indexed')).body.total).toBe(3);
    expect((await listDocs(kbId, '?status=done')).status).toBe(400);
    const otherKb = await createKb(app);
    const wrongKb = await getDoc(otherKb, ids[0]);
    expect([wrongKb.status, wrongKb.body.error.code]).toEqual([404, 'DOCUMENT_NOT_FOUND']);
  });

  it('fails indexing with a reason when the extraction is gone', async () => {
    const kbId = await createKb(app);
    const { fileId, extractionId } = await extractedFile(app, 'gone.md', 'text');
    const doc = (await addDoc(app, kbId, { file_id: fileId })).body.id;
    await app.db.update(extractions).set({ status: 'failed' }).where(eq(extractions.id, extractionId));
    await drainWorkflows(app);
    const res = await getDoc(kbId, doc);
    expect(res.body).toMatchObject({ status: 'failed', error: { code: 'EXTRACTION_NOT_COMPLETED' }, chunk_count: 0 });
    expect((await eventsOf('document.index_failed')).some((e) => e.data.document_id === doc)).toBe(true);
  });
});

describe('deletion and cascades', () => {
  async function statsOf(kbId: string) {
    const [chunks] = await app.db.select({ n: count() }).from(kbChunks).where(eq(kbChunks.kbId, kbId));
    const [stats] = await app.db.select().from(kbIndexStats).where(eq(kbIndexStats.kbId, kbId));
    // A term's document frequency is its number of postings.
    const postings = await app.db.select().from(kbPostings).where(eq(kbPostings.kbId, kbId));
    return { chunks: Number(chunks.n), stats, dfSum: postings.reduce((s, p) => s + p.data.byteLength / POSTING_BYTES, 0), empty: postings.filter((p) => p.data.byteLength === 0).length };
  }

  it('deleting a document removes its chunks and its share of the statistics', async () => {
    const kbId = await createKb(app);
    const a = await extractedFile(app, 'a.md', MANUAL);
    const b = await extractedFile(app, 'b.md', '# Other\n\nCompletely different words about gardening.');
    const docA = (await addDoc(app, kbId, { file_id: a.fileId })).body.id;
    (await addDoc(app, kbId, { file_id: b.fileId })).body.id;
    await drainWorkflows(app);
    const before = await statsOf(kbId);
    expect(before.chunks).toBe(4);
    expect(before.stats.chunkTotal).toBe(4);

    const del = await app.call(documentRoute.DELETE, {
      method: 'DELETE',
      path: `/v1/knowledge-bases/${kbId}/documents/${docA}`,
      params: { kb_id: kbId, document_id: docA },
    });
    expect(del.status).toBe(204);
    const after = await statsOf(kbId);
    expect(after.chunks).toBe(1);
    expect(after.stats.chunkTotal).toBe(1);
    expect(after.empty).toBe(0);
    // Document frequencies now describe the remaining chunk only.
    const [remaining] = await app.db.select().from(kbChunks).where(eq(kbChunks.kbId, kbId));
    expect(after.dfSum).toBe(remaining.terms.split(' ').length);
    expect((await getKb(kbId)).body).toMatchObject({ document_count: 1, chunk_count: 1 });
    expect((await getDoc(kbId, docA)).status).toBe(404);
    const gone = await eventsOf('document.deleted');
    expect(gone.some((e) => e.data.document_id === docA && e.data.kb_id === kbId)).toBe(true);
  });

  it('deleting a file removes its documents from every knowledge base', async () => {
    const kb1 = await createKb(app);
    const kb2 = await createKb(app);
    const { fileId } = await extractedFile(app, 'shared.md', MANUAL);
    const d1 = (await addDoc(app, kb1, { file_id: fileId })).body.id;
    const d2 = (await addDoc(app, kb2, { file_id: fileId })).body.id;
    await drainWorkflows(app);
    const del = await app.call(fileRoute.DELETE, { method: 'DELETE', path: `/v1/files/${fileId}`, params: { file_id: fileId } });
    expect(del.status).toBe(204);
    for (const [kb, doc] of [
      [kb1, d1],
      [kb2, d2],
    ]) {
      expect((await getDoc(kb, doc)).status).toBe(404);
      expect((await getKb(kb)).body).toMatchObject({ document_count: 0, chunk_count: 0 });
      expect(await statsOf(kb)).toMatchObject({ chunks: 0, dfSum: 0 });
    }
    const gone = await eventsOf('document.deleted');
    expect(gone.filter((e) => e.data.file_id === fileId)).toHaveLength(2);
  });

  it('deleting a knowledge base removes documents, chunks and statistics', async () => {
    const kbId = await createKb(app);
    const { fileId } = await extractedFile(app, 'k.md', MANUAL);
    await addDoc(app, kbId, { file_id: fileId });
    await drainWorkflows(app);
    const del = await app.call(kbRoute.DELETE, { method: 'DELETE', path: `/v1/knowledge-bases/${kbId}`, params: { kb_id: kbId } });
    expect(del.status).toBe(204);
    expect((await getKb(kbId)).status).toBe(404);
    const [docs] = await app.db.select({ n: count() }).from(kbDocuments).where(eq(kbDocuments.kbId, kbId));
    expect(Number(docs.n)).toBe(0);
    expect(await statsOf(kbId)).toMatchObject({ chunks: 0, dfSum: 0, stats: undefined });
    const deleted = await eventsOf('knowledge_base.deleted');
    expect(deleted.find((e) => e.data.kb_id === kbId)?.data).toMatchObject({ document_count: 1, chunk_count: 3 });
  });

  it('keeps counts exact under concurrent adds and deletes', async () => {
    const kbId = await createKb(app);
    const files = await Promise.all(Array.from({ length: 12 }, (_, i) => extractedFile(app, `c${i}.md`, `# C${i}\n\nAlpha beta ${i}.`)));
    const added = await Promise.all(files.map((f) => addDoc(app, kbId, { file_id: f.fileId })));
    expect(added.every((r) => r.status === 201)).toBe(true);
    // Adding the same file twice at once: exactly one wins.
    const dupes = await Promise.all([0, 1, 2].map(() => addDoc(app, kbId, { file_id: files[0].fileId })));
    expect(dupes.every((r) => r.status === 409)).toBe(true);
    await drainWorkflows(app);
    await Promise.all(
      added.slice(0, 5).map((r) =>
        app.call(documentRoute.DELETE, {
          method: 'DELETE',
          path: `/v1/knowledge-bases/${kbId}/documents/${r.body.id}`,
          params: { kb_id: kbId, document_id: r.body.id },
        }),
      ),
    );
    const kb = (await getKb(kbId)).body;
    const [chunks] = await app.db
      .select({ n: count() })
      .from(kbChunks)
      .where(and(eq(kbChunks.kbId, kbId)));
    expect(kb.document_count).toBe(7);
    expect(kb.chunk_count).toBe(Number(chunks.n));
    expect(kb.chunk_count).toBe(7);
  });
});
