import { eq } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import * as hybridRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import { resetConfig } from '@/lib/config';
import { kbChunks, kbDocuments, knowledgeBases } from '@/lib/db/schema';
import { analyze } from '@/lib/search/analyze';
import { BM25_B, BM25_K1, keywordCandidates, prepareKeywordQuery } from '@/lib/search/keyword';
import { compileFilter } from '@/lib/search/filter';
import { vectorCandidates } from '@/lib/search/query';
import { toVectorLiteral } from '@/lib/search/vectors';
import { embedderFor } from '@/lib/knowledge-bases/embedder';
import { indexServesSemantic } from '@/lib/knowledge-bases/search';
import { useTestApp } from '@/test/support/app';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

const app = useTestApp();

const DOCS: { name: string; markdown: string; metadata: Record<string, unknown> }[] = [
  {
    name: 'invoices.md',
    markdown: `# Invoices\n\nThe finance team approves every invoice before payment. Invoices above 10,000 euros need a second approval.\n\n# Refunds\n\nRefunds are paid back to the original card within five working days.`,
    metadata: { lang: 'en', year: 2023, tags: ['finance', 'policy'], owner: { name: 'Ana' } },
  },
  {
    name: 'garden.md',
    markdown: `# Tomatoes\n\nTomatoes need full sun, deep watering twice a week and a stake to climb.\n\n# Roses\n\nPrune roses in late winter, just before the buds swell.`,
    metadata: { lang: 'en', year: 2021, tags: ['garden'] },
  },
  {
    name: 'servers.md',
    markdown: `# Deployment\n\nThe server reads DATABASE_URL at start. Without it, the embedded database keeps data in the data directory.\n\n# Monitoring\n\nThe health endpoint answers with the database status and the queue depth.`,
    metadata: { lang: 'en', year: 2024, tags: ['ops'] },
  },
  {
    name: 'chinese.md',
    markdown: `# 数据库\n\n向量数据库用于语义搜索，关键词搜索使用倒排索引。\n\n# 天气\n\n今天的天气很好，适合去公园散步。`,
    metadata: { lang: 'zh', year: 2024 },
  },
];

let kbId: string;
const docIds = new Map<string, string>();

async function search(body: Record<string, unknown>, id = kbId) {
  return app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${id}/search`, params: { kb_id: id }, body });
}
async function hybrid(body: Record<string, unknown>, id = kbId) {
  return app.call(hybridRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${id}/hybrid-search`, params: { kb_id: id }, body });
}

beforeAll(async () => {
  kbId = await createKb(app, { name: 'search' });
  for (const doc of DOCS) {
    const { fileId } = await extractedFile(app, doc.name, doc.markdown);
    const res = await addDoc(app, kbId, { file_id: fileId, metadata: doc.metadata });
    docIds.set(doc.name, res.body.id);
  }
  await drainWorkflows(app);
});

describe('semantic search', () => {
  it('ranks the chunk about the query first, with scores in [0, 1], best first', async () => {
    const res = await search({ query: 'who approves an invoice' });
    expect(res.status).toBe(200);
    expect(res.body.query).toBe('who approves an invoice');
    expect(res.body.chunks).toHaveLength(5);
    expect(res.body.total).toBe(5);
    const [top] = res.body.chunks;
    expect(top.content).toContain('approves every invoice');
    expect(top).toMatchObject({ document_id: docIds.get('invoices.md'), document_title: 'invoices.md' });
    expect(top.metadata).toMatchObject({ lang: 'en', section: 'Invoices', chunk_index: 0 });
    expect(Object.keys(top).sort()).toEqual(['content', 'document_id', 'document_title', 'extraction_id', 'file_id', 'file_version', 'id', 'metadata', 'score', 'source_item']);
    // An upload's chunk: made from version 1 of its file, from no source.
    expect(top).toMatchObject({ file_version: 1, source_item: null });
    // Where to open it: the document's file and the extraction it was indexed from.
    const [doc] = await app.db.select().from(kbDocuments).where(eq(kbDocuments.id, top.document_id));
    expect(top).toMatchObject({ file_id: doc.fileId, extraction_id: doc.extractionId });
    const scores = res.body.chunks.map((c: { score: number }) => c.score);
    expect(scores).toEqual([...scores].sort((a, b) => b - a));
    expect(scores.every((s: number) => s >= 0 && s <= 1)).toBe(true);
  });

  it('honours top_k (max 100) and threshold', async () => {
    expect((await search({ query: 'roses', top_k: 2 })).body.chunks).toHaveLength(2);
    expect((await search({ query: 'roses', top_k: 100 })).status).toBe(200);
    for (const body of [{ query: 'x', top_k: 101 }, { query: 'x', top_k: 0 }, { query: 'x', top_k: 2.5 }, { query: 'x', threshold: 1.5 }, { query: '' }, {}]) {
      const res = await search(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    const all = (await search({ query: 'prune roses in winter', top_k: 20 })).body.chunks;
    const cut = (all[0].score + all[all.length - 1].score) / 2;
    const above = (await search({ query: 'prune roses in winter', top_k: 20, threshold: cut })).body.chunks;
    expect(above.length).toBeGreaterThan(0);
    expect(above.length).toBeLessThan(all.length);
    expect(above.every((c: { score: number }) => c.score >= cut)).toBe(true);
  });

  it('filters on metadata: equality, any-of, array containment, operators, nested keys, document_id', async () => {
    const docsOf = async (filter: Record<string, unknown>) => {
      const res = await search({ query: 'database', top_k: 50, filter });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      return new Set(res.body.chunks.map((c: { document_title: string }) => c.document_title));
    };
    expect(await docsOf({ 'metadata.lang': 'zh' })).toEqual(new Set(['chinese.md']));
    expect(await docsOf({ 'metadata.year': [2021, 2023] })).toEqual(new Set(['garden.md', 'invoices.md']));
    expect(await docsOf({ 'metadata.tags': 'finance' })).toEqual(new Set(['invoices.md']));
    expect(await docsOf({ 'metadata.year': { $gte: 2024 } })).toEqual(new Set(['servers.md', 'chinese.md']));
    expect(await docsOf({ 'metadata.year': { $gt: 2021, $lt: 2024 } })).toEqual(new Set(['invoices.md']));
    expect(await docsOf({ 'metadata.tags': { $exists: false } })).toEqual(new Set(['chinese.md']));
    expect(await docsOf({ 'metadata.lang': { $ne: 'en' } })).toEqual(new Set(['chinese.md']));
    expect(await docsOf({ 'metadata.lang': { $in: ['zh'] }, 'metadata.year': 2024 })).toEqual(new Set(['chinese.md']));
    expect(await docsOf({ 'metadata.owner.name': 'Ana' })).toEqual(new Set(['invoices.md']));
    expect(await docsOf({ 'metadata.section': 'Monitoring' })).toEqual(new Set(['servers.md']));
    expect(await docsOf({ document_id: docIds.get('garden.md')! })).toEqual(new Set(['garden.md']));
    expect(await docsOf({ 'metadata.lang': 'fr' })).toEqual(new Set());
    for (const filter of [{ lang: 'en' }, { 'metadata.year': { $regex: '2' } }, { 'metadata.year': { $gt: [1] } }, { 'metadata.tags': { $in: [] } }, { 'metadata.': 1 }]) {
      const res = await search({ query: 'database', filter });
      expect(res.status, JSON.stringify(filter)).toBe(400);
      expect(res.body.error.details.field).toMatch(/^filter/);
    }
  });

  it('gives the same results through the HNSW index as by exact scan, and searches built-in vectors exactly at any size', async () => {
    const exact = (await search({ query: 'health endpoint status', top_k: 8 })).body.chunks;
    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const scope = { kbId, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
    const vector = toVectorLiteral((await embedderFor(kb).embed(['health endpoint status']))[0]);
    const viaIndex = await vectorCandidates(app.db, scope, vector, 8, { exact: false });
    const byScan = await vectorCandidates(app.db, scope, vector, 8, { exact: true });
    expect(viaIndex.map((h) => h.id)).toEqual(byScan.map((h) => h.id));
    expect(byScan.map((h) => h.id)).toEqual(exact.map((c: { id: string }) => c.id));
    const zh = { ...scope, conditions: compileFilter({ 'metadata.lang': 'zh' }).conditions };
    expect(await vectorCandidates(app.db, zh, vector, 8, { exact: false })).toHaveLength(2);
    // Built-in (lexical) vectors are searched exactly even where the index would be used.
    expect(indexServesSemantic(kb)).toBe(false);
    expect(indexServesSemantic({ embeddingProvider: 'openai' })).toBe(true);
    process.env.QUARRY_SEARCH_EXACT_MAX_CHUNKS = '0';
    resetConfig();
    try {
      const served = (await search({ query: 'health endpoint status', top_k: 8 })).body.chunks;
      expect(served.map((c: { id: string }) => c.id)).toEqual(exact.map((c: { id: string }) => c.id));
    } finally {
      delete process.env.QUARRY_SEARCH_EXACT_MAX_CHUNKS;
      resetConfig();
    }
  });

  it('answers 404 for an unknown knowledge base', async () => {
    const res = await search({ query: 'x' }, 'kb_01jd0000000000000000000000');
    expect([res.status, res.body.error.code]).toEqual([404, 'KNOWLEDGE_BASE_NOT_FOUND']);
  });
});

/** BM25 straight from the definition, over every chunk of the knowledge base. */
async function referenceBm25(query: string): Promise<Map<string, number>> {
  const chunks = await app.db.select().from(kbChunks).where(eq(kbChunks.kbId, kbId));
  const docs = chunks.map((c) => {
    const section = c.metadata.section as string | null;
    const terms = analyze(section ? `${section}\n\n${c.content}` : c.content);
    const tf = new Map<string, number>();
    for (const t of terms) tf.set(t, (tf.get(t) ?? 0) + 1);
    return { id: c.id, tf, length: terms.length };
  });
  const avg = docs.reduce((s, d) => s + d.length, 0) / docs.length;
  const scores = new Map<string, number>();
  for (const term of new Set(analyze(query))) {
    const df = docs.filter((d) => d.tf.has(term)).length;
    if (df === 0) continue;
    const idf = Math.log(1 + (docs.length - df + 0.5) / (df + 0.5));
    for (const d of docs) {
      const f = d.tf.get(term);
      if (!f) continue;
      const s = (idf * f * (BM25_K1 + 1)) / (f + BM25_K1 * (1 - BM25_B + (BM25_B * d.length) / avg));
      scores.set(d.id, (scores.get(d.id) ?? 0) + s);
    }
  }
  return scores;
}

describe('hybrid search', () => {
  it('with keyword_weight 1 ranks exactly by BM25, keyword_score = BM25 / best BM25', async () => {
    const query = 'database data directory server';
    const res = await hybrid({ query, vector_weight: 0, keyword_weight: 1, top_k: 20 });
    expect(res.status).toBe(200);
    const reference = await referenceBm25(query);
    const expected = [...reference].sort((a, b) => b[1] - a[1]);
    const best = expected[0][1];
    expect(res.body.chunks.map((c: { id: string }) => c.id)).toEqual(expected.map(([id]) => id));
    const worst = expected[expected.length - 1][1];
    for (const c of res.body.chunks) {
      expect(c.keyword_score).toBeCloseTo(reference.get(c.id)! / best, 6);
      // Min-max fusion: the best BM25 scores 1, the lowest 0.
      expect(c.score).toBeCloseTo((reference.get(c.id)! - worst) / (best - worst), 6);
    }
  });

  it('finds the exact BM25 top chunks from the postings, for any limit, and under a filter that removes the best', async () => {
    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const scope = { kbId, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
    const documentOf = new Map((await app.db.select().from(kbChunks).where(eq(kbChunks.kbId, kbId))).map((c) => [c.id, c.documentId]));
    for (const query of ['database', 'the database server data', 'tomatoes database', 'refunds invoices approval payment', '数据库 database']) {
      const q = await prepareKeywordQuery(app.db, scope, query);
      expect(q, query).not.toBeNull();
      const reference = [...(await referenceBm25(query))].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
      for (const limit of [1, 2, 3, 5]) {
        const hits = await keywordCandidates(app.db, scope, q!, limit);
        expect(hits.map((h) => h.id), `${query} @${limit}`).toEqual(reference.slice(0, limit).map(([id]) => id));
        hits.forEach((h, i) => expect(h.score).toBeCloseTo(reference[i][1], 9));
      }
      // Only the document of the lowest-ranked chunk: the best-ranked chunks all fail the filter.
      const last = documentOf.get(reference[reference.length - 1][0])!;
      const filtered = { ...scope, conditions: compileFilter({ document_id: last }).conditions };
      const expected = reference.filter(([id]) => documentOf.get(id) === last);
      const hits = await keywordCandidates(app.db, filtered, q!, 3);
      expect(hits.map((h) => h.id), `${query} in ${last}`).toEqual(expected.slice(0, 3).map(([id]) => id));
    }
  });

  it('reads at most the postings budget of a query, leaving out its most common words', async () => {
    const [kb] = await app.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kbId));
    const scope = { kbId, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
    const query = 'database server data tomatoes invoices';
    const all = (await prepareKeywordQuery(app.db, scope, query))!;
    const byDf = [...all.terms].sort((a, b) => a.df - b.df);
    expect(byDf.length).toBeGreaterThanOrEqual(3);
    const commonest = byDf[byDf.length - 1];
    expect(commonest.df).toBeGreaterThan(byDf[byDf.length - 2].df);
    const budget = all.terms.reduce((n, t) => n + t.df, 0) - 1;
    const bounded = (await prepareKeywordQuery(app.db, scope, query, { maxPostings: budget }))!;
    expect(bounded.terms.map((t) => t.term).sort()).toEqual(byDf.slice(0, -1).map((t) => t.term).sort());
    expect(bounded.lists.reduce((n, l) => n + l.list.count, 0)).toBeLessThanOrEqual(budget);
    // The rarest word is always kept, however small the budget.
    const tiny = (await prepareKeywordQuery(app.db, scope, query, { maxPostings: 1 }))!;
    expect(tiny.terms.map((t) => t.term)).toEqual([byDf[0].term]);
    expect((await keywordCandidates(app.db, scope, tiny, 3)).length).toBeGreaterThan(0);
  });

  it('by default fuses min-max-normalised scores, BM25 leading for the built-in embedder', async () => {
    const res = await hybrid({ query: 'database server queue', top_k: 100 });
    expect(res.status).toBe(200);
    const chunks = res.body.chunks as { score: number; vector_score: number; keyword_score: number }[];
    expect(chunks.length).toBeGreaterThan(3);
    const scale = (side: 'vector_score' | 'keyword_score') => {
      const xs = chunks.map((c) => c[side]).filter((x) => x > 0);
      const [min, max] = [Math.min(...xs), Math.max(...xs)];
      return (x: number) => (x > 0 ? (max > min ? (x - min) / (max - min) : 1) : 0);
    };
    const [v, k] = [scale('vector_score'), scale('keyword_score')];
    for (const c of chunks) expect(c.score).toBeCloseTo(0.15 * v(c.vector_score) + 0.85 * k(c.keyword_score), 6);
    expect(chunks.map((c) => c.score)).toEqual([...chunks.map((c) => c.score)].sort((a, b) => b - a));
  });

  it('combines both sides with the given weights and returns both scores (fusion "weighted")', async () => {
    const res = await hybrid({ query: 'how long do refunds take', top_k: 10, fusion: 'weighted', vector_weight: 0.7, keyword_weight: 0.3 });
    expect(res.status).toBe(200);
    expect(res.body.chunks.length).toBeGreaterThan(0);
    const [top] = res.body.chunks;
    expect(top.content).toContain('Refunds are paid');
    for (const c of res.body.chunks) {
      expect(c.vector_score).toBeGreaterThanOrEqual(0);
      expect(c.vector_score).toBeLessThanOrEqual(1);
      expect(c.keyword_score).toBeGreaterThanOrEqual(0);
      expect(c.keyword_score).toBeLessThanOrEqual(1);
      expect(c.score).toBeCloseTo(0.7 * c.vector_score + 0.3 * c.keyword_score, 9);
    }
    expect(res.body.chunks.some((c: { keyword_score: number }) => c.keyword_score === 1)).toBe(true);
    // The vector side agrees with semantic search.
    const semantic = (await search({ query: 'how long do refunds take', top_k: 1 })).body.chunks[0];
    const same = res.body.chunks.find((c: { id: string }) => c.id === semantic.id);
    expect(same.vector_score).toBeCloseTo(semantic.score, 6);
  });

  it('finds Chinese text by keyword', async () => {
    const res = await hybrid({ query: '语义搜索', keyword_weight: 1, vector_weight: 0 });
    expect(res.status).toBe(200);
    expect(res.body.chunks[0].content).toContain('向量数据库用于语义搜索');
    expect(res.body.chunks[0].keyword_score).toBe(1);
  });

  it('validates weights: one weight alone sets the other to its complement', async () => {
    const only = await hybrid({ query: 'roses', keyword_weight: 0.4, fusion: 'weighted' });
    expect(only.status).toBe(200);
    for (const c of only.body.chunks) expect(c.score).toBeCloseTo(0.6 * c.vector_score + 0.4 * c.keyword_score, 9);
    for (const body of [
      { query: 'x', vector_weight: 0.8, keyword_weight: 0.8 },
      { query: 'x', vector_weight: 0, keyword_weight: 0 },
      { query: 'x', vector_weight: -0.1 },
      { query: 'x', keyword_weight: 2 },
      { query: 'x', top_k: 101 },
      { query: 'x', fusion: 'sum' },
      { query: 'x', rrf_k: 10 },
      { query: 'x', fusion: 'rrf', rrf_k: 0 },
    ]) {
      const res = await hybrid(body);
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });

  it('applies filters and threshold to hybrid results', async () => {
    const res = await hybrid({ query: 'database', top_k: 20, filter: { 'metadata.lang': 'en' }, threshold: 0.2 });
    expect(res.status).toBe(200);
    expect(res.body.chunks.length).toBeGreaterThan(0);
    for (const c of res.body.chunks) {
      expect(c.metadata.lang).toBe('en');
      expect(c.score).toBeGreaterThanOrEqual(0.2);
    }
  });
});

describe('re-indexing after a chunking-strategy change', () => {
  it('keeps serving the old chunks until the new ones replace them at once', async () => {
    const id = await createKb(app, { name: 'reindex', chunking_strategy: { type: 'paragraph', chunk_size: 512 } });
    const { fileId } = await extractedFile(app, 'long.md', DOCS.map((d) => d.markdown).join('\n\n'));
    await addDoc(app, id, { file_id: fileId });
    await drainWorkflows(app);
    const before = (await search({ query: 'tomatoes sun', top_k: 100 }, id)).body.chunks;
    expect(before.length).toBe(8);

    const patched = await app.call(kbRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/knowledge-bases/${id}`,
      params: { kb_id: id },
      body: { chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 16 } },
    });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({
      chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 16 },
      index_status: 'reindexing',
      reindex: { serving_chunking_strategy: { type: 'paragraph', chunk_size: 512 } },
      chunk_count: 8,
    });
    // Until the swap, searches read the old generation only.
    const during = (await search({ query: 'tomatoes sun', top_k: 100 }, id)).body.chunks;
    expect(during.map((c: { id: string }) => c.id).sort()).toEqual(before.map((c: { id: string }) => c.id).sort());

    await drainWorkflows(app);
    const kb = (await app.call(kbRoute.GET, { path: `/v1/knowledge-bases/${id}`, params: { kb_id: id } })).body;
    expect(kb).toMatchObject({ index_status: 'ready', chunking_strategy: { type: 'fixed', chunk_size: 64, overlap: 16 } });
    expect(kb.reindex).toBeUndefined();
    const after = (await search({ query: 'tomatoes sun', top_k: 100 }, id)).body.chunks;
    expect(kb.chunk_count).toBe(after.length);
    expect(after.length).not.toBe(8);
    const old = new Set(before.map((c: { id: string }) => c.id));
    expect(after.filter((c: { id: string }) => old.has(c.id))).toEqual([]);
    const rows = await app.db.select().from(kbChunks).where(eq(kbChunks.kbId, id));
    expect(rows.length).toBe(after.length);
    expect(rows.every((r) => r.tokenCount <= 64)).toBe(true);
  });
});
