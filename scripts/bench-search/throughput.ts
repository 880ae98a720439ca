// Search throughput of one server process: hybrid queries over HTTP with several in flight, for
// sizing (queries per second per replica) beside the one-at-a-time latencies.
import type { RunningServer } from '../lib/run-server.mjs';
import { pool } from './common';
import { ADMIN_KEY } from './config';
import { request } from './server';

const SECONDS = Number(process.env.BENCH_THROUGHPUT_S ?? 15);
const IN_FLIGHT = (process.env.BENCH_THROUGHPUT_IN_FLIGHT ?? '1,4,8').split(',').map(Number);

export async function reportThroughput(server: RunningServer, kbId: string, queries: string[]): Promise<void> {
  console.log(`\nThroughput of one server process (hybrid search over HTTP, top_k 10, ${SECONDS} s per row)`);
  console.log(`  ${'in flight'.padStart(9)} ${'queries/s'.padStart(10)} ${'p50 ms'.padStart(8)} ${'p99 ms'.padStart(8)}`);
  for (const inFlight of IN_FLIGHT) {
    const times: number[] = [];
    const deadline = performance.now() + SECONDS * 1000;
    let next = 0;
    const started = performance.now();
    await pool(Array.from({ length: inFlight }, (_, i) => i), inFlight, async () => {
      while (performance.now() < deadline) {
        const query = queries[next++ % queries.length];
        const t0 = performance.now();
        await request(server, 'POST', `/v1/knowledge-bases/${kbId}/hybrid-search`, ADMIN_KEY, { query, top_k: 10 });
        times.push(performance.now() - t0);
      }
    });
    const elapsed = (performance.now() - started) / 1000;
    times.sort((a, b) => a - b);
    const at = (p: number) => times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0;
    console.log(
      `  ${String(inFlight).padStart(9)} ${(times.length / elapsed).toFixed(1).padStart(10)} ${at(0.5).toFixed(1).padStart(8)} ${at(0.99).toFixed(1).padStart(8)}`,
    );
  }
}
