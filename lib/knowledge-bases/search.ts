import { and, eq, type SQL } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import type { Db, DbOrTx } from '@/lib/db/client';
import { kbIndexStats, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { compileFilter } from '@/lib/search/filter';
import {
  chunkDetails,
  keywordCandidates,
  keywordScores,
  prepareKeywordQuery,
  vectorCandidates,
  vectorScores,
  type SearchScope,
} from '@/lib/search/query';
import { toVectorLiteral } from '@/lib/search/vectors';
import { embedderFor, embeddingApiError } from './embedder';
import { findKnowledgeBase } from './service';

export const DEFAULT_TOP_K = 5;
export const MAX_TOP_K = 100;
export const DEFAULT_VECTOR_WEIGHT = 0.7;
export const DEFAULT_KEYWORD_WEIGHT = 0.3;

export interface SearchInput {
  query: string;
  top_k: number;
  threshold?: number;
  filter?: Record<string, unknown>;
}

export interface HybridSearchInput extends SearchInput {
  vector_weight: number;
  keyword_weight: number;
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

/** Semantic search: the top_k chunks closest to the query by cosine similarity, at or above threshold. */
export async function searchKnowledgeBase(ctx: ServiceContext, kbId: string, input: SearchInput) {
  const filter = compileFilter(input.filter);
  const vector = await embedQuery(await findKnowledgeBase(ctx.db, kbId), input.query);
  return inSnapshot(ctx.db, async (db) => {
    const { scope, exact } = await scopeOf(db, kbId, filter.conditions);
    const hits = (await vectorCandidates(db, scope, vector, input.top_k, { exact }))
      .map((h) => ({ id: h.id, score: clamp01(h.score) }))
      .filter((h) => input.threshold === undefined || h.score >= input.threshold);
    const details = await chunkDetails(
      db,
      hits.map((h) => h.id),
    );
    const chunks = hits
      .filter((h) => details.has(h.id))
      .map((h) => {
        const d = details.get(h.id)!;
        return { id: h.id, document_id: d.document_id, document_title: d.document_title, content: d.content, score: h.score, metadata: d.metadata };
      });
    return { query: input.query, chunks, total: chunks.length };
  });
}

/** How many candidates each side contributes before fusion. */
function candidateCount(topK: number): number {
  return Math.min(400, Math.max(50, topK * 4));
}

/**
 * Hybrid search: candidates from the vector side (cosine similarity) and the keyword side (BM25);
 * every candidate gets both scores; vector_score is the cosine similarity clamped to [0, 1] and
 * keyword_score is BM25 divided by the best BM25 score of the query, so both lie in [0, 1];
 * score = vector_weight·vector_score + keyword_weight·keyword_score.
 */
export async function hybridSearchKnowledgeBase(ctx: ServiceContext, kbId: string, input: HybridSearchInput) {
  const filter = compileFilter(input.filter);
  const limit = candidateCount(input.top_k);
  const vector = input.vector_weight > 0 ? await embedQuery(await findKnowledgeBase(ctx.db, kbId), input.query) : null;
  return inSnapshot(ctx.db, async (db) => {
    const { scope, exact } = await scopeOf(db, kbId, filter.conditions);
    const keyword = input.keyword_weight > 0 ? await prepareKeywordQuery(db, scope, input.query) : null;
    const vectorHits = vector ? await vectorCandidates(db, scope, vector, limit, { exact }) : [];
    const keywordHits = keyword ? await keywordCandidates(db, scope, keyword, limit) : [];
    const vectorById = new Map(vectorHits.map((h) => [h.id, h.score]));
    const keywordById = new Map(keywordHits.map((h) => [h.id, h.score]));
    const ids = [...new Set([...vectorById.keys(), ...keywordById.keys()])];
    const moreVector = vector ? await vectorScores(db, ids.filter((id) => !vectorById.has(id)), vector) : new Map<string, number>();
    const moreKeyword = keyword ? await keywordScores(db, ids.filter((id) => !keywordById.has(id)), keyword) : new Map<string, number>();
    const best = keywordHits.length > 0 ? keywordHits[0].score : 0;
    const scored = ids
      .map((id) => {
        const vectorScore = clamp01(vectorById.get(id) ?? moreVector.get(id) ?? 0);
        const rawKeyword = keywordById.get(id) ?? moreKeyword.get(id) ?? 0;
        const keywordScore = best > 0 ? clamp01(rawKeyword / best) : 0;
        const score = clamp01(input.vector_weight * vectorScore + input.keyword_weight * keywordScore);
        return { id, score, vector_score: vectorScore, keyword_score: keywordScore };
      })
      .filter((h) => h.score > 0 && (input.threshold === undefined || h.score >= input.threshold))
      .sort((a, b) => b.score - a.score || b.keyword_score - a.keyword_score || (a.id < b.id ? -1 : 1))
      .slice(0, input.top_k);
    const details = await chunkDetails(
      db,
      scored.map((h) => h.id),
    );
    const chunks = scored
      .filter((h) => details.has(h.id))
      .map((h) => {
        const d = details.get(h.id)!;
        return {
          id: h.id,
          document_id: d.document_id,
          document_title: d.document_title,
          content: d.content,
          score: h.score,
          vector_score: h.vector_score,
          keyword_score: h.keyword_score,
          metadata: d.metadata,
        };
      });
    return { query: input.query, chunks, total: chunks.length };
  });
}
