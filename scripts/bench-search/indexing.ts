// Indexing throughput: a bulk load with the HNSW index dropped (keyword postings are written with the chunks), the index build, then
// per-document indexing through the production path with the index in place, and the background run that puts those chunks into the index.
import os from 'node:os';
import { eq, sql } from 'drizzle-orm';
import { queryRows, type Db, type DbOrTx } from '@/lib/db/client';
import { kbDocuments, knowledgeBases, type KnowledgeBaseRow } from '@/lib/db/schema';
import { runDocumentIndexing } from '@/lib/knowledge-bases/indexing';
import { embedderRecipeOf } from '@/lib/knowledge-bases/embedder';
import type { ChunkSource } from '@/lib/knowledge-bases/prepare';
import { withPreparer } from '@/lib/knowledge-bases/preparer';
import { insertChunks } from '@/lib/knowledge-bases/store';
import { vectorCandidates } from '@/lib/search/query';
import { indexVectorBacklog, pendingVectorCount } from '@/lib/search/vector-backlog';
import { ensureVectorIndex, vectorIndexName } from '@/lib/search/vectors';
import { fmt, int, pool, progress, seconds, verdict } from './common';
import { CONCURRENCY, DIMENSIONS, MAINTENANCE_WORK_MEM, PGLITE } from './config';
import { cpuBetween, cpuSnapshot } from './cpu';
import { markdownOf, serviceContext, type Seeded } from './database';

interface LoadResult {
  chunks: number;
  wallMs: number;
  /** Summed wall time of the storing transactions (they wait for each other's row lock and for the event loop). */
  storeMs: number;
  /** Summed wall time of the preparing (chunk, embed, analyse) in the indexing threads. */
  prepareMs: number;
  tokens: number;
  terms: number;
}

/**
 * Indexes documents as the pipeline does — Markdown read, chunks prepared (chunk, embed, analyse)
 * in the server's indexing threads outside any transaction, then insertChunks in a transaction
 * holding the knowledge base's row lock that also marks the document indexed — timing each step.
 */
async function bulkLoad(db: Db, kb: KnowledgeBaseRow, documents: Seeded['documents']): Promise<LoadResult> {
  const result: LoadResult = { chunks: 0, wallMs: 0, storeMs: 0, prepareMs: 0, tokens: 0, terms: 0 };
  const started = performance.now();
  let done = 0;
  await pool(documents, CONCURRENCY, async (doc) => {
    const { markdown, document } = await markdownOf(db, doc.id);
    await withPreparer(async (preparer) => {
      const t1 = performance.now();
      const [prepared] = await preparer.prepare({ markdown, document, strategies: [kb.chunkingStrategy], embedder: embedderRecipeOf(kb), metadata: doc.metadata });
      const t2 = performance.now();
      result.prepareMs += t2 - t1;
      const source: ChunkSource = {
        ...prepared,
        rows: async (start, count) => {
          const rows = await prepared.rows(start, count);
          for (const c of rows) {
            result.tokens += c.tokenCount;
            result.terms += c.termCount;
          }
          return rows;
        },
      };
      await db.transaction(async (tx) => {
        await tx.select({ id: knowledgeBases.id }).from(knowledgeBases).where(eq(knowledgeBases.id, kb.id)).for('update');
        const target = { kbId: kb.id, documentId: doc.id, generation: kb.generation, dimensions: kb.embeddingDimensions };
        await insertChunks(tx, target, source, { pipelined: !PGLITE });
        const now = new Date();
        await tx
          .update(kbDocuments)
          .set({ status: 'indexed', chunkCount: prepared.count, indexedAt: now, updatedAt: now })
          .where(eq(kbDocuments.id, doc.id));
      });
      result.storeMs += performance.now() - t2;
      result.chunks += prepared.count;
    });
    if (++done % 100 === 0) progress(`${done}/${documents.length} documents, ${int(result.chunks)} chunks`);
  });
  result.wallMs = performance.now() - started;
  progress(null);
  return result;
}

/** The production path for the remaining documents: runDocumentIndexing with the HNSW index and the postings maintained on every insert. */
async function incrementalLoad(db: Db, documents: Seeded['documents']): Promise<{ chunks: number; wallMs: number }> {
  const ctx = serviceContext(db);
  let chunks = 0;
  const started = performance.now();
  await pool(documents, CONCURRENCY, async (doc) => {
    const outcome = await runDocumentIndexing(ctx, doc.id);
    if (outcome.status !== 'indexed') throw new Error(`Document ${doc.id} ended ${outcome.status}`);
    chunks += outcome.chunk_count ?? 0;
  });
  return { chunks, wallMs: performance.now() - started };
}

async function dropSearchIndexes(db: Db): Promise<void> {
  await db.execute(sql.raw(`drop index if exists ${vectorIndexName(DIMENSIONS)}`));
}

/**
 * Marks the loaded chunks as indexed while the HNSW index is dropped (the index's predicate is
 * `vector_indexed`), then recreates it (ensureVectorIndex), timing both. Keyword postings are
 * written with the chunks.
 */
async function buildSearchIndexes(db: Db): Promise<{ markMs: number; hnswMs: number; workers: string }> {
  const markStarted = performance.now();
  await db.execute(sql`update kb_chunks set vector_indexed = true where not vector_indexed`);
  const markMs = performance.now() - markStarted;
  const withMemory = async (fn: (tx: DbOrTx) => Promise<void>) => {
    const started = performance.now();
    await db.transaction(async (tx) => {
      await tx.execute(sql.raw(`set local maintenance_work_mem = '${MAINTENANCE_WORK_MEM.replace(/'/g, '')}'`));
      await fn(tx);
    });
    return performance.now() - started;
  };
  const hnswMs = await withMemory((tx) => ensureVectorIndex(tx, DIMENSIONS));
  const [row] = await queryRows<{ workers: string }>(db, sql`select current_setting('max_parallel_maintenance_workers') as workers`);
  return { markMs, hnswMs, workers: row.workers };
}

/** Median time of semantic searches through the index path (query vectors: stored chunks' vectors). */
async function indexPathMedianMs(db: Db, kb: KnowledgeBaseRow): Promise<number> {
  const probes = await queryRows<{ v: string }>(db, sql`select embedding::text as v from kb_chunks where kb_id = ${kb.id} order by id limit 25`);
  const scope = { kbId: kb.id, generation: kb.generation, dimensions: kb.embeddingDimensions, conditions: [] };
  const times: number[] = [];
  for (const { v } of probes) {
    const started = performance.now();
    await vectorCandidates(db, scope, v, 10, { exact: false });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] ?? 0;
}

/**
 * The Indexing section, printed as it runs: the bulk load, the index builds, runDocumentIndexing
 * for the incremental documents, then VACUUM ANALYZE. Returns the bulk load rate (for the goals)
 * and the chunks stored.
 */
export async function runIndexing(
  db: Db,
  kb: KnowledgeBaseRow,
  bulk: Seeded['documents'],
  incremental: Seeded['documents'],
): Promise<{ loadRate: number; pipelineRate: number; chunks: number }> {
  console.log(`\nIndexing (concurrency ${CONCURRENCY})`);
  await dropSearchIndexes(db);
  const cpuBefore = await cpuSnapshot(db);
  const load = await bulkLoad(db, kb, bulk);
  const cpu = cpuBetween(cpuBefore, await cpuSnapshot(db));
  const loadRate = load.chunks / (load.wallMs / 1000);
  console.log(
    `  bulk load, HNSW index dropped (postings written as chunks are): ${int(bulk.length)} documents, ${int(load.chunks)} chunks ` +
      `(mean ${int(load.tokens / load.chunks)} tokens, ${int(load.terms / load.chunks)} terms) in ${seconds(load.wallMs)}: ` +
      `${int(loadRate)} chunks/s (goal >= 1,000: ${verdict(loadRate >= 1000)})`,
  );
  const perChunk = (secondsUsed: number) => `${int((secondsUsed * 1e6) / load.chunks)} µs/chunk`;
  console.log(
    `    CPU: this process ${fmt(cpu.node)} s (${perChunk(cpu.node)}: the indexing threads' chunking, embedding and analysis, ` +
      `and on the main thread Markdown reads, SQL building and the driver); ` +
      `PostgreSQL backends ${fmt(cpu.postgres)} s (${perChunk(cpu.postgres)}); other processes ${fmt(cpu.others)} s`,
  );
  console.log(
    `    preparing in the indexing threads: ${seconds(load.prepareMs)} summed wall time; ` +
      `storing transactions (insertChunks + document update): ${seconds(load.storeMs)} summed wall time; ` +
      `${os.availableParallelism()} cores, load average ${os.loadavg().map((l) => fmt(l, 2)).join(' ')}`,
  );
  const [postings] = await queryRows<{ live: string; dead: string; inserts: string; updates: string; hot: string; size: string }>(
    db,
    sql`select n_live_tup::text as live, n_dead_tup::text as dead, n_tup_ins::text as inserts, n_tup_upd::text as updates, n_tup_hot_upd::text as hot,
               pg_size_pretty(pg_total_relation_size('kb_postings')) as size
        from pg_stat_user_tables where relname = 'kb_postings'`,
  );
  if (postings) {
    console.log(
      `    kb_postings after the load: ${int(Number(postings.live))} live rows, ${int(Number(postings.dead))} dead, ` +
        `${int(Number(postings.inserts))} inserts and ${int(Number(postings.updates))} updates (${int(Number(postings.hot))} HOT; ` +
        `${int((Number(postings.inserts) + Number(postings.updates)) / bulk.length)} rows written per document), ${postings.size} with its index and TOAST`,
    );
  }
  const built = await buildSearchIndexes(db);
  console.log(
    `  index build: chunks marked for the index ${seconds(built.markMs)}, HNSW ${vectorIndexName(DIMENSIONS)} ${seconds(built.hnswMs)} ` +
      `(maintenance_work_mem ${MAINTENANCE_WORK_MEM}, max_parallel_maintenance_workers ${built.workers})`,
  );
  const untilSearchable = load.wallMs + built.markMs + built.hnswMs;
  console.log(`  load + index build: ${seconds(untilSearchable)} = ${int(load.chunks / (untilSearchable / 1000))} chunks/s`);
  // Marking rewrote every row: vacuumed here, so that autovacuum does not run during what follows.
  const vacuumStarted = performance.now();
  await db.execute(sql`vacuum analyze kb_chunks`);
  console.log(`  VACUUM ANALYZE kb_chunks after marking: ${seconds(performance.now() - vacuumStarted)}`);

  const incCpuBefore = await cpuSnapshot(db);
  const inc = await incrementalLoad(db, incremental);
  const incCpu = cpuBetween(incCpuBefore, await cpuSnapshot(db));
  const pipelineRate = inc.chunks / (inc.wallMs / 1000);
  console.log(
    `  runDocumentIndexing with the HNSW index in place (the background workflow's path; chunks searchable at once, exactly until indexed): ${int(incremental.length)} documents, ` +
      `${int(inc.chunks)} chunks in ${seconds(inc.wallMs)} = ${int(pipelineRate)} chunks/s (goal >= 1,000: ${verdict(pipelineRate >= 1000)}) ` +
      `(CPU: this process ${fmt(inc.chunks ? (incCpu.node * 1e6) / inc.chunks : 0, 0)} µs/chunk, PostgreSQL ${fmt(inc.chunks ? (incCpu.postgres * 1e6) / inc.chunks : 0, 0)} µs/chunk)`,
  );
  const pending = await pendingVectorCount(db);
  const searchPending = await indexPathMedianMs(db, kb);
  const backlogStarted = performance.now();
  const backlog = await indexVectorBacklog(db, Number.POSITIVE_INFINITY);
  const backlogMs = performance.now() - backlogStarted;
  const searchIndexed = await indexPathMedianMs(db, kb);
  console.log(
    `  background run putting them into the HNSW index (index-vectors): ${int(backlog.indexed)} of ${int(pending)} chunks in ${seconds(backlogMs)} = ` +
      `${int(backlog.indexed / (backlogMs / 1000))} chunks/s; semantic search through the index path, median of 25: ` +
      `${fmt(searchPending, 2)} ms with them pending, ${fmt(searchIndexed, 2)} ms once indexed`,
  );
  const started = performance.now();
  await db.execute(sql`vacuum analyze kb_chunks`);
  await db.execute(sql`vacuum analyze kb_postings`);
  await db.execute(sql`analyze`);
  const [sizes] = await queryRows<{ chunks: string; table: string; hnsw: string; postings: string; terms: string }>(
    db,
    sql`select (select count(*) from kb_chunks)::text as chunks,
               pg_size_pretty(pg_table_size('kb_chunks')) as table,
               pg_size_pretty(pg_relation_size(${vectorIndexName(DIMENSIONS)}::regclass)) as hnsw,
               pg_size_pretty(pg_total_relation_size('kb_postings')) as postings,
               (select count(distinct term) from kb_postings)::text as terms`,
  );
  console.log(
    `  VACUUM ANALYZE ${seconds(performance.now() - started)}; kb_chunks ${int(Number(sizes.chunks))} rows, ${sizes.table}; ` +
      `HNSW ${sizes.hnsw}; postings ${sizes.postings}; ${int(Number(sizes.terms))} distinct terms`,
  );
  return { loadRate, pipelineRate, chunks: Number(sizes.chunks) };
}
