// npm run bench:search — a knowledge base of 100k chunks in PostgreSQL (or 10k in the embedded
// PGlite with BENCH_PGLITE=1): indexing throughput
// (bulk load with the indexes dropped, then per-document indexing with them in place), and the
// latency of semantic and hybrid search over HTTP, through the service functions, and as the bare
// lib/search SQL; HNSW recall against an exact scan and the query plans behind the numbers.
//
// Environment:
//   BENCH_PGLITE=1             the embedded database instead of PostgreSQL
//   BENCH_CHUNKS               chunks to load (default 100000; 10000 with BENCH_PGLITE=1)
//   BENCH_QUERIES              measured queries per variant (default 200)
//   BENCH_INCREMENTAL_DOCS     documents indexed after the indexes exist (default 20)
//   BENCH_DATABASE_URL         database to create, dropped first (default postgres://postgres@127.0.0.1:5432/quarry_bench_search;
//                              its name must contain "bench")
//   BENCH_MAINTENANCE_WORK_MEM maintenance_work_mem for the index builds (default 1GB)
//   BENCH_KEEP=1               keep the database afterwards
//
// The parts live in scripts/bench-search/: config (these variables and the fixed parameters),
// corpus, database (creation and seeding), indexing, sql-search, server, latency, recall, plans,
// report, and the shared common and cpu helpers.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import { openDatabase, type DatabaseHandle } from '@/lib/db/client';
import { knowledgeBases } from '@/lib/db/schema';
import { embedderFor } from '@/lib/knowledge-bases/embedder';
import type { SearchScope } from '@/lib/search/query';
import { fmt, int, seconds, Timings } from './bench-search/common';
import { CHUNKS, DATABASE_URL, INCREMENTAL_DOCS, KEEP, PGLITE, QUERIES, RECALL_QUERIES, SEED, WARMUP_QUERIES } from './bench-search/config';
import { CorpusWriter, makeCommonQueries, makeQueries, prng, sectionPlan, Vocabulary, ZIPF_S } from './bench-search/corpus';
import { recreateDatabase, seed } from './bench-search/database';
import { runIndexing } from './bench-search/indexing';
import { COMMON_VARIANTS, measureCommonWords, measureSearches, VARIANTS } from './bench-search/latency';
import { reportQueryPlans } from './bench-search/plans';
import { reportRecall } from './bench-search/recall';
import { reportStorage } from './bench-search/storage';
import { printGoals, printLatencies, printMeanResults } from './bench-search/report';
import { reportThroughput } from './bench-search/throughput';
import { startServer } from './bench-search/server';
import type { SqlContext } from './bench-search/sql-search';
import { ensureBuild } from './lib/ensure-build.mjs';
import type { RunningServer } from './lib/run-server.mjs';

async function main() {
  const runStarted = performance.now();
  console.log('Building the production bundle if needed...');
  ensureBuild({ quiet: true });

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-search-'));
  if (!PGLITE) await recreateDatabase(DATABASE_URL, false);
  const open = () => openDatabase(PGLITE ? { dataDir } : { url: DATABASE_URL });
  let handle: DatabaseHandle | null = await open();
  const { db } = handle;
  let server: RunningServer | undefined;
  console.log(`Database: ${PGLITE ? `embedded PGlite in ${dataDir}` : DATABASE_URL}`);
  try {
    const random = prng(SEED);
    const vocabulary = new Vocabulary(random);
    const plan = sectionPlan(CHUNKS, random);
    const queries = makeQueries(vocabulary, QUERIES + WARMUP_QUERIES, random);
    const recallQueries = makeQueries(vocabulary, RECALL_QUERIES, random);
    const commonQueries = makeCommonQueries(vocabulary, QUERIES + WARMUP_QUERIES, random);

    const started = performance.now();
    const seeded = await seed(db, new CorpusWriter(vocabulary, SEED + 1), plan);
    const { kb } = seeded;
    const embedder = embedderFor(kb);
    const incremental = seeded.documents.slice(seeded.documents.length - Math.min(INCREMENTAL_DOCS, seeded.documents.length - 1));
    const bulk = seeded.documents.slice(0, seeded.documents.length - incremental.length);
    console.log(
      `\nCorpus: ${int(plan.length)} Markdown documents (${fmt(seeded.chars / 1e6)} M characters), ${int(vocabulary.words.length)} distinct words ` +
        `(Zipf s=${ZIPF_S}), seeded in ${seconds(performance.now() - started)}`,
    );
    console.log(
      `Knowledge base ${kb.id}: ${kb.embeddingProvider}/${kb.embeddingModel} (${kb.embeddingDimensions} dimensions), ` +
        `${kb.chunkingStrategy.type} chunks of ${kb.chunkingStrategy.chunk_size} tokens`,
    );

    const { loadRate, pipelineRate, chunks } = await runIndexing(db, kb, bulk, incremental);

    const [current] = await db.select().from(knowledgeBases).where(eq(knowledgeBases.id, kb.id));
    const scope: SearchScope = { kbId: kb.id, generation: current.generation, dimensions: current.embeddingDimensions, conditions: [] };
    // As the server decides it (QUARRY_SEARCH_EXACT_MAX_CHUNKS): an exact scan for small knowledge bases.
    const exactMax = getConfig().knowledgeBases.exactSearchMaxChunks;
    const sqlContext: SqlContext = { db, kb: current, scope, exact: chunks <= exactMax, timings: new Timings(), prefix: null };

    let measured: Awaited<ReturnType<typeof measureSearches>>;
    if (PGLITE) {
      // The embedded database belongs to one process at a time: the server has it while the HTTP
      // variants run, then this process again for the in-process ones.
      await handle.close();
      handle = null;
      console.log('\nStarting the production server on the embedded database (HTTP variants)...');
      server = await startServer(dataDir);
      const overHttp = await measureSearches(server, sqlContext, embedder, queries, WARMUP_QUERIES, VARIANTS.filter((v) => v.startsWith('HTTP')));
      await measureCommonWords(server, sqlContext, commonQueries, WARMUP_QUERIES, COMMON_VARIANTS.filter((v) => v.startsWith('HTTP')));
      await reportThroughput(server, kb.id, queries);
      await server.stop();
      server = undefined;
      handle = await open();
      sqlContext.db = handle.db;
      const inProcess = await measureSearches(null, sqlContext, embedder, queries, WARMUP_QUERIES, VARIANTS.filter((v) => !v.startsWith('HTTP')));
      await measureCommonWords(null, sqlContext, commonQueries, WARMUP_QUERIES, COMMON_VARIANTS.filter((v) => !v.startsWith('HTTP')));
      measured = { timings: sqlContext.timings, results: new Map([...overHttp.results, ...inProcess.results]) };
    } else {
      console.log('\nStarting the production server on the same database...');
      server = await startServer(dataDir);
      measured = await measureSearches(server, sqlContext, embedder, queries, WARMUP_QUERIES);
      await measureCommonWords(server, sqlContext, commonQueries, WARMUP_QUERIES);
      await reportThroughput(server, kb.id, queries);
    }
    printLatencies(measured.timings);
    await reportStorage(sqlContext.db, chunks);
    printMeanResults(measured.results);

    await reportRecall(sqlContext, embedder, recallQueries);

    await reportQueryPlans(sqlContext.db, vocabulary, embedder, scope, sqlContext.exact);

    printGoals(measured.timings, loadRate, pipelineRate);
    console.log(`\nTotal run time ${seconds(performance.now() - runStarted)}`);
  } finally {
    await server?.stop();
    await handle?.close();
    if (!KEEP) {
      fs.rmSync(dataDir, { recursive: true, force: true });
      if (!PGLITE) await recreateDatabase(DATABASE_URL, true);
    }
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
