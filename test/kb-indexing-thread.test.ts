import { eq, sql } from 'drizzle-orm';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import * as documentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import { resetConfig } from '@/lib/config';
import { queryRows } from '@/lib/db/client';
import { kbChunks, knowledgeBases } from '@/lib/db/schema';
import { compileFilter } from '@/lib/search/filter';
import { keywordCandidates, prepareKeywordQuery } from '@/lib/search/keyword';
import { EmbeddingError, resetEmbeddingProviders } from '@/lib/embeddings';
import { runDocumentIndexing, startIndexing } from '@/lib/knowledge-bases/indexing';
import { getIndexingThreads } from '@/lib/knowledge-bases/preparer';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';
import { startFakeEmbeddingServer } from '@/test/support/embeddings-openai-server';
import { largeMarkdown } from '@/test/support/large-markdown';
import { BLOCK_RECORDS, BLOCK_SPAN, ordinalAt, postingList } from '@/lib/search/postings';

/**
 * Indexing in the indexing thread. Limits of one document: the chunk count, and the thread's
 * memory and time; each overrun ends that document failed with its own code and a message naming
 * the setting, the server (this process) carries on, and the next document indexes normally.
 * Errors of the embedding service inside the thread keep their code and whether to retry.
 */
const app = useTestApp();

const VARS = ['QUARRY_INDEXING_MAX_CHUNKS', 'QUARRY_INDEXING_MEMORY_MB', 'QUARRY_INDEXING_TIMEOUT_S', 'QUARRY_EMBEDDING_'];

/** Sets these variables, and unsets the other indexing limits and embedding settings. */
function setLimits(vars: Record<string, string>): void {
  for (const name of Object.keys(process.env)) if (VARS.some((v) => name.startsWith(v))) delete process.env[name];
  Object.assign(process.env, vars);
  resetConfig();
  resetEmbeddingProviders();
}

afterEach(() => setLimits({}));
afterAll(() => getIndexingThreads().close());

const getDoc = async (kbId: string, id: string) =>
  (await app.call(documentRoute.GET, { path: `/v1/knowledge-bases/${kbId}/documents/${id}`, params: { kb_id: kbId, document_id: id } })).body;

/**
 * Adds a document with this Markdown to a new knowledge base and runs the indexing workflow to
 * its end; with `document`, its extraction keeps a document model, as extractions do now.
 */
async function indexed(markdown: string, name: string, options: { document?: boolean } = {}) {
  const kbId = await createKb(app, { name });
  const { fileId } = await extractedFile(app, `${name}.md`, markdown, {}, options);
  const docId = (await addDoc(app, kbId, { file_id: fileId })).body.id;
  await drainWorkflows(app);
  const chunks = await app.db.select({ id: kbChunks.id }).from(kbChunks).where(eq(kbChunks.documentId, docId));
  return { doc: await getDoc(kbId, docId), chunks: chunks.length };
}

const SMALL = '# Tides\n\nLighthouse keepers record the tide tables every night.';

describe('per-document indexing limits', () => {
  it('fails a document with more chunks than QUARRY_INDEXING_MAX_CHUNKS', async () => {
    setLimits({ QUARRY_INDEXING_MAX_CHUNKS: '50' });
    const { doc, chunks } = await indexed(largeMarkdown(40_000), 'too-many');
    expect(doc).toMatchObject({ status: 'failed', error: { code: 'TOO_MANY_CHUNKS' } });
    expect(doc.error.message).toMatch(/chunks with the chunking strategy paragraph \(chunk_size 512\), more than the limit of 50 chunks per document \(QUARRY_INDEXING_MAX_CHUNKS\)/);
    expect(chunks).toBe(0);

    setLimits({ QUARRY_INDEXING_MAX_CHUNKS: '1' });
    expect((await indexed(SMALL, 'within')).doc).toMatchObject({ status: 'indexed', chunk_count: 1 });
  });

  it('lets a re-index finish when the new strategy makes too many chunks of one document', async () => {
    const kbId = await createKb(app, { name: 'reindex-limit', chunking_strategy: { chunk_size: 1024 } });
    const big = await extractedFile(app, 'big.md', largeMarkdown(20_000, { sectionBytes: 4_000 }));
    const small = await extractedFile(app, 'small.md', SMALL);
    const bigId = (await addDoc(app, kbId, { file_id: big.fileId })).body.id;
    const smallId = (await addDoc(app, kbId, { file_id: small.fileId })).body.id;
    await drainWorkflows(app);
    const before = await getDoc(kbId, bigId);
    expect(before).toMatchObject({ status: 'indexed' });
    expect(before.chunk_count).toBeLessThan(20);

    setLimits({ QUARRY_INDEXING_MAX_CHUNKS: '20' });
    const patch = { chunking_strategy: { chunk_size: 64 } };
    expect((await app.call(kbRoute.PATCH, { method: 'PATCH', path: `/v1/knowledge-bases/${kbId}`, params: { kb_id: kbId }, body: patch })).status).toBe(200);
    await drainWorkflows(app);
    const kb = (await app.call(kbRoute.GET, { path: `/v1/knowledge-bases/${kbId}`, params: { kb_id: kbId } })).body;
    expect(kb).toMatchObject({ index_status: 'ready', chunking_strategy: { chunk_size: 64 }, document_count: 2, chunk_count: 1 });
    const failed = await getDoc(kbId, bigId);
    expect(failed).toMatchObject({ status: 'failed', chunk_count: 0, error: { code: 'TOO_MANY_CHUNKS' } });
    expect(failed.error.message).toMatch(/chunk_size 64\), more than the limit of 20 chunks per document/);
    const chunks = await app.db.select({ documentId: kbChunks.documentId }).from(kbChunks).where(eq(kbChunks.kbId, kbId));
    expect(chunks).toEqual([{ documentId: smallId }]);
  });

  it('fails a document whose indexing thread runs out of memory, and indexes the next one', async () => {
    setLimits({ QUARRY_INDEXING_MEMORY_MB: '64' });
    const { doc, chunks } = await indexed(largeMarkdown(6 * 1024 * 1024), 'too-big', { document: true });
    expect(doc).toMatchObject({ status: 'failed', error: { code: 'RESOURCE_LIMIT_EXCEEDED' } });
    expect(doc.error.message).toMatch(/more than the limit of 64 MB of memory \(QUARRY_INDEXING_MEMORY_MB\)/);
    expect(chunks).toBe(0);

    setLimits({});
    expect((await indexed(SMALL, 'after-memory')).doc).toMatchObject({ status: 'indexed', chunk_count: 1 });
  });

  it('fails a document that takes longer than QUARRY_INDEXING_TIMEOUT_S', async () => {
    setLimits({ QUARRY_INDEXING_TIMEOUT_S: '0.2' });
    const started = performance.now();
    const { doc, chunks } = await indexed(largeMarkdown(4 * 1024 * 1024), 'too-slow');
    expect(doc).toMatchObject({ status: 'failed', error: { code: 'INDEXING_TIMEOUT' } });
    expect(doc.error.message).toMatch(/longer than the limit of 0\.2 s \(QUARRY_INDEXING_TIMEOUT_S\)/);
    expect(chunks).toBe(0);
    expect(performance.now() - started).toBeLessThan(20_000);

    setLimits({});
    expect((await indexed(SMALL, 'after-timeout')).doc).toMatchObject({ status: 'indexed', chunk_count: 1 });
  });
});

describe('embedding service errors inside the thread', () => {
  it('keeps a transient failure retryable and ends the document failed on a configuration error', async () => {
    const server = await startFakeEmbeddingServer();
    try {
      setLimits({
        QUARRY_EMBEDDING_PROVIDER: 'openai',
        QUARRY_EMBEDDING_URL: `${server.origin}/v1`,
        QUARRY_EMBEDDING_MODEL: 'test-embedding',
        QUARRY_EMBEDDING_DIMENSIONS: '64',
        QUARRY_EMBEDDING_MAX_RETRIES: '0',
      });
      const kbId = await createKb(app, { name: 'remote' });
      const ctx = { db: app.db, storage: null as never, requestId: null, principal: null };
      const add = async (name: string) => {
        const { fileId } = await extractedFile(app, `${name}.md`, `${SMALL}\n\n${name}`);
        const id = (await addDoc(app, kbId, { file_id: fileId })).body.id as string;
        expect(await startIndexing(ctx, id)).toBe(true);
        return id;
      };

      const first = await add('transient');
      server.failNext({ status: 503, body: { error: { message: 'overloaded' } } });
      const err = await runDocumentIndexing(ctx, first).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(EmbeddingError);
      expect(err).toMatchObject({ code: 'EMBEDDING_FAILED', retryable: true });
      expect(await getDoc(kbId, first)).toMatchObject({ status: 'indexing' });
      expect(await runDocumentIndexing(ctx, first)).toEqual({ status: 'indexed', chunk_count: 1 });

      const second = await add('refused');
      server.failNext({ status: 401, body: { error: { message: 'bad key' } } });
      expect(await runDocumentIndexing(ctx, second)).toEqual({ status: 'failed' });
      expect(await getDoc(kbId, second)).toMatchObject({ status: 'failed', error: { code: 'EMBEDDING_NOT_CONFIGURED' } });
    } finally {
      await server.close();
    }
  });
});

describe('documents of more than one statement', () => {
  /** Chunks, statistics and document frequencies of a knowledge base, per generation. */
  async function statsOf(kbId: string) {
    return queryRows<{ generation: number; chunks: number; chunk_total: number; term_total: number; df_sum: number; terms: number; term_count: number }>(
      app.db,
      sql`select s.generation, s.chunk_total::int as chunk_total, s.term_total::int as term_total,
                 (select count(*)::int from kb_chunks c where c.kb_id = s.kb_id and c.generation = s.generation) as chunks,
                 (select coalesce(sum(c.term_count), 0)::int from kb_chunks c where c.kb_id = s.kb_id and c.generation = s.generation) as term_count,
                 (select coalesce(sum(array_length(tsvector_to_array(c.terms), 1)), 0)::int from kb_chunks c where c.kb_id = s.kb_id and c.generation = s.generation) as terms,
                 (select coalesce(sum(length(p.data) / 6), 0)::int from kb_postings p where p.kb_id = s.kb_id and p.generation = s.generation) as df_sum
          from kb_index_stats s where s.kb_id = ${kbId} order by s.generation`,
    );
  }

  /**
   * The keyword postings of a knowledge base, decoded, against its chunks: one record per chunk
   * and distinct term, with the chunk's length, in its term's bucket, in ordinal order.
   */
  async function expectPostingsMatchChunks(kbId: string) {
    const chunks = await queryRows<{ generation: number; ordinal: number; term_count: number; terms: string[] }>(
      app.db,
      sql`select generation, ordinal, term_count, tsvector_to_array(terms) as terms from kb_chunks where kb_id = ${kbId}`,
    );
    const expected = chunks.flatMap((c) => c.terms.map((t) => `${c.generation} ${t} ${c.ordinal} ${c.term_count}`)).sort();
    const rows = await queryRows<{ generation: number; term: string; block: number; data: Uint8Array }>(
      app.db,
      sql`select generation, term, block, data from kb_postings where kb_id = ${kbId} order by generation, term, block`,
    );
    const actual: string[] = [];
    let previous = '';
    let last = -1;
    for (const r of rows) {
      const list = postingList([r]);
      expect(list.count, `empty block kept for ${r.term}`).toBeGreaterThan(0);
      expect(list.count).toBeLessThanOrEqual(BLOCK_RECORDS);
      for (let i = 0; i < list.count; i++) {
        const ordinal = ordinalAt(list, i);
        const key = `${r.generation} ${r.term}`;
        if (key !== previous) last = -1;
        expect(ordinal, `${r.term} out of order`).toBeGreaterThan(last);
        expect(ordinal - r.block).toBeGreaterThanOrEqual(0);
        expect(ordinal - r.block).toBeLessThanOrEqual(BLOCK_SPAN);
        previous = key;
        last = ordinal;
        actual.push(`${r.generation} ${r.term} ${ordinal} ${list.lengths[i]}`);
      }
    }
    expect(actual.sort()).toEqual(expected);
    return actual.length;
  }

  it('keeps postings equal to the chunks when documents sharing buckets come and go', async () => {
    const kbId = await createKb(app, { name: 'postings', chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 0 } });
    const ids: string[] = [];
    for (const [i, size] of [4_000, 6_000, 3_000].entries()) {
      const { fileId } = await extractedFile(app, `part-${i}.md`, largeMarkdown(size));
      ids.push((await addDoc(app, kbId, { file_id: fileId })).body.id);
    }
    await drainWorkflows(app);
    const all = await expectPostingsMatchChunks(kbId);
    expect(all).toBeGreaterThan(100);
    // Document frequencies as a search sees them (through the postings cache) against the table.
    const [kbRow] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const kbScope = { kbId, generation: kbRow.generation, dimensions: kbRow.embeddingDimensions, conditions: [] };
    const sample = largeMarkdown(3_000).toLowerCase().match(/[a-z]{4,}/g)!.slice(0, 6).join(' ');
    const expectSearchSeesTable = async () => {
      const q = (await prepareKeywordQuery(app.db, kbScope, sample))!;
      const rows = await queryRows<{ term: string; df: number }>(
        app.db,
        sql`select term, (sum(length(data)) / 6)::int as df from kb_postings where kb_id = ${kbId} group by term`,
      );
      const table = new Map(rows.map((r) => [r.term, Number(r.df)]));
      expect(q.terms.length).toBeGreaterThan(0);
      for (const t of q.terms) expect(t.df, t.term).toBe(table.get(t.term));
      return q.terms.reduce((n, t) => n + t.df, 0);
    };
    const before = await expectSearchSeesTable();
    // The middle document: its records go from blocks the others keep using.
    const path = `/v1/knowledge-bases/${kbId}/documents/${ids[1]}`;
    expect((await app.call(documentRoute.DELETE, { method: 'DELETE', path, params: { kb_id: kbId, document_id: ids[1] } })).status).toBe(204);
    const left = await expectPostingsMatchChunks(kbId);
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThan(all);
    expect(await expectSearchSeesTable()).toBeLessThan(before);
    // Added again: new ordinals after every existing one.
    const { fileId } = await extractedFile(app, 'again.md', largeMarkdown(6_000));
    await addDoc(app, kbId, { file_id: fileId });
    await drainWorkflows(app);
    expect(await expectPostingsMatchChunks(kbId)).toBe(all);
    expect(await expectSearchSeesTable()).toBe(before);

    // A filter that only the last-ranked chunk passes: the first chunks looked up all fail it, so
    // more of the ranking is checked until it is found.
    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const scope = { kbId, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
    const words = largeMarkdown(6_000).toLowerCase().match(/[a-z]{4,}/g)!;
    const counts = new Map<string, number>();
    for (const w of words) counts.set(w, (counts.get(w) ?? 0) + 1);
    const query = [...counts].sort((a, b) => b[1] - a[1]).slice(0, 2).map(([w]) => w).join(' ');
    const q = (await prepareKeywordQuery(app.db, scope, query))!;
    const ranking = await keywordCandidates(app.db, scope, q, 100_000);
    expect(ranking.length, query).toBeGreaterThan(40);
    const last = ranking[ranking.length - 1];
    const [chunk] = await app.db.select().from(kbChunks).where(eq(kbChunks.id, last.id));
    const filter = compileFilter({ document_id: chunk.documentId, 'metadata.chunk_index': chunk.metadata.chunk_index as number });
    expect(await keywordCandidates(app.db, { ...scope, conditions: filter.conditions }, q, 5)).toEqual([last]);
  });

  it('writes, re-indexes and deletes a document of hundreds of chunks with exact statistics', async () => {
    setLimits({ QUARRY_EMBEDDING_DIMENSIONS: '64' });
    const kbId = await createKb(app, { name: 'many-chunks', chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 0 } });
    const { fileId } = await extractedFile(app, 'many.md', largeMarkdown(60_000));
    const docId = (await addDoc(app, kbId, { file_id: fileId })).body.id;
    await drainWorkflows(app);
    const doc = await getDoc(kbId, docId);
    expect(doc.status).toBe('indexed');
    // Many statements' worth: inserts start at a few rows, deletes at a few dozen.
    expect(doc.chunk_count).toBeGreaterThan(300);
    const [first] = await statsOf(kbId);
    expect(first).toMatchObject({ chunks: doc.chunk_count, chunk_total: doc.chunk_count, term_total: first.term_count, df_sum: first.terms });
    const indexes = await queryRows<{ chunk_index: number }>(app.db, sql`select chunk_index from kb_chunks where document_id = ${docId} order by chunk_index`);
    expect(indexes.map((r) => r.chunk_index)).toEqual(Array.from({ length: doc.chunk_count }, (_, i) => i));
    expect(await expectPostingsMatchChunks(kbId)).toBe(first.terms);

    // A new strategy: the document is chunked again into a new generation, the old one dropped.
    const patched = await app.call(kbRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/knowledge-bases/${kbId}`,
      params: { kb_id: kbId },
      body: { chunking_strategy: { chunk_size: 128 } },
    });
    expect(patched.status).toBe(200);
    await drainWorkflows(app);
    const reindexed = await getDoc(kbId, docId);
    expect(reindexed.chunk_count).toBeLessThan(doc.chunk_count);
    const [second, ...others] = await statsOf(kbId);
    expect(others).toEqual([]);
    expect(second.generation).toBeGreaterThan(first.generation);
    expect(second).toMatchObject({ chunks: reindexed.chunk_count, chunk_total: reindexed.chunk_count, df_sum: second.terms });
    expect(await expectPostingsMatchChunks(kbId)).toBe(second.terms);

    const deleted = await app.call(documentRoute.DELETE, {
      method: 'DELETE',
      path: `/v1/knowledge-bases/${kbId}/documents/${docId}`,
      params: { kb_id: kbId, document_id: docId },
    });
    expect(deleted.status).toBe(204);
    expect(await statsOf(kbId)).toEqual([{ ...second, chunks: 0, chunk_total: 0, term_total: 0, df_sum: 0, terms: 0, term_count: 0 }]);
    expect(await expectPostingsMatchChunks(kbId)).toBe(0);
  });
});
