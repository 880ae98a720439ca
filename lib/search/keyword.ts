import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { analyze } from './analyze';
import { BM25_K1, bestPositions, postingList, scoreAll, scoreOne, type PostingList, type WeightedList } from './postings';
import { scopeWhere, type ScoredChunk, type SearchScope } from './query';

/*
 * Keyword search: exact Okapi BM25 over the knowledge base's own statistics (kb_index_stats: N
 * and the total length; kb_term_stats: document frequencies),
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
 *   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)),
 * computed from the query terms' postings (lib/search/postings.ts). Reading a term's postings
 * costs 12 bytes per chunk holding it, so a query of words found in a fifth of 100k chunks reads
 * about 0.25 MB per word and scores every such chunk in a few milliseconds, where reading each
 * chunk's row would cost a second. The best chunks are then looked up by ordinal, with the
 * search's filters; when filters leave too few, more of the ranked chunks are checked.
 */

export { BM25_B, BM25_K1 } from './postings';

export interface KeywordTerm {
  term: string;
  idf: number;
  df: number;
}

export interface KeywordQuery {
  kbId: string;
  generation: number;
  /** Distinct query terms found in the knowledge base, rarest first, with their IDF. */
  terms: KeywordTerm[];
  avgLength: number;
  /** The terms' postings, read once per search (keywordCandidates, then keywordScores). */
  lists?: WeightedList[];
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
    kbId: scope.kbId,
    generation: scope.generation,
    terms: dfs
      .map(({ term, df }) => ({ term, df: Number(df), idf: Math.log(1 + (n - Number(df) + 0.5) / (Number(df) + 0.5)) }))
      .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1)),
    avgLength: Math.max(1, Number(stats.term_total) / n),
  };
}

/** The query terms' postings with their weights, read from kb_postings once per query object. */
async function weightedLists(db: DbOrTx, q: KeywordQuery): Promise<WeightedList[]> {
  if (q.lists) return q.lists;
  const rows = await queryRows<{ term: string; data: Uint8Array | string }>(
    db,
    sql`select term, data from kb_postings where kb_id = ${q.kbId} and generation = ${q.generation}
        and term in (${sql.join(q.terms.map((t) => sql`${t.term}`), sql`, `)}) order by term, bucket`,
  );
  const parts = new Map<string, Uint8Array[]>();
  for (const r of rows) {
    // Drivers hand bytea back as bytes; a text form (\x…) is decoded in case one does not.
    const bytes = typeof r.data === 'string' ? Buffer.from(r.data.replace(/^\\x/, ''), 'hex') : r.data;
    const list = parts.get(r.term) ?? [];
    list.push(bytes);
    parts.set(r.term, list);
  }
  q.lists = q.terms.map((t) => ({ list: parts.has(t.term) ? postingList(parts.get(t.term)!) : EMPTY, weight: t.idf * (BM25_K1 + 1) }));
  return q.lists;
}

const EMPTY: PostingList = { view: new DataView(new ArrayBuffer(0)), count: 0 };

/** How many of the ranked chunks the first lookup checks: enough for the limit when filters remove a few. */
const firstLookup = (limit: number) => Math.max(2 * limit, 20);

/**
 * The `limit` chunks with the highest BM25 score, best first (ties by chunk id): every chunk
 * holding a query term is scored from the postings, then the best are looked up with the
 * search's conditions, checking eight times as many each round until `limit` pass or none are left.
 */
export async function keywordCandidates(db: DbOrTx, scope: SearchScope, q: KeywordQuery, limit: number): Promise<ScoredChunk[]> {
  if (limit <= 0) return [];
  const scored = scoreAll(await weightedLists(db, q), q.avgLength);
  for (let want = firstLookup(limit); ; want *= 8) {
    const positions = bestPositions(scored, want);
    if (positions.length === 0) return [];
    const scoreOf = new Map(positions.map((p) => [scored.ordinals[p], scored.scores[p]]));
    const ordinals = `{${positions.map((p) => scored.ordinals[p]).join(',')}}`;
    const rows = await queryRows<{ id: string; ordinal: number }>(
      db,
      sql`select c.id, c.ordinal from kb_chunks c where ${scopeWhere(scope)} and c.ordinal = any(${ordinals}::int[])`,
    );
    const hits = rows
      .map((r) => ({ id: r.id, ordinal: Number(r.ordinal), score: scoreOf.get(Number(r.ordinal)) ?? 0 }))
      .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    if (hits.length >= limit || positions.length >= scored.count) return hits.slice(0, limit);
  }
}

/** BM25 scores of the given chunks by ordinal (0 for a chunk without any query term). */
export async function keywordScores(db: DbOrTx, ordinals: number[], q: KeywordQuery): Promise<Map<number, number>> {
  const out = new Map<number, number>();
  if (ordinals.length === 0) return out;
  const lists = await weightedLists(db, q);
  for (const ordinal of ordinals) out.set(ordinal, scoreOne(lists, q.avgLength, ordinal));
  return out;
}
