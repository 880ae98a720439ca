import { and, eq, type SQL } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/errors';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import type { Db, DbOrTx } from '@/lib/db/client';
import { kbIndexStats, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { compileFilter } from '@/lib/search/filter';
import { keywordCandidates, keywordScores, prepareKeywordQuery } from '@/lib/search/keyword';
import { chunkDetails, vectorCandidates, vectorScores, type SearchScope } from '@/lib/search/query';
import { rerank, RerankError } from '@/lib/rerank';
import { fuseScores, type FusionMethod } from '@/lib/search/fusion';
import { toVectorLiteral } from '@/lib/search/vectors';
import { embedderFor, embeddingApiError } from './embedder';
import { findKnowledgeBase } from './service';

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 100;
export const DEFAULT_VECTOR_WEIGHT = 0.7;
export const DEFAULT_KEYWORD_WEIGHT = 0.3;
export const DEFAULT_FUSION: FusionMethod = 'min_max';
const CONTRACT_WEIGHTS = { vector_weight: DEFAULT_VECTOR_WEIGHT, keyword_weight: DEFAULT_KEYWORD_WEIGHT };
/** The built-in embedder is lexical too: its vectors mostly repeat what BM25 knows, so BM25 leads. */
const BUILTIN_WEIGHTS = { vector_weight: 0.15, keyword_weight: 0.85 };

export interface SearchInput {
  query: string;
  top_k: number;
  threshold?: number;
  filter?: Record<string, unknown>;
  /** Reorder the best `top_n` candidates with the configured reranker. */
  rerank?: boolean | { top_n?: number };
}

/** How many first-stage candidates a reranked search reorders when the request does not say. */
export const DEFAULT_RERANK_TOP_N = 20;

/** Candidates the first stage must find: top_k, or the reranked count when that is larger. */
function firstStageCount(input: SearchInput): number {
  if (!input.rerank) return input.top_k;
  const topN = typeof input.rerank === 'object' && input.rerank.top_n !== undefined ? input.rerank.top_n : DEFAULT_RERANK_TOP_N;
  return Math.min(MAX_TOP_K, Math.max(input.top_k, topN));
}

/**
 * The second stage: the first stage's candidates (best first) scored by the reranker and reordered
 * by rerank_score (ties keep their first-stage order), cut to top_k. Runs after the database
 * snapshot is released, so a slow reranker holds no transaction.
 */
async function rerankChunks<T extends { content: string }>(input: SearchInput, chunks: T[]): Promise<Array<T & { rerank_score?: number }>> {
  if (!input.rerank) return chunks;
  let scores: number[];
  try {
    scores = await rerank(input.query, chunks.map((c) => c.content));
  } catch (err) {
    if (err instanceof RerankError) throw new ApiError(err.code, err.message);
    throw err;
  }
  return chunks
    .map((c, i) => ({ chunk: { ...c, rerank_score: scores[i] }, i }))
    .sort((a, b) => b.chunk.rerank_score - a.chunk.rerank_score || a.i - b.i)
    .slice(0, input.top_k)
    .map((x) => x.chunk);
}

export interface HybridSearchInput extends SearchInput {
  /** Both or neither: when absent, the knowledge base's defaults (hybridDefaults). */
  vector_weight?: number;
  keyword_weight?: number;
  fusion?: FusionMethod;
  rrf_k?: number;
}

/** Fusion and weights of a hybrid search that names none: chosen by measurement (README, bench:retrieval). */
export function hybridDefaults(kb: Pick<KnowledgeBaseRow, 'embeddingProvider'>) {
  return { fusion: DEFAULT_FUSION, ...(kb.embeddingProvider === 'builtin' ? BUILTIN_WEIGHTS : CONTRACT_WEIGHTS) };
}

/**
 * Whether semantic search may go through the HNSW index for this knowledge base. The built-in
 * embedder's vectors are lexical: hashed features of texts that share a few words at most, so the
 * cosine similarities of unrelated chunks all sit close together and the index's graph finds only
 * a third of the true top 10 at 100k chunks, at any practical setting (bench:search). Those
 * knowledge bases are searched by an exact scan, which never misses. Hybrid search keeps the index
 * on its vector side: there BM25 leads and supplies candidates of its own.
 */
export function indexServesSemantic(kb: Pick<KnowledgeBaseRow, 'embeddingProvider'>): boolean {
  return kb.embeddingProvider !== 'builtin';
}

/** Similarity as a score in [0, 1]: cosine similarity, with opposite directions counted as 0. */
const clamp01 = (x: number) => (Number.isFinite(x) ? Math.min(1, Math.max(0, x)) : 0);

async function embedQuery(kb: KnowledgeBaseRow, query: string): Promise<string> {
  try {
    const [vector] = await embedderFor(kb).embed([query]);
    return toVectorLiteral(vector);
  } catch (err) {
    throw embeddingApiError(err);
  }
}

/**
 * Runs a search's queries on one snapshot, so a re-index swapping generations meanwhile cannot
 * leave it reading a generation that is gone.
 */
function inSnapshot<T>(db: Db, fn: (tx: DbOrTx) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx), { isolationLevel: 'repeatable read', accessMode: 'read only' });
}

/** The knowledge base's active generation and its size, read in one query. */
async function scopeOf(db: DbOrTx, kbId: string, conditions: SQL[]) {
  const [row] = await db
    .select({ kb: knowledgeBases, chunkTotal: kbIndexStats.chunkTotal })
    .from(knowledgeBases)
    .leftJoin(kbIndexStats, and(eq(kbIndexStats.kbId, knowledgeBases.id), eq(kbIndexStats.generation, knowledgeBases.generation)))
    .where(eq(knowledgeBases.id, kbId));
  if (!row) throw notFound('KNOWLEDGE_BASE_NOT_FOUND', 'Knowledge base', kbId);
  const scope: SearchScope = { kbId, generation: row.kb.generation, dimensions: row.kb.embeddingDimensions, conditions };
  const exact = Number(row.chunkTotal ?? 0) <= getConfig().knowledgeBases.exactSearchMaxChunks;
  return { scope, exact };
}

/**
 * The chunks of scored hits, in the hits' order, each with its document's title, file and
 * extraction, the file version and source item it was made from, its content and metadata, and the
 * hit's own scores. A chunk deleted meanwhile is left out.
 */
async function withDetails<H extends { id: string; score: number }>(db: DbOrTx, hits: H[]) {
  const details = await chunkDetails(
    db,
    hits.map((h) => h.id),
  );
  return hits
    .filter((h) => details.has(h.id))
    .map(({ id, ...scores }) => {
      const d = details.get(id)!;
      return {
        id,
        document_id: d.document_id,
        document_title: d.document_title,
        file_id: d.file_id,
        extraction_id: d.extraction_id,
        file_version: d.file_version,
        source_item: d.source ? { id: d.source.item_id, source_id: d.source.source_id, key: d.source.key, url: d.source.url } : null,
        content: d.content,
        ...scores,
        metadata: d.metadata,
      };
    });
}

/** Semantic search: the top_k chunks closest to the query by cosine similarity, at or above threshold. */
export async function searchKnowledgeBase(ctx: ServiceContext, kbId: string, input: SearchInput) {
  const filter = compileFilter(input.filter);
  const kb = await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  const vector = await embedQuery(kb, input.query);
  const found = await inSnapshot(ctx.db, async (db) => {
    const { scope, exact } = await scopeOf(db, kbId, filter.conditions);
    const hits = (await vectorCandidates(db, scope, vector, firstStageCount(input), { exact: exact || !indexServesSemantic(kb) }))
      .map((h) => ({ id: h.id, score: clamp01(h.score) }))
      .filter((h) => input.threshold === undefined || h.score >= input.threshold);
    return withDetails(db, hits);
  });
  const chunks = await rerankChunks(input, found);
  return { query: input.query, chunks, total: chunks.length };
}

/** How many candidates each side contributes before fusion. */
function candidateCount(topK: number): number {
  return Math.min(400, Math.max(50, topK * 4));
}

/**
 * Hybrid search: candidates from the vector side (cosine similarity) and the keyword side (BM25);
 * every candidate gets both scores, which are fused into `score` (lib/search/fusion.ts).
 * vector_score is the cosine similarity clamped to [0, 1]; keyword_score is BM25 divided by the
 * query's best BM25 score.
 */
export async function hybridSearchKnowledgeBase(ctx: ServiceContext, kbId: string, input: HybridSearchInput) {
  const filter = compileFilter(input.filter);
  const wanted = firstStageCount(input);
  const limit = candidateCount(wanted);
  const kb = await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  const defaults = hybridDefaults(kb);
  const weights =
    input.vector_weight !== undefined && input.keyword_weight !== undefined
      ? { vector_weight: input.vector_weight, keyword_weight: input.keyword_weight }
      : defaults;
  const fusion = input.fusion ?? defaults.fusion;
  const vector = weights.vector_weight > 0 ? await embedQuery(kb, input.query) : null;
  const found = await inSnapshot(ctx.db, async (db) => {
    const { scope, exact } = await scopeOf(db, kbId, filter.conditions);
    const keyword = weights.keyword_weight > 0 ? await prepareKeywordQuery(db, scope, input.query) : null;
    const vectorHits = vector ? await vectorCandidates(db, scope, vector, limit, { exact }) : [];
    const keywordHits = keyword ? await keywordCandidates(db, scope, keyword, limit) : [];
    const vectorById = new Map(vectorHits.map((h) => [h.id, h.score]));
    const keywordById = new Map(keywordHits.map((h) => [h.id, h.score]));
    const ids = [...new Set([...vectorById.keys(), ...keywordById.keys()])];
    const moreVector = vector ? await vectorScores(db, ids.filter((id) => !vectorById.has(id)), vector) : new Map<string, number>();
    const vectorOnly = vectorHits.filter((h) => !keywordById.has(h.id));
    const moreKeyword = keyword ? keywordScores(vectorOnly.map((h) => h.ordinal), keyword) : new Map<number, number>();
    for (const h of vectorOnly) keywordById.set(h.id, moreKeyword.get(h.ordinal) ?? 0);
    const candidates = ids.map((id) => ({
      id,
      vector: vector ? clamp01(vectorById.get(id) ?? moreVector.get(id) ?? 0) : null,
      keyword: keyword ? (keywordById.get(id) ?? 0) : null,
    }));
    const fused = fuseScores(candidates, { method: fusion, vectorWeight: weights.vector_weight, keywordWeight: weights.keyword_weight, rrfK: input.rrf_k });
    const best = keywordHits.length > 0 ? keywordHits[0].score : 0;
    const scored = candidates
      .filter((c) => fused.has(c.id))
      .map((c) => ({
        id: c.id,
        score: fused.get(c.id)!,
        vector_score: c.vector ?? 0,
        keyword_score: best > 0 && c.keyword ? clamp01(c.keyword / best) : 0,
      }))
      .filter((h) => (fusion === 'weighted' ? h.score > 0 : true) && (input.threshold === undefined || h.score >= input.threshold))
      .sort((a, b) => b.score - a.score || b.keyword_score - a.keyword_score || b.vector_score - a.vector_score || (a.id < b.id ? -1 : 1))
      .slice(0, wanted);
    return withDetails(db, scored);
  });
  const chunks = await rerankChunks(input, found);
  return { query: input.query, chunks, total: chunks.length };
}
