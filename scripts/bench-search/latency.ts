// Search latency: every query through HTTP, the service functions and the bare lib/search SQL.
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { hybridSearchKnowledgeBase, searchKnowledgeBase } from '@/lib/knowledge-bases/search';
import { toVectorLiteral } from '@/lib/search/vectors';
import type { RunningServer } from '../lib/run-server.mjs';
import { progress, Timings } from './common';
import { ADMIN_KEY, KEYWORD_WEIGHT, TOP_K, VECTOR_WEIGHT } from './config';
import { serviceContext } from './database';
import { createSearchKey, request } from './server';
import { sqlHybrid, sqlKeyword, sqlSemantic, type SqlContext } from './sql-search';

export const VARIANTS = [
  'HTTP semantic',
  'HTTP hybrid',
  'HTTP keyword',
  'HTTP semantic, db key',
  'HTTP GET /health',
  'service semantic',
  'service hybrid',
  'SQL semantic',
  'SQL hybrid',
  'SQL keyword',
] as const;
export type Variant = (typeof VARIANTS)[number];

/**
 * Every query through every variant, in an order rotating per query so caches favour none of
 * them. "db key" uses a database-stored API key instead of QUARRY_ADMIN_KEY (one more lookup and
 * the rate-limit counter write per request); GET /health is the bare HTTP round trip.
 */
export async function measureSearches(
  server: RunningServer | null,
  sqlContext: SqlContext,
  embedder: EmbeddingProvider,
  queries: string[],
  warmup: number,
  only: readonly Variant[] = VARIANTS,
): Promise<{ timings: Timings; results: Map<Variant, number> }> {
  const { kb, timings } = sqlContext;
  const ctx = serviceContext(sqlContext.db);
  const results = new Map<Variant, number>();
  const searchKey = server && only.includes('HTTP semantic, db key') ? await createSearchKey(server) : '';
  const http = () => {
    if (!server) throw new Error('HTTP variants need the server');
    return server;
  };
  const total = (r: Record<string, unknown>) => Number(r.total ?? 0);
  const run: Record<Variant, (q: string, vector: string) => Promise<number>> = {
    'HTTP semantic': async (q) => total(await request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/search`, ADMIN_KEY, { query: q, top_k: TOP_K })),
    'HTTP hybrid': async (q) =>
      total(await request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/hybrid-search`, ADMIN_KEY, { query: q, top_k: TOP_K })),
    'HTTP keyword': async (q) =>
      total(
        await request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/hybrid-search`, ADMIN_KEY, { query: q, top_k: TOP_K, vector_weight: 0, keyword_weight: 1 }),
      ),
    'HTTP semantic, db key': async (q) =>
      total(await request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/search`, searchKey, { query: q, top_k: TOP_K })),
    'HTTP GET /health': async () => (await request(http(), 'GET', '/health', null), 0),
    'service semantic': async (q) => (await searchKnowledgeBase(ctx, kb.id, { query: q, top_k: TOP_K })).total,
    'service hybrid': async (q) =>
      (await hybridSearchKnowledgeBase(ctx, kb.id, { query: q, top_k: TOP_K, vector_weight: VECTOR_WEIGHT, keyword_weight: KEYWORD_WEIGHT })).total,
    'SQL semantic': (_q, vector) => sqlSemantic(sqlContext, vector),
    'SQL hybrid': (q, vector) => sqlHybrid(sqlContext, q, vector),
    'SQL keyword': (q) => sqlKeyword(sqlContext, q),
  };
  for (let i = 0; i < queries.length; i++) {
    const measured = i >= warmup;
    const [embedded] = await embedder.embed([queries[i]]);
    const vector = toVectorLiteral(embedded);
    for (let k = 0; k < only.length; k++) {
      const variant = only[(i + k) % only.length];
      sqlContext.prefix = measured ? `${variant}: ` : null;
      const found = await timings.time(measured ? variant : null, () => run[variant](queries[i], vector));
      if (measured) results.set(variant, (results.get(variant) ?? 0) + found);
    }
    if (measured && (i - warmup + 1) % 20 === 0) progress(`${i - warmup + 1}/${queries.length - warmup} queries`);
  }
  progress(null);
  sqlContext.prefix = null;
  return { timings, results };
}

/** Queries made only of common words (ranks 20–300, stop words left out): the worst case of keyword search. */
export const COMMON_VARIANTS = ['HTTP keyword, common words', 'HTTP hybrid, common words', 'SQL keyword, common words'] as const;

export async function measureCommonWords(
  server: RunningServer | null,
  sqlContext: SqlContext,
  queries: string[],
  warmup: number,
  only: readonly (typeof COMMON_VARIANTS)[number][] = COMMON_VARIANTS,
): Promise<void> {
  const { kb, timings } = sqlContext;
  const http = () => {
    if (!server) throw new Error('HTTP variants need the server');
    return server;
  };
  const run: Record<(typeof COMMON_VARIANTS)[number], (q: string) => Promise<unknown>> = {
    'HTTP keyword, common words': (q) =>
      request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/hybrid-search`, ADMIN_KEY, { query: q, top_k: TOP_K, vector_weight: 0, keyword_weight: 1 }),
    'HTTP hybrid, common words': (q) => request(http(), 'POST', `/v1/knowledge-bases/${kb.id}/hybrid-search`, ADMIN_KEY, { query: q, top_k: TOP_K }),
    'SQL keyword, common words': (q) => sqlKeyword(sqlContext, q),
  };
  for (let i = 0; i < queries.length; i++) {
    const measured = i >= warmup;
    for (let k = 0; k < only.length; k++) {
      const variant = only[(i + k) % only.length];
      await timings.time(measured ? variant : null, () => run[variant](queries[i]));
    }
  }
}
