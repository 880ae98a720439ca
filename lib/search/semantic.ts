import type { DbOrTx } from '@/lib/db/client';
import { keywordCandidates, prepareKeywordQuery } from './keyword';
import { vectorCandidates, vectorScores, type ScoredChunk, type SearchScope } from './query';

/*
 * Semantic search's candidates. Small knowledge bases are scanned exactly. Larger ones go through
 * the HNSW index, which finds near neighbours well for language-model embeddings. The built-in
 * embedder's vectors are lexical (hashed words and character n-grams): unrelated chunks all sit at
 * a similar small distance, and the graph finds only a third of the true top 10 at 100k chunks.
 * Their true neighbours share the query's words, though, so for lexical vectors the chunks that
 * BM25 ranks best join the index's candidates and every candidate's cosine similarity is computed
 * exactly (bench:search prints the recall against an exact scan).
 */

/** Chunks BM25 contributes for lexical vectors. */
const lexicalCandidates = (limit: number) => Math.max(100, 4 * limit);

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
  const found = new Set(hits.map((h) => h.id));
  const more = (await keywordCandidates(db, scope, keyword, lexicalCandidates(limit))).filter((h) => !found.has(h.id));
  const scores = await vectorScores(
    db,
    more.map((h) => h.id),
    query.vector,
  );
  return [...hits, ...more.map((h) => ({ id: h.id, ordinal: h.ordinal, score: scores.get(h.id) ?? 0 }))]
    .sort((a, b) => b.score - a.score || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .slice(0, limit);
}
