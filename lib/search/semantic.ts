import { sql } from 'drizzle-orm';
import { queryRows, type DbOrTx } from '@/lib/db/client';
import { prepareKeywordQuery } from './keyword';
import { bestPositions, lexicalScorer, scoreAll } from './postings';
import { scopeWhere, vectorCandidates, type ScoredChunk, type SearchScope } from './query';

/*
 * Semantic search's candidates. Small knowledge bases are scanned exactly. Larger ones go through
 * the HNSW index, which finds near neighbours well for language-model embeddings. The built-in
 * embedder's vectors are lexical (hashed words, word pairs and character n-grams): unrelated
 * chunks all sit at about the same small distance, and the graph finds well under half of the true
 * top 10 at 100k chunks (bench:search). The nearest lexical vectors are the chunks that share the
 * query's words, though, and those are in the keyword postings: for built-in knowledge bases the
 * chunks ranked best by an estimate of the lexical cosine (lib/search/postings.ts, lexicalScorer)
 * join the index's candidates, and every candidate is scored by its exact cosine similarity.
 */

/** How many chunks the postings estimate nominates for exact scoring. */
const lexicalPool = (limit: number) => Math.max(200, 10 * limit);

export async function semanticCandidates(
  db: DbOrTx,
  scope: SearchScope,
  query: { text: string; vector: string },
  limit: number,
  opts: { exact: boolean; lexical: boolean },
): Promise<ScoredChunk[]> {
  const hits = await vectorCandidates(db, scope, query.vector, limit, { exact: opts.exact });
  // A query without words has no direction and finds nothing (vectorCandidates).
  if (opts.exact || !opts.lexical || !/[1-9]/.test(query.vector)) return hits;
  const keyword = await prepareKeywordQuery(db, scope, query.text);
  if (!keyword) return hits;
  const scored = scoreAll(
    keyword.lists.map(({ list }) => ({ list, weight: 1 })),
    lexicalScorer,
  );
  const found = new Set(hits.map((h) => h.ordinal));
  const nominated = bestPositions(scored, lexicalPool(limit))
    .map((p) => scored.ordinals[p])
    .filter((o) => !found.has(o));
  if (nominated.length === 0) return hits;
  const rows = await queryRows<{ id: string; ordinal: number; distance: number }>(
    db,
    sql`select c.id, c.ordinal, (c.embedding <=> ${query.vector}::vector) as distance from kb_chunks c
        where ${scopeWhere(scope)} and c.ordinal = any(${`{${nominated.join(',')}}`}::int[])`,
  );
  return [...hits, ...rows.map((r) => ({ id: r.id, ordinal: Number(r.ordinal), score: 1 - Number(r.distance) }))]
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
