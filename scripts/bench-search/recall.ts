// HNSW recall against an exact scan over a sweep of ef_search values, and how spread out the
// embeddings are.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db } from '@/lib/db/client';
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { vectorCandidates } from '@/lib/search/query';
import { indexServesSemantic } from '@/lib/knowledge-bases/search';
import { toVectorLiteral } from '@/lib/search/vectors';
import { fmt, percentile } from './common';
import { RECALL_QUERIES, TOP_K } from './config';
import { recording } from './plans';
import type { SqlContext } from './sql-search';

/** hnsw.ef_search values tried; vectorCandidates itself uses max(100, 2 × limit): 100 for top 10 and for hybrid's 50 candidates. */
const EF_SEARCH_SWEEP = [40, 100, 200, 400];

interface RecallRow {
  efSearch: number;
  recall: number;
  p50: number;
}

/**
 * Share of the exact top 10 (an exact scan, as vectorCandidates runs it for small knowledge
 * bases) that the HNSW query finds, for several ef_search values: vectorCandidates' own HNSW SQL
 * is recorded and run again with only the ef_search setting changed.
 */
async function hnswRecall(
  c: SqlContext,
  embedder: EmbeddingProvider,
  queries: string[],
): Promise<{ rows: RecallRow[]; exactMs: number[]; served: { recall: number; p50: number; p99: number } }> {
  const exactMs: number[] = [];
  const servedMs: number[] = [];
  let servedFound = 0;
  const found = new Map<number, number>(EF_SEARCH_SWEEP.map((ef) => [ef, 0]));
  const latency = new Map<number, number[]>(EF_SEARCH_SWEEP.map((ef) => [ef, []]));
  let total = 0;
  for (const q of queries) {
    const vector = toVectorLiteral((await embedder.embed([q]))[0]);
    const started = performance.now();
    const exact = await vectorCandidates(c.db, c.scope, vector, TOP_K, { exact: true });
    exactMs.push(performance.now() - started);
    total += exact.length;
    // Semantic search's candidates as the service finds them for this knowledge base (its size is over the exact-scan limit).
    const t1 = performance.now();
    const served = await c.db.transaction((tx) => vectorCandidates(tx, c.scope, vector, TOP_K, { exact: c.exact || !indexServesSemantic(c.kb) }));
    servedMs.push(performance.now() - t1);
    const servedIds = new Set(served.map((h) => h.id));
    servedFound += exact.filter((h) => servedIds.has(h.id)).length;
    const log: SQL[] = [];
    await vectorCandidates(recording(c.db, log), c.scope, vector, TOP_K, { exact: false });
    const [, ...rest] = log;
    for (const ef of EF_SEARCH_SWEEP) {
      const t0 = performance.now();
      const rows = await c.db.transaction(async (tx) => {
        await tx.execute(sql.raw(`set local hnsw.ef_search = ${ef}`));
        for (const statement of rest.slice(0, -1)) await tx.execute(statement);
        return queryRows<{ id: string }>(tx, rest[rest.length - 1]);
      });
      latency.get(ef)!.push(performance.now() - t0);
      const ids = new Set(rows.map((r) => r.id));
      found.set(ef, found.get(ef)! + exact.filter((h) => ids.has(h.id)).length);
    }
  }
  const rows = EF_SEARCH_SWEEP.map((ef) => ({ efSearch: ef, recall: total === 0 ? NaN : found.get(ef)! / total, p50: percentile(latency.get(ef)!, 50) }));
  const served = { recall: total === 0 ? NaN : servedFound / total, p50: percentile(servedMs, 50), p99: percentile(servedMs, 99) };
  return { rows, exactMs, served };
}

/**
 * Mean cosine similarity of 200 × 200 chunk pairs. Unrelated texts should be near 0; a large mean
 * says every vector shares one direction, which leaves HNSW little to navigate by.
 */
async function meanPairSimilarity(db: Db): Promise<number> {
  const [row] = await queryRows<{ mean: number }>(
    db,
    sql`select avg(1 - (a.embedding <=> b.embedding)) as mean
        from (select embedding from kb_chunks order by md5(id) limit 200) a
        cross join (select embedding from kb_chunks order by md5(id || 'b') limit 200) b`,
  );
  return Number(row.mean);
}

/** The HNSW recall section, printed. */
export async function reportRecall(sqlContext: SqlContext, embedder: EmbeddingProvider, recallQueries: string[]): Promise<void> {
  const { db } = sqlContext;
  const recall = await hnswRecall(sqlContext, embedder, recallQueries);
  console.log(`\nHNSW recall@${TOP_K} against an exact scan (${RECALL_QUERIES} queries; exact scan p50 ${fmt(percentile(recall.exactMs, 50), 2)} ms)`);
  for (const r of recall.rows) {
    console.log(`  ef_search ${String(r.efSearch).padStart(3)}: recall ${fmt(r.recall * 100).padStart(5)}%, p50 ${fmt(r.p50, 2)} ms${r.efSearch === 100 ? ' (what top_k 10 uses)' : ''}`);
  }
  const how = sqlContext.exact || !indexServesSemantic(sqlContext.kb) ? 'an exact scan' : 'the HNSW index';
  console.log(
    `  semantic search as served (${sqlContext.kb.embeddingProvider} embedder, ${how}): ` +
      `recall ${fmt(recall.served.recall * 100)}% (goal >= 95%: ${recall.served.recall >= 0.95 ? 'met' : 'NOT met'}), ` +
      `p50 ${fmt(recall.served.p50, 2)} ms, p99 ${fmt(recall.served.p99, 2)} ms`,
  );
  console.log(`  mean cosine similarity of random chunk pairs: ${fmt(await meanPairSimilarity(db), 3)}`);
}
