// The bare lib/search SQL of semantic and hybrid search, issued as the service issues it, with
// each lib/search step timed.
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import { knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { keywordCandidates, keywordScores, prepareKeywordQuery } from '@/lib/search/keyword';
import { indexServesSemantic } from '@/lib/knowledge-bases/search';
import { chunkDetails, vectorCandidates, vectorScores, type SearchScope } from '@/lib/search/query';
import type { Timings } from './common';
import { TOP_K } from './config';

/** Mirrors the service's snapshot transaction. */
function inSnapshot<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

export interface SqlContext {
  db: Db;
  kb: KnowledgeBaseRow;
  scope: SearchScope;
  exact: boolean;
  timings: Timings;
  /** Step timings are recorded under this prefix; null while warming up. */
  prefix: string | null;
}

const step = (c: SqlContext, name: string) => (c.prefix ? `${c.prefix}${name}` : null);

/**
 * The SQL of a semantic search as the service issues it — the knowledge base read, then in one
 * read-only snapshot the knowledge base and its statistics, vectorCandidates and chunkDetails —
 * with the query already embedded.
 */
export async function sqlSemantic(c: SqlContext, vector: string): Promise<number> {
  await c.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
  return inSnapshot(c.db, async (tx) => {
    await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
    await queryRows(tx, sql`select chunk_total from kb_index_stats where kb_id = ${c.kb.id} and generation = ${c.kb.generation}`);
    const hits = await c.timings.time(step(c, 'vectorCandidates'), () => vectorCandidates(tx, c.scope, vector, TOP_K, { exact: c.exact || !indexServesSemantic(c.kb) }));
    const details = await c.timings.time(step(c, 'chunkDetails'), () => chunkDetails(tx, hits.map((h) => h.id)));
    return details.size;
  });
}

/**
 * The SQL of a hybrid search as the service issues it, with the query already embedded (the
 * fusion itself is JavaScript: chunkDetails reads as many rows as the fused top k).
 */
export async function sqlHybrid(c: SqlContext, query: string, vector: string): Promise<number> {
  const limit = Math.min(400, Math.max(50, TOP_K * 4));
  await c.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
  return inSnapshot(c.db, async (tx) => {
    await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
    await queryRows(tx, sql`select chunk_total from kb_index_stats where kb_id = ${c.kb.id} and generation = ${c.kb.generation}`);
    const keyword = await c.timings.time(step(c, 'prepareKeywordQuery'), () => prepareKeywordQuery(tx, c.scope, query));
    const vectorHits = await c.timings.time(step(c, 'vectorCandidates'), () => vectorCandidates(tx, c.scope, vector, limit, { exact: c.exact }));
    const keywordHits = keyword ? await c.timings.time(step(c, 'keywordCandidates'), () => keywordCandidates(tx, c.scope, keyword, limit)) : [];
    const vectorIds = new Set(vectorHits.map((h) => h.id));
    const keywordIds = new Set(keywordHits.map((h) => h.id));
    const ids = [...new Set([...vectorIds, ...keywordIds])];
    await c.timings.time(step(c, 'vectorScores'), () => vectorScores(tx, ids.filter((id) => !vectorIds.has(id)), vector));
    const vectorOnly = vectorHits.filter((h) => !keywordIds.has(h.id)).map((h) => h.ordinal);
    if (keyword) await c.timings.time(step(c, 'keywordScores'), async () => keywordScores(vectorOnly, keyword));
    const details = await c.timings.time(step(c, 'chunkDetails'), () => chunkDetails(tx, ids.slice(0, TOP_K)));
    return details.size;
  });
}

/** The SQL of a keyword-only search (hybrid with vector_weight 0): BM25 statistics, candidates, details. */
export async function sqlKeyword(c: SqlContext, query: string): Promise<number> {
  await c.db.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
  return inSnapshot(c.db, async (tx) => {
    await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, c.kb.id)).limit(1);
    await queryRows(tx, sql`select chunk_total from kb_index_stats where kb_id = ${c.kb.id} and generation = ${c.kb.generation}`);
    const keyword = await c.timings.time(step(c, 'prepareKeywordQuery'), () => prepareKeywordQuery(tx, c.scope, query));
    const hits = keyword ? await c.timings.time(step(c, 'keywordCandidates'), () => keywordCandidates(tx, c.scope, keyword, TOP_K)) : [];
    const details = await c.timings.time(step(c, 'chunkDetails'), () => chunkDetails(tx, hits.map((h) => h.id)));
    return details.size;
  });
}
