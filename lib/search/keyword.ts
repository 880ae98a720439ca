import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { analyze } from './analyze';
import { postingsCache } from './postings-cache';
import { BM25_K1, bestPositions, driverBytes, POSTING_BYTES, postingListOfBlocks, scoreAll, scoreOne, type PostingList, type WeightedList } from './postings';
import { scopeWhere, type ScoredChunk, type SearchScope } from './query';

/*
 * Keyword search: exact Okapi BM25 over the knowledge base's own statistics (kb_index_stats: N
 * and the total length; a term's document frequency is its number of postings),
 *   score = Σ_t idf(t) · tf·(k1+1) / (tf + k1·(1 − b + b·len/avglen)),
 *   idf(t) = ln(1 + (N − df + 0.5) / (df + 0.5)),
 * computed from the query terms' postings (lib/search/postings.ts). Reading a term's postings
 * costs 6 bytes per chunk holding it, so a query of words found in a fifth of 100k chunks reads
 * about 120 KB per word and scores every such chunk in a few milliseconds, where reading each
 * chunk's row would cost a second. The best chunks are then looked up by ordinal, with the
 * search's filters; when filters leave too few, more of the ranked chunks are checked.
 * Decoded postings of recent query terms stay in memory until the generation changes
 * (lib/search/postings-cache.ts).
 */

/** An integer array as the driver returns it (an array, or PostgreSQL's text form `{1,2}`). */
function intArray(value: unknown): number[] {
  if (Array.isArray(value)) return value.map(Number);
  if (typeof value === 'string') return value.replace(/[{}]/g, '').split(',').filter(Boolean).map(Number);
  throw new Error(`Expected an integer array, got ${typeof value}`);
}

export { BM25_B, BM25_K1 } from './postings';

export interface KeywordTerm {
  term: string;
  idf: number;
  df: number;
}

export interface KeywordQuery {
  /** Distinct query terms found in the knowledge base, rarest first, with their IDF. */
  terms: KeywordTerm[];
  /** Their postings, in the same order, each with its weight idf·(k1+1). */
  lists: WeightedList[];
  avgLength: number;
}

/**
 * Analyses the query and reads what BM25 needs: the generation's size and average length, and the
 * query terms' postings (a term's document frequency is its number of postings). Null when no
 * term occurs in the knowledge base.
 *
 * A query reads at most `maxPostings` postings (memory and time stay bounded whatever it holds:
 * 256 words each found in a million chunks would otherwise be 256 million). When its words could
 * hold more (their number times the chunk count), their frequencies are read first and the most
 * common words beyond the budget are left out: they weigh least in BM25.
 */
export async function prepareKeywordQuery(
  db: DbOrTx,
  scope: SearchScope,
  query: string,
  opts: { maxPostings?: number } = {},
): Promise<KeywordQuery | null> {
  const maxPostings = opts.maxPostings ?? MAX_POSTINGS_PER_QUERY;
  let distinct = [...new Set(analyze(query))].slice(0, 256);
  if (distinct.length === 0) return null;
  const [stats] = await queryRows<{ chunk_total: string | number; term_total: string | number; next_ordinal: string | number }>(
    db,
    sql`select chunk_total, term_total, next_ordinal from kb_index_stats where kb_id = ${scope.kbId} and generation = ${scope.generation}`,
  );
  const n = Number(stats?.chunk_total ?? 0);
  if (n === 0) return null;
  if (distinct.length * n > maxPostings) distinct = await withinBudget(db, scope, distinct, maxPostings);
  const cache = postingsCache();
  const version = { kbId: scope.kbId, generation: scope.generation, nextOrdinal: Number(stats.next_ordinal), chunkTotal: n };
  const lists = new Map<string, PostingList>();
  for (const term of distinct) {
    const cached = cache?.get(version, term);
    if (cached) lists.set(term, cached);
  }
  const missing = distinct.filter((t) => !lists.has(t));
  if (missing.length > 0) {
    // One row per term: its blocks joined in order, with their keys and sizes (fewer rows for the driver to read).
    const rows = await queryRows<{ term: string; blocks: unknown; counts: unknown; data: Uint8Array | string }>(
      db,
      sql`select term, array_agg(block order by block) as blocks, array_agg(length(data) / ${POSTING_BYTES} order by block) as counts,
                 string_agg(data, ''::bytea order by block) as data
          from kb_postings where kb_id = ${scope.kbId} and generation = ${scope.generation}
          and term in (${sql.join(missing.map((t) => sql`${t}`), sql`, `)}) group by term`,
    );
    const read = new Map<string, PostingList>();
    for (const r of rows) {
      read.set(r.term, postingListOfBlocks(intArray(r.blocks), intArray(r.counts), driverBytes(r.data)));
    }
    for (const term of missing) {
      // A term without postings is kept too (as empty), so asking again costs nothing.
      const list = read.get(term) ?? postingListOfBlocks([], [], new Uint8Array(0));
      cache?.set(version, term, list);
      lists.set(term, list);
    }
  }
  const found = [...lists]
    .map(([term, list]) => ({ term, df: list.count, idf: Math.log(1 + (n - list.count + 0.5) / (list.count + 0.5)), list }))
    .filter((t) => t.df > 0)
    .sort((a, b) => b.idf - a.idf || (a.term < b.term ? -1 : 1));
  if (found.length === 0) return null;
  return {
    terms: found.map(({ term, df, idf }) => ({ term, df, idf })),
    lists: found.map((t) => ({ list: t.list, weight: t.idf * (BM25_K1 + 1) })),
    avgLength: Math.max(1, Number(stats.term_total) / n),
  };
}

/** Postings one query may read: 5 million, about 40 MB decoded. */
export const MAX_POSTINGS_PER_QUERY = 5_000_000;

/** The rarest of the terms whose postings together stay within the budget (always the rarest one; terms absent from the index cost nothing). */
async function withinBudget(db: DbOrTx, scope: SearchScope, terms: string[], maxPostings: number): Promise<string[]> {
  const rows = await queryRows<{ term: string; df: string | number }>(
    db,
    sql`select term, sum(length(data)) / ${POSTING_BYTES} as df from kb_postings
        where kb_id = ${scope.kbId} and generation = ${scope.generation}
        and term in (${sql.join(terms.map((t) => sql`${t}`), sql`, `)}) group by term`,
  );
  const kept: string[] = [];
  let total = 0;
  for (const r of rows.map((x) => ({ term: x.term, df: Number(x.df) })).sort((a, b) => a.df - b.df || (a.term < b.term ? -1 : 1))) {
    if (total + r.df > maxPostings && kept.length > 0) break;
    total += r.df;
    kept.push(r.term);
  }
  return kept;
}

/** How many of the ranked chunks the first lookup checks: enough for the limit when filters remove a few. */
const firstLookup = (limit: number) => Math.max(2 * limit, 20);

/**
 * The `limit` chunks with the highest BM25 score, best first (ties by chunk id): every chunk
 * holding a query term is scored from the postings, then the best are looked up with the
 * search's conditions, checking eight times as many each round until `limit` pass or none are left.
 */
export async function keywordCandidates(db: DbOrTx, scope: SearchScope, q: KeywordQuery, limit: number): Promise<ScoredChunk[]> {
  if (limit <= 0) return [];
  const scored = scoreAll(q.lists, q.avgLength);
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
export function keywordScores(ordinals: number[], q: KeywordQuery): Map<number, number> {
  const out = new Map<number, number>();
  for (const ordinal of ordinals) out.set(ordinal, scoreOne(q.lists, q.avgLength, ordinal));
  return out;
}
