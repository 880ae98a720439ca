// Settings of npm run bench:search: the environment variables (documented at the top of
// scripts/bench-search.ts) and the fixed parameters every part of the benchmark shares.

/** BENCH_PGLITE=1: the embedded database (in a fresh data directory) instead of PostgreSQL, 10k chunks by default. */
export const PGLITE = process.env.BENCH_PGLITE === '1';
export const CHUNKS = Number(process.env.BENCH_CHUNKS ?? (PGLITE ? 10_000 : 100_000));
export const QUERIES = Number(process.env.BENCH_QUERIES ?? 200);
export const INCREMENTAL_DOCS = Number(process.env.BENCH_INCREMENTAL_DOCS ?? 20);
export const DATABASE_URL = PGLITE ? '' : (process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/quarry_bench_search');
export const MAINTENANCE_WORK_MEM = process.env.BENCH_MAINTENANCE_WORK_MEM ?? '1GB';
export const KEEP = process.env.BENCH_KEEP === '1';

export const SEED = 20240611;
export const CONCURRENCY = 2;
export const TOP_K = 10;
export const WARMUP_QUERIES = 10;
export const RECALL_QUERIES = 100;
/** Sections per document average ~100, so 1,000 documents make 100,000 chunks. */
export const MEAN_SECTIONS = 100;
export const DIMENSIONS = 384;
export const ADMIN_KEY = 'sk_test_benchmarkadministratorkey00000001';
/** The hybrid endpoint's default weights. */
export const VECTOR_WEIGHT = 0.7;
export const KEYWORD_WEIGHT = 0.3;
