// Printing of the search latency table, the result counts and the goals.
import { fmt, int, verdict, type Timings } from './common';
import { QUERIES, TOP_K } from './config';
import { COMMON_VARIANTS, VARIANTS, type Variant } from './latency';

export function printLatencies(timings: Timings): void {
  console.log(`\nSearch latency (${int(QUERIES)} queries of 2–5 words, sequential, top_k ${TOP_K}; ms)`);
  console.log(`  ${''.padEnd(28)} ${'p50'.padStart(8)} ${'p99'.padStart(8)} ${'mean'.padStart(8)}`);
  for (const v of [...VARIANTS, ...COMMON_VARIANTS]) {
    console.log(`  ${v.padEnd(28)} ${fmt(timings.p(v, 50), 2).padStart(8)} ${fmt(timings.p(v, 99), 2).padStart(8)} ${fmt(timings.mean(v), 2).padStart(8)}`);
  }
  console.log('  lib/search steps inside the SQL runs:');
  for (const [name] of timings.samples) {
    if (!name.includes(': ')) continue;
    console.log(
      `    ${name.padEnd(38)} ${fmt(timings.p(name, 50), 2).padStart(8)} ${fmt(timings.p(name, 99), 2).padStart(8)} ${fmt(timings.mean(name), 2).padStart(8)}`,
    );
  }
}

export function printMeanResults(results: Map<Variant, number>): void {
  const hits = VARIANTS.filter((v) => !v.includes('/health')).map((v) => `${v} ${fmt((results.get(v) ?? 0) / QUERIES)}`).join(', ');
  console.log(`  mean results per query: ${hits}`);
}

export function printGoals(t: Timings, loadRate: number, pipelineRate: number): void {
  console.log('\nGoals');
  for (const kind of ['semantic', 'hybrid'] as const) {
    const httpP99 = t.p(`HTTP ${kind}`, 99);
    const sqlP99 = t.p(`SQL ${kind}`, 99);
    const serviceP99 = t.p(`service ${kind}`, 99);
    console.log(
      `  ${kind}: HTTP p99 ${fmt(httpP99, 2)} ms <= SQL p99 ${fmt(sqlP99, 2)} + 5 ms: ${verdict(httpP99 <= sqlP99 + 5)} ` +
        `(vs the service function: ${fmt(serviceP99, 2)} + 5 ms: ${verdict(httpP99 <= serviceP99 + 5)})`,
    );
  }
  const ratio = t.p('HTTP hybrid', 99) / t.p('HTTP semantic', 99);
  console.log(`  hybrid p99 <= 2x semantic p99 (HTTP): ${fmt(ratio, 2)}x: ${verdict(ratio <= 2)}`);
  for (const v of ['HTTP keyword', 'HTTP keyword, common words'] as const) {
    console.log(`  ${v} p99 <= 50 ms: ${fmt(t.p(v, 99), 2)} ms: ${verdict(t.p(v, 99) <= 50)}`);
  }
  console.log(`  indexing >= 1,000 chunks/s (bulk load, builtin embedder): ${int(loadRate)} chunks/s: ${verdict(loadRate >= 1000)}`);
  console.log(`  indexing >= 1,000 chunks/s (the background workflow's path, HNSW index in place): ${int(pipelineRate)} chunks/s: ${verdict(pipelineRate >= 1000)}`);
}
