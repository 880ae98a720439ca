import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import { analyze } from './analyze';
import { anyTermQuery } from './tsvector';
import { cosineDistance } from './vectors';

/*
 * The SQL of semantic and keyword search over one generation of one knowledge base's chunks.
 *
 * Semantic: cosine distance through the per-dimension HNSW index (vector_cosine_ops), with
 * pgvector's iterative scan so filters do not starve the result. Knowledge bases of up to
 * `exactMaxChunks` chunks are searched exactly instead (a scan of their rows is faster than the
 * index there and never misses). similarity = 1 − cosine distance.
 *
 * Keyword: Okapi BM25 over the chunks' analysed terms (a GIN-indexed tsvector finds the chunks
 * holding a term; a jsonb object gives its frequency), with the knowledge base's own document
 * frequencies and average length:
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
 *   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)).
 */

export const BM25_K1 = 1.2;
export const BM25_B = 0.75;
const HNSW_MAX_EF_SEARCH = 1000;
const HNSW_MIN_EF_SEARCH = 100;

export interface SearchScope {
  kbId: string;
  generation: number;
  dimensions: number;
  /** Extra conditions on the chunk alias `c` (metadata filters). */
  conditions: SQL[];
}

/** `$1, $2, …` for an IN list of chunk ids. */
function idList(ids: string[]): SQL {
  return sql.join(
    ids.map((id) => sql`${id}`),
    sql`, `,
  );
}

export interface ScoredChunk {
  id: string;
  score: number;
}

function scopeWhere(scope: SearchScope): SQL {
  return sql.join(
    [
      sql`c.kb_id = ${scope.kbId}`,
      sql`c.generation = ${scope.generation}`,
      sql.raw(`c.dimensions = ${Math.trunc(scope.dimensions)}`),
      ...scope.conditions,
    ],
    sql` and `,
  );
}

/**
 * The `limit` chunks most similar to the query vector (text form), best first, with their cosine
 * similarity. A zero vector (a query without words) has no direction and finds nothing.
 */
export async function vectorCandidates(
  db: DbOrTx,
  scope: SearchScope,
  queryVector: string,
  limit: number,
  opts: { exact: boolean },
): Promise<ScoredChunk[]> {
  if (!/[1-9]/.test(queryVector)) return [];
  const where = scopeWhere(scope);
  if (opts.exact) {
    // Not the indexed expression, so the planner reads the knowledge base's rows and sorts them.
    const rows = await queryRows<{ id: string; distance: number }>(
      db,
      sql`select c.id, (c.embedding <=> ${queryVector}::vector) as distance from kb_chunks c
          where ${where} order by distance, c.id limit ${limit}`,
    );
    return rows.map((r) => ({ id: r.id, score: 1 - Number(r.distance) }));
  }
  const distance = cosineDistance(scope.dimensions, queryVector, 'c.embedding');
  const search = async (tx: DbOrTx) => {
    // Session settings for this transaction only: a wider candidate list, and iterative scans so
    // that filtered-out rows do not leave the result short.
    const efSearch = Math.min(HNSW_MAX_EF_SEARCH, Math.max(HNSW_MIN_EF_SEARCH, limit * 2));
    await tx.execute(sql`select set_config('hnsw.ef_search', ${String(efSearch)}, true), set_config('hnsw.iterative_scan', 'strict_order', true)`);
    const rows = await queryRows<{ id: string; distance: number }>(
      tx,
      sql`select c.id, ${distance} as distance from kb_chunks c where ${where} order by ${distance} limit ${limit}`,
    );
    // The index returns equal distances in its own order; ties are ordered by id, as by the exact scan.
    return rows
      .map((r) => ({ id: r.id, score: 1 - Number(r.distance) }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
  };
  // Inside a transaction already (searches run on one snapshot): no savepoint needed.
  return isTransaction(db) ? search(db) : (db as Db).transaction(search);
}

function isTransaction(db: DbOrTx): boolean {
  return typeof (db as { rollback?: unknown }).rollback === 'function';
}

/** Cosine similarity of the given chunks to the query vector. */
export async function vectorScores(db: DbOrTx, ids: string[], queryVector: string): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0 || !/[1-9]/.test(queryVector)) return out;
  const rows = await queryRows<{ id: string; distance: number }>(
    db,
    sql`select c.id, (c.embedding <=> ${queryVector}::vector) as distance from kb_chunks c
        where c.id in (${idList(ids)})`,
  );
  for (const r of rows) out.set(r.id, 1 - Number(r.distance));
  return out;
}

export interface KeywordTerm {
  term: string;
  idf: number;
  df: number;
}

export interface KeywordQuery {
  /** Distinct query terms found in the knowledge base, rarest first, with their IDF. */
  terms: KeywordTerm[];
  avgLength: number;
}

/** Analyses the query and looks up the statistics BM25 needs; null when no term occurs in the knowledge base. */
export async function prepareKeywordQuery(db: DbOrTx, scope: SearchScope, query: string): Promise<KeywordQuery | null> {
  const distinct = [...new Set(analyze(query))].slice(0, 256);
  if (distinct.length === 0) return null;
  const [stats] = await queryRows<{ chunk_total: string | number; term_total: string | number }>(
    db,
    sql`select chunk_total, term_total from kb_index_stats where kb_id = ${scope.kbId} and generation = ${scope.generation}`,
  );
  const n = Number(stats?.chunk_total ?? 0);
  if (n === 0) return null;
  const dfs = await queryRows<{ term: string; df: number }>(
    db,
    sql`select term, df from kb_term_stats where kb_id = ${scope.kbId} and generation = ${scope.generation}
        and df > 0 and term in (${sql.join(distinct.map((t) => sql`${t}`), sql`, `)})`,
  );
  if (dfs.length === 0) return null;
  return {
    terms: dfs
      .map(({ term, df }) => ({ term, df: Number(df), idf: Math.log(1 + (n - Number(df) + 0.5) / (Number(df) + 0.5)) }))
      .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1)),
    avgLength: Math.max(1, Number(stats.term_total) / n),
  };
}

/**
 * The BM25 score of chunk `c` as one arithmetic expression: per query term, the term frequency is
 * read from the chunk's `term_freqs` object (a keyed lookup, no unnesting), 0 when absent. Each
 * term is read once: idf·tf·(k1+1)/(tf+norm) is written idf·(k1+1)·(1 − norm/(tf+norm)), since every
 * lookup decompresses the chunk's term object again.
 */
function bm25Score(q: KeywordQuery): SQL {
  const norm = sql.raw(`(${BM25_K1} * (1 - ${BM25_B} + ${BM25_B} * c.term_count / ${q.avgLength.toFixed(6)}))`);
  const parts = q.terms.map((t) => {
    const tf = sql`coalesce((c.term_freqs ->> ${t.term})::float8, 0)`;
    return sql`(${sql.raw((t.idf * (BM25_K1 + 1)).toFixed(12))} * (1 - ${norm} / (${tf} + ${norm})))`;
  });
  return sql`(${sql.join(parts, sql` + `)})`;
}

/** The highest score a chunk can get from these terms alone (tf·(k1+1)/(tf+norm) < k1+1). */
function upperBound(terms: KeywordTerm[]): number {
  return terms.reduce((sum, t) => sum + t.idf * (BM25_K1 + 1), 0);
}

/**
 * The `limit` chunks with the highest BM25 score, best first. Exact, but without scoring every
 * chunk that holds a common word (MaxScore): only chunks containing one of the rarest terms are
 * scored (with all terms); that suffices once the limit-th score reaches the most that the other
 * terms alone could give, otherwise the next rarest term joins, until every term does.
 */
export async function keywordCandidates(db: DbOrTx, scope: SearchScope, q: KeywordQuery, limit: number): Promise<ScoredChunk[]> {
  const score = bm25Score(q);
  const total = q.terms.length;
  for (let essential = 1; ; ) {
    const rows = await queryRows<{ id: string; score: number }>(
      db,
      sql`select c.id, ${score} as score from kb_chunks c
          where ${scopeWhere(scope)} and c.terms @@ ${anyTermQuery(q.terms.slice(0, essential).map((t) => t.term))}::tsquery
          order by score desc, c.id limit ${limit}`,
    );
    const hits = rows.map((r) => ({ id: r.id, score: Number(r.score) }));
    if (essential === total) return hits;
    // The limit-th score only grows as terms join, so it bounds what the next round needs.
    const threshold = hits.length === limit ? hits[limit - 1].score : -Infinity;
    if (threshold >= upperBound(q.terms.slice(essential))) return hits;
    let next = essential + 1;
    while (next < total && upperBound(q.terms.slice(next)) > threshold) next++;
    essential = next;
  }
}

/** BM25 scores of the given chunks (0 for a chunk without any query term). */
export async function keywordScores(db: DbOrTx, ids: string[], q: KeywordQuery): Promise<Map<string, number>> {
  const out = new Map<string, number>();
  if (ids.length === 0) return out;
  const rows = await queryRows<{ id: string; score: number }>(
    db,
    sql`select c.id, ${bm25Score(q)} as score from kb_chunks c where c.id in (${idList(ids)})`,
  );
  for (const r of rows) out.set(r.id, Number(r.score));
  return out;
}

export type ChunkDetails = {
  id: string;
  document_id: string;
  document_title: string;
  file_id: string;
  extraction_id: string;
  content: string;
  metadata: Record<string, unknown>;
};

/** Content, metadata and document title of chunks. */
export async function chunkDetails(db: DbOrTx, ids: string[]): Promise<Map<string, ChunkDetails>> {
  const out = new Map<string, ChunkDetails>();
  if (ids.length === 0) return out;
  const rows = await queryRows<Omit<ChunkDetails, 'metadata'> & { metadata: unknown }>(
    db,
    sql`select c.id, c.document_id, d.title as document_title, d.file_id, d.extraction_id, c.content, c.metadata
        from kb_chunks c join kb_documents d on d.id = c.document_id
        where c.id in (${idList(ids)})`,
  );
  for (const r of rows) {
    const metadata = typeof r.metadata === 'string' ? JSON.parse(r.metadata) : r.metadata;
    out.set(r.id, { ...r, metadata: metadata as Record<string, unknown> });
  }
  return out;
}
