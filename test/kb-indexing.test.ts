import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import * as documentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as hybridRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import { resetConfig } from '@/lib/config';
import { queryRows } from '@/lib/db/client';
import { extractionDocuments, kbChunks, kbDocuments, knowledgeBases } from '@/lib/db/schema';
import { renderDocument } from '@/lib/document/render';
import { servedDocument } from '@/lib/document/serve';
import type { QuarryDocument } from '@/lib/document/types';
import { resetEmbeddingProviders } from '@/lib/embeddings';
import { useTestApp } from '@/test/support/app';
import { writeTinyModel } from '@/test/support/embeddings-tiny-model';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();

const search = (kbId: string, body: Record<string, unknown>) =>
  app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body });
const getKb = async (kbId: string) => (await app.call(kbRoute.GET, { path: `/v1/knowledge-bases/${kbId}`, params: { kb_id: kbId } })).body;
const getDoc = async (kbId: string, id: string) =>
  (await app.call(documentRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents/${id}`, params: { kb_id: kbId, document_id: id } })).body;
const patchKb = (kbId: string, body: Record<string, unknown>) =>
  app.call(kbRoute.PATCH, { method: 'PATCH', path: `/v1/knowledge-bases/${kbId}`, params: { kb_id: kbId }, body });

const TEXT = Array.from(
  { length: 12 },
  (_, i) => `## Part ${i + 1}\n\nSection ${i + 1} explains topic number ${i + 1} with several sentences. It mentions lighthouse keepers and tide tables. The end of part ${i + 1} follows here.`,
).join('\n\n');

/** Twelve paragraphs without headings (paragraph chunking starts a chunk at every heading). */
const PLAIN = TEXT.replace(/^## .*\n\n/gm, '');

describe('indexing strategies', () => {
  it('indexes with the semantic strategy, with page and section metadata from the Markdown', async () => {
    const kbId = await createKb(app, { chunking_strategy: { type: 'semantic', chunk_size: 128 } });
    const { fileId } = await extractedFile(app, 'paged.md', `<!-- page 1 -->\n# Guide\n\n${TEXT}\n\n<!-- page 2 -->\n## Appendix\n\nTide tables for the harbour.`);
    const doc = (await addDoc(app, kbId, { file_id: fileId })).body.id;
    await drainWorkflows(app);
    const detail = await getDoc(kbId, doc);
    expect(detail.status).toBe('indexed');
    const chunks = await app.db.select().from(kbChunks).where(eq(kbChunks.documentId, doc)).orderBy(kbChunks.chunkIndex);
    expect(chunks.length).toBe(detail.chunk_count);
    expect(chunks.length).toBeGreaterThan(3);
    expect(chunks.every((c) => c.tokenCount <= 128)).toBe(true);
    expect(chunks[0].metadata).toMatchObject({ page: 1, chunk_index: 0 });
    const last = chunks[chunks.length - 1];
    expect(last.metadata).toMatchObject({ page: 2, section: 'Guide > Appendix' });
    const hit = (await search(kbId, { query: 'tide tables harbour', top_k: 1, filter: { 'metadata.page': 2 } })).body.chunks[0];
    expect(hit.content).toContain('Tide tables for the harbour');
  });
});

describe('indexing reads the document model', () => {
  it("chunks an extraction by its stored model: the table's two header rows repeated in every part, the lead-in with its list", async () => {
    const text = (t: string) => [{ type: 'text' as const, text: t }];
    const cell = (t: string) => ({ content: text(t) });
    const model: QuarryDocument = {
      version: 1,
      metadata: {},
      blocks: [
        { type: 'heading', level: 1, content: text('Harbour report') },
        {
          type: 'table',
          header_rows: 2,
          rows: [
            [cell('Harbour'), { ...cell('Tides'), col_span: 2 }],
            [cell(''), cell('High'), cell('Low')],
            ...Array.from({ length: 30 }, (_, i) => [cell(`Harbour number ${i}`), cell(`${i}.5 m`), cell(`${i}.1 m`)]),
          ],
        },
        { type: 'paragraph', content: text('Keepers check these points every night:') },
        { type: 'list', ordered: false, items: Array.from({ length: 25 }, (_, i) => ({ content: [{ type: 'paragraph' as const, content: text(`Lamp ${i} is lit and its lens is clean.`) }] })) },
      ],
    };
    const rendered = renderDocument(model);
    const kbId = await createKb(app, { chunking_strategy: { type: 'paragraph', chunk_size: 96 } });
    const { fileId, extractionId } = await extractedFile(app, 'report.md', rendered.markdown);
    await app.db.insert(extractionDocuments).values({ extractionId, document: servedDocument(model, rendered.spans) as unknown as Record<string, unknown> });
    const doc = (await addDoc(app, kbId, { file_id: fileId })).body.id;
    await drainWorkflows(app);
    expect((await getDoc(kbId, doc)).status).toBe('indexed');
    const chunks = await app.db.select().from(kbChunks).where(eq(kbChunks.documentId, doc)).orderBy(kbChunks.chunkIndex);
    const parts = chunks.filter((c) => c.content.includes('| Harbour number '));
    expect(parts.length).toBeGreaterThan(2);
    // Parsing the Markdown alone would give one header row (GFM has one): these come from the model.
    for (const part of parts) expect(part.content).toMatch(/^(# Harbour report\n\n)?\| Harbour \| Tides \|  \|\n\| --- \| --- \| --- \|\n\|  \| High \| Low \|\n\| Harbour number /);
    const first = chunks.find((c) => c.content.includes('- Lamp 0 '))!;
    expect(first.content.startsWith('Keepers check these points every night:\n\n- Lamp 0 ')).toBe(true);
    for (const c of chunks) expect(c.metadata).toMatchObject({ section: 'Harbour report' });
  });
});

describe('re-indexing edge cases', () => {
  it('a document added during a re-index ends up in the new generation', async () => {
    const kbId = await createKb(app, { chunking_strategy: { type: 'paragraph', chunk_size: 1024 } });
    const first = await extractedFile(app, 'first.md', PLAIN);
    await addDoc(app, kbId, { file_id: first.fileId });
    await drainWorkflows(app);
    expect((await getKb(kbId)).chunk_count).toBe(1);

    expect((await patchKb(kbId, { chunking_strategy: { type: 'paragraph', chunk_size: 64 } })).status).toBe(200);
    // Other content: the same content twice is refused in one knowledge base.
    const second = await extractedFile(app, 'second.md', `${PLAIN}\n\nThe second copy.`);
    const doc2 = (await addDoc(app, kbId, { file_id: second.fileId })).body.id;
    await drainWorkflows(app);

    const kb = await getKb(kbId);
    expect(kb).toMatchObject({ index_status: 'ready', chunking_strategy: { chunk_size: 64 } });
    const [row] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const chunks = await app.db.select().from(kbChunks).where(eq(kbChunks.kbId, kbId));
    expect(chunks.every((c) => c.generation === row.generation)).toBe(true);
    expect(kb.chunk_count).toBe(chunks.length);
    expect((await getDoc(kbId, doc2)).chunk_count).toBe(chunks.filter((c) => c.documentId === doc2).length);
    const perDoc = chunks.filter((c) => c.documentId === doc2).length;
    const perFirst = chunks.filter((c) => c.documentId !== doc2).length;
    expect(perFirst).toBeGreaterThan(4);
    // The second document holds the first one's text and one more paragraph.
    expect(perDoc).toBeGreaterThanOrEqual(perFirst);
    expect(perDoc).toBeLessThanOrEqual(perFirst + 1);
    expect(chunks.every((c) => c.tokenCount <= 64)).toBe(true);
  });

  it('a second change abandons the first re-index; changing back cancels it', async () => {
    const kbId = await createKb(app, { chunking_strategy: { type: 'paragraph', chunk_size: 1024 } });
    const { fileId } = await extractedFile(app, 'x.md', TEXT);
    await addDoc(app, kbId, { file_id: fileId });
    await drainWorkflows(app);
    await patchKb(kbId, { chunking_strategy: { chunk_size: 64 } });
    await patchKb(kbId, { chunking_strategy: { chunk_size: 128 } });
    await drainWorkflows(app);
    expect(await getKb(kbId)).toMatchObject({ index_status: 'ready', chunking_strategy: { type: 'paragraph', chunk_size: 128 } });

    const changed = await patchKb(kbId, { chunking_strategy: { type: 'fixed' } });
    expect(changed.body.index_status).toBe('reindexing');
    const back = await patchKb(kbId, { chunking_strategy: { type: 'paragraph' } });
    expect(back.body).toMatchObject({ index_status: 'ready', chunking_strategy: { type: 'paragraph', chunk_size: 128 } });
    await drainWorkflows(app);
    const [row] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const generations = await queryRows<{ generation: number }>(app.db, sql`select distinct generation from kb_chunks where kb_id = ${kbId}`);
    expect(generations.map((g) => g.generation)).toEqual([row.generation]);
    const stats = await queryRows<{ generation: number }>(app.db, sql`select generation from kb_index_stats where kb_id = ${kbId}`);
    expect(stats.map((g) => g.generation)).toEqual([row.generation]);
  });

  it('a strategy change on an empty knowledge base applies at once', async () => {
    const kbId = await createKb(app);
    const res = await patchKb(kbId, { chunking_strategy: { type: 'fixed', chunk_size: 256, overlap: 32 } });
    expect(res.body).toMatchObject({ index_status: 'ready', chunking_strategy: { type: 'fixed', chunk_size: 256, overlap: 32 } });
  });
});

describe('embedding spaces', () => {
  async function withEnv<T>(vars: Record<string, string>, fn: () => Promise<T>): Promise<T> {
    const saved = Object.fromEntries(Object.keys(vars).map((k) => [k, process.env[k]]));
    Object.assign(process.env, vars);
    resetConfig();
    resetEmbeddingProviders();
    try {
      return await fn();
    } finally {
      for (const [k, v] of Object.entries(saved)) {
        if (v === undefined) delete process.env[k];
        else process.env[k] = v;
      }
      resetConfig();
      resetEmbeddingProviders();
    }
  }

  it('keeps knowledge bases of different dimensions side by side, each with its own HNSW index', async () => {
    const small = await withEnv({ QUARRY_EMBEDDING_DIMENSIONS: '128' }, () => createKb(app, { name: 'dim-128' }));
    const normal = await createKb(app, { name: 'dim-384' });
    expect((await getKb(small)).embedding.dimensions).toBe(128);
    expect((await getKb(normal)).embedding.dimensions).toBe(384);
    for (const kbId of [small, normal]) {
      const { fileId } = await extractedFile(app, `${kbId}.md`, '# Lighthouses\n\nLighthouse keepers record the tide tables every night.');
      await addDoc(app, kbId, { file_id: fileId });
    }
    await drainWorkflows(app);
    const indexes = await queryRows<{ indexname: string; indexdef: string }>(
      app.db,
      sql`select indexname, indexdef from pg_indexes where tablename = 'kb_chunks' and indexdef ilike '%hnsw%'`,
    );
    const byName = Object.fromEntries(indexes.map((i) => [i.indexname, i.indexdef]));
    expect(byName.kb_chunks_embedding_128_hnsw_idx).toMatch(/vector\(128\).*vector_cosine_ops.*dimensions = 128/);
    expect(byName.kb_chunks_embedding_384_hnsw_idx).toMatch(/vector\(384\).*vector_cosine_ops.*dimensions = 384/);
    for (const kbId of [small, normal]) {
      const res = await search(kbId, { query: 'who records tide tables' });
      expect(res.status).toBe(200);
      expect(res.body.chunks).toHaveLength(1);
      expect(res.body.chunks[0].score).toBeGreaterThan(0.3);
    }
    const dims = await queryRows<{ dimensions: number; n: number }>(
      app.db,
      sql`select c.dimensions, vector_dims(c.embedding) as n from kb_chunks c where c.kb_id = ${small}`,
    );
    expect(dims).toEqual([{ dimensions: 128, n: 128 }]);
  });

  it('indexes with a local transformers model, run in the indexing thread', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-kb-model-'));
    try {
      const model = writeTinyModel(dir, 'quarry-test/tiny-bert', 64);
      const env = { QUARRY_EMBEDDING_PROVIDER: 'transformers', QUARRY_EMBEDDING_MODEL: model.modelId, QUARRY_EMBEDDING_MODEL_DIR: dir };
      await withEnv(env, async () => {
        const kbId = await createKb(app, { name: 'local-model' });
        expect((await getKb(kbId)).embedding).toEqual({ provider: 'transformers', model: model.modelId, dimensions: 64 });
        const text = 'the finance team approves the invoice payment';
        const { fileId } = await extractedFile(app, 'model.md', text);
        const doc = (await addDoc(app, kbId, { file_id: fileId })).body.id;
        await drainWorkflows(app);
        expect(await getDoc(kbId, doc)).toMatchObject({ status: 'indexed', chunk_count: 1 });
        const [stored] = await queryRows<{ embedding: string }>(app.db, sql`select embedding::text from kb_chunks where document_id = ${doc}`);
        const vector = JSON.parse(stored.embedding) as number[];
        model.expected(text).forEach((v, i) => expect(vector[i]).toBeCloseTo(v, 5));
      });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses to mix vector spaces: a knowledge base of another provider fails clearly', async () => {
    const kbId = await createKb(app, { name: 'foreign' });
    await app.db
      .update(knowledgeBases)
      .set({ embeddingProvider: 'openai', embeddingModel: 'text-embedding-3-small', embeddingDimensions: 1536 })
      .where(eq(knowledgeBases.id, kbId));
    const res = await search(kbId, { query: 'anything' });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(res.body.error.message).toMatch(/text-embedding-3-small/);
    const hybrid = await app.call(hybridRoute.POST, {
      method: 'POST',
      path: `/v1/knowledge-bases/${kbId}/hybrid-search`,
      params: { kb_id: kbId },
      body: { query: 'anything' },
    });
    expect(hybrid.body.error.code).toBe('EMBEDDING_PROVIDER_MISMATCH');

    const { fileId } = await extractedFile(app, 'foreign.md', 'Some text.');
    const doc = (await addDoc(app, kbId, { file_id: fileId })).body.id;
    await drainWorkflows(app);
    const detail = await getDoc(kbId, doc);
    expect(detail).toMatchObject({ status: 'failed', error: { code: 'EMBEDDING_PROVIDER_MISMATCH' } });
    const [row] = await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, doc));
    expect(row.errorMessage).toMatch(/openai/);
  });
});
