// Query plans: EXPLAIN ANALYZE of the exact SQL the lib/search functions run.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { keywordCandidates, prepareKeywordQuery, type KeywordQuery } from '@/lib/search/keyword';
import { vectorCandidates, type SearchScope } from '@/lib/search/query';
import { toVectorLiteral, vectorIndexName } from '@/lib/search/vectors';
import { fmt, int } from './common';
import { DIMENSIONS, SEED, TOP_K } from './config';
import { makeQueries, prng, STOPWORDS, type Vocabulary } from './corpus';

/** A handle that records every statement the lib functions run through it (inside their transactions too). */
export function recording(db: DbOrTx, log: SQL[]): DbOrTx {
  return new Proxy(db, {
    get(target, prop) {
      if (prop === 'execute') {
        return (query: SQL) => {
          log.push(query);
          return (target as Db).execute(query);
        };
      }
      if (prop === 'transaction') {
        return (fn: (tx: DbOrTx) => Promise<unknown>, config?: unknown) =>
          (target as Db).transaction((tx) => fn(recording(tx, log)), config as never);
      }
      const value = Reflect.get(target, prop, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}

/** Runs the recorded statements again in one transaction, the last one under EXPLAIN (ANALYZE, BUFFERS). */
async function explainRecorded(db: Db, statements: SQL[]): Promise<string[]> {
  return db.transaction(async (tx) => {
    for (const statement of statements.slice(0, -1)) await tx.execute(statement);
    const rows = await queryRows<{ 'QUERY PLAN': string }>(tx, sql`explain (analyze, buffers) ${statements[statements.length - 1]}`);
    return rows.map((r) => r['QUERY PLAN']);
  });
}

/** The plan of whatever the function runs last, with the function's own SQL. */
async function explainCall(db: Db, fn: (handle: DbOrTx) => Promise<unknown>): Promise<string[]> {
  const log: SQL[] = [];
  await fn(recording(db, log));
  return explainRecorded(db, log);
}

function planSummary(plan: string[]): { indexes: string[]; executionMs: string; rows: string } {
  const indexes = new Set<string>();
  for (const line of plan) {
    const m = /(?:Index Scan|Index Only Scan|Bitmap Index Scan) (?:Backward )?(?:using|on) (\S+)/.exec(line);
    if (m) indexes.add(m[1]);
  }
  const executionMs = /Execution Time: ([\d.]+) ms/.exec(plan.join('\n'))?.[1] ?? '?';
  const scan = plan.find((line) => /(?:Seq Scan|Bitmap Heap Scan) on kb_chunks/.test(line)) ?? '';
  const rows = /actual time=[\d.]+\.\.[\d.]+ rows=(\d+)/.exec(scan)?.[1] ?? '-';
  return { indexes: [...indexes], executionMs, rows };
}

/**
 * The query plans section, printed: vectorCandidates for a sampled query, keywordCandidates for
 * frequent, middle and rare words and the sampled query, and the slowest keyword plan in full.
 */
export async function reportQueryPlans(db: Db, vocabulary: Vocabulary, embedder: EmbeddingProvider, scope: SearchScope, exact: boolean): Promise<void> {
  console.log('\nQuery plans (EXPLAIN ANALYZE of the lib/search SQL):');
  const sampled = makeQueries(vocabulary, 1, prng(SEED + 2))[0];
  const sampleVector = toVectorLiteral((await embedder.embed([sampled]))[0]);
  const semanticPlan = await explainCall(db, (h) => vectorCandidates(h, scope, sampleVector, TOP_K, { exact }));
  const s = planSummary(semanticPlan);
  console.log(
    `  vectorCandidates top ${TOP_K} ("${sampled}"): index ${s.indexes.join(', ') || 'none'} ` +
      `(${s.indexes.includes(vectorIndexName(DIMENSIONS)) ? 'HNSW used' : 'HNSW NOT used'}), execution ${s.executionMs} ms`,
  );
  const keywordPlans: [string, string][] = [
    ['frequent words', vocabulary.words.slice(STOPWORDS.length, STOPWORDS.length + 3).join(' ')],
    ['middle words', vocabulary.words.slice(1000, 1003).join(' ')],
    ['rare words', vocabulary.words.slice(15_000, 15_003).join(' ')],
    ['sampled query', sampled],
  ];
  let worstPlan: string[] = [];
  let worstMs = -1;
  for (const [label, q] of keywordPlans) {
    const keyword = (await prepareKeywordQuery(db, scope, q)) as KeywordQuery;
    if (!keyword) continue;
    const started = performance.now();
    await keywordCandidates(db, scope, { ...keyword }, 50);
    const totalMs = performance.now() - started;
    // The last statement is the lookup of the best chunks by ordinal; the postings read before it.
    const p = await explainCall(db, (h) => keywordCandidates(h, scope, { ...keyword }, 50));
    const k = planSummary(p);
    const postings = keyword.terms.reduce((n, t) => n + t.df, 0);
    console.log(
      `  keywordCandidates top 50, ${label} ("${q}"): ${int(postings)} postings read and scored, ${fmt(totalMs, 2)} ms in all; ` +
        `lookup of the best by ordinal: index ${k.indexes.join(', ') || 'none'}, execution ${k.executionMs} ms`,
    );
    if (Number(k.executionMs) > worstMs) {
      worstMs = Number(k.executionMs);
      worstPlan = p;
    }
  }
  console.log('  slowest lookup plan:');
  for (const line of worstPlan) console.log(`    ${line}`);
}
