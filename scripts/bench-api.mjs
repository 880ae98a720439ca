// npm run bench:api — request throughput of an authenticated API route against a bare route of
// the same production server, and the server's memory growth during a 100 MB upload.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { ensureBuild } from './lib/ensure-build.mjs';
import { runServer } from './lib/run-server.mjs';

const DURATION_S = Number(process.env.BENCH_DURATION_S ?? 10);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 100);
const ADMIN = 'sk_test_benchmarkadministratorkey00000001';

function readStatus(pid) {
  const text = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (name) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS') * 1024, hwm: kb('VmHWM') * 1024 };
}

function resetPeak(pid) {
  try {
    fs.writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

const mb = (bytes) => (bytes / 1024 / 1024).toFixed(1);

function load(url, headers) {
  return new Promise((resolve, reject) => {
    autocannon({ url, headers, connections: CONNECTIONS, duration: DURATION_S }, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

/** A file of exactly `megabytes` MiB that starts like a PDF (the largest size a .pdf upload may have). */
async function makePdf(file, megabytes) {
  const head = Buffer.from('%PDF-1.7\n%\xE2\xE3\xCF\xD3\n', 'latin1');
  const tail = Buffer.from('\n%%EOF\n');
  const chunk = Buffer.alloc(1024 * 1024, 'stream content 0123456789 ');
  const out = fs.createWriteStream(file);
  out.write(head);
  let remaining = megabytes * 1024 * 1024 - head.length - tail.length;
  while (remaining > 0) {
    const part = remaining >= chunk.length ? chunk : chunk.subarray(0, remaining);
    remaining -= part.length;
    if (!out.write(part)) await new Promise((r) => out.once('drain', r));
  }
  out.write(tail);
  await new Promise((r) => out.end(r));
}

async function main() {
  console.log('Building the production bundle if needed...');
  ensureBuild({ quiet: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-'));
  const env = { QUARRY_DATA_DIR: dataDir, QUARRY_ADMIN_KEY: ADMIN, QUARRY_RATE_LIMIT_PER_MINUTE: '100000000' };
  if (process.env.DATABASE_URL) env.DATABASE_URL = process.env.DATABASE_URL;
  // BENCH_PROFILE=<dir>: a V8 CPU profile of the server process.
  const profile = process.env.BENCH_PROFILE;
  const nodeArgs = profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(profile)}`, '--cpu-prof-name=server-api.cpuprofile'] : [];
  const server = await runServer({ env, nodeArgs });
  const auth = { authorization: `Bearer ${ADMIN}` };
  try {
    // The server warms up an extraction worker after it starts: measured once that is done.
    const quietStarted = performance.now();
    await server.quiet();
    console.log(`Server idle after ${((performance.now() - quietStarted) / 1000).toFixed(1)} s (its extraction worker's warm-up)`);
    const form = new FormData();
    form.set('file', new Blob([Buffer.from('benchmark file\n')]), 'bench.txt');
    const created = await (await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth, body: form })).json();

    // Warm up both routes so compilation and caches are out of the measurement.
    for (let i = 0; i < 200; i++) {
      await (await fetch(`${server.baseUrl}/v1/files/${created.id}`, { headers: auth })).arrayBuffer();
      await (await fetch(`${server.baseUrl}/health`)).arrayBuffer();
    }

    console.log(`\nThroughput (${CONNECTIONS} connections, ${DURATION_S} s each, database: ${env.DATABASE_URL ? 'PostgreSQL' : 'PGlite'})`);
    const api = await load(`${server.baseUrl}/v1/files/${created.id}`, auth);
    const bare = await load(`${server.baseUrl}/health`, {});
    const row = (name, r) =>
      console.log(
        `  ${name.padEnd(28)} ${r.requests.average.toFixed(0).padStart(7)} req/s   p50 ${String(r.latency.p50).padStart(4)} ms   p99 ${String(r.latency.p99).padStart(4)} ms   errors ${r.errors + r.non2xx}`,
      );
    row(`GET /v1/files/{id}`, api);
    row('GET /health (bare route)', bare);
    console.log(`  ratio API / bare: ${(api.requests.average / bare.requests.average).toFixed(2)}`);

    const pdf = path.join(dataDir, 'upload.pdf');
    await makePdf(pdf, UPLOAD_MB);
    const size = fs.statSync(pdf).size;
    await new Promise((r) => setTimeout(r, 1000));
    global.gc?.();
    const before = readStatus(server.pid);
    const peakReset = resetPeak(server.pid);
    let sampledPeak = before.rss;
    const sampler = setInterval(() => {
      sampledPeak = Math.max(sampledPeak, readStatus(server.pid).rss);
    }, 10);
    const started = performance.now();
    const uploadForm = new FormData();
    uploadForm.set('file', await fs.openAsBlob(pdf), 'large.pdf');
    const res = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth, body: uploadForm });
    const body = await res.json();
    const seconds = (performance.now() - started) / 1000;
    clearInterval(sampler);
    const after = readStatus(server.pid);
    const peak = Math.max(sampledPeak, peakReset ? after.hwm : 0);
    console.log(`\n${mb(size)} MB PDF upload: HTTP ${res.status}${res.status === 201 ? '' : ` ${JSON.stringify(body)}`} in ${seconds.toFixed(2)} s (${mb(size / seconds)} MB/s)`);
    console.log(`  server RSS before ${mb(before.rss)} MB, peak during upload ${mb(peak)} MB, growth ${mb(peak - before.rss)} MB (goal < 50 MB)`);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
