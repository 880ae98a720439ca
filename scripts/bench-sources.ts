// npm run bench:sources — sync throughput of the production server on a local site and a local
// bucket (s3rver), in items per second: the full pass (every item fetched, stored, extracted and
// indexed) and the unchanged pass (nothing changed: conditional requests for the site, the listing
// alone for the bucket). Each is printed against a baseline measured in the same run: a plain
// client downloading every item once (what a sync without fingerprints would have to do).
//
// BENCH_ITEMS (default 200) pages and objects; BENCH_DB (`pglite` by default, or `postgres` at
// BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { GetObjectCommand, ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { createScratchDatabase } from '@/test/support/database';
import { S3_TEST_CREDENTIALS, startS3Server } from '@/test/support/s3-server';
import { apiClient, type Api } from './lib/bench-http';
import { ensureBuild } from './lib/ensure-build.mjs';
import { runServer } from './lib/run-server.mjs';

const ADMIN = 'sk_test_benchsourcesadministratorkey0001';
const ITEMS = Number(process.env.BENCH_ITEMS ?? 200);
const DATABASE = process.env.BENCH_DB ?? 'pglite';
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BUCKET = 'bench-sources';
const STALL_MS = 300_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pageText(i: number): string {
  return `<!doctype html><html><head><title>Page ${i}</title></head><body><h1>Page ${i}</h1><p>Page ${i} of the benchmark site records the harvest of orchard row ${i}: ${'apples, pears and plums; '.repeat(12)}</p></body></html>`;
}

/** A site of ITEMS pages linked from one index, each with an ETag (a 304 answers a matching If-None-Match). */
async function startBenchSite(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url === '/robots.txt') return void res.writeHead(404).end();
    const send = (etag: string, body: string) => {
      if (req.headers['if-none-match'] === etag) return void res.writeHead(304, { etag }).end();
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', etag }).end(body);
    };
    if (url === '/docs/') return send('"index"', `<!doctype html><html><body>${Array.from({ length: ITEMS - 1 }, (_, i) => `<a href="p${i + 1}.html">${i + 1}</a>`).join(' ')}</body></html>`);
    const m = /^\/docs\/p(\d+)\.html$/.exec(url);
    if (m) return send(`"p${m[1]}"`, pageText(Number(m[1])));
    res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((r) => server.close(() => r())) };
}

interface Run {
  id: string;
  status: string;
  counts: Record<string, number>;
  started_at: string | null;
  completed_at: string | null;
}

/** Waits for the source's newest run to end; returns it. */
async function runEnded(api: Api, sourceId: string, after?: string): Promise<Run> {
  let moved = Date.now();
  let seen = '';
  for (;;) {
    const { items } = await api.get<{ items: (Run & { items_done: number })[] }>(`/v1/sources/${sourceId}/runs?limit=1`);
    const run = items[0];
    if (run && run.id !== after && (run.status === 'completed' || run.status === 'failed')) {
      if (run.status === 'failed') throw new Error(`sync failed: ${JSON.stringify(run)}`);
      return run;
    }
    const progress = `${run?.id}:${run?.status}:${run?.items_done}`;
    if (progress !== seen) {
      seen = progress;
      moved = Date.now();
    } else if (Date.now() - moved > STALL_MS) throw new Error(`sync stalled: ${progress}`);
    await sleep(100);
  }
}

const seconds = (run: Run) => (Date.parse(run.completed_at!) - Date.parse(run.started_at!)) / 1000;

/** Creates a source and times its first sync, then a sync with nothing changed. */
async function passes(api: Api, body: Record<string, unknown>) {
  const source = await api.post<{ id: string }>('/v1/sources', body);
  const full = await runEnded(api, source.id);
  const again = await api.post<{ id: string }>(`/v1/sources/${source.id}/sync`, {});
  const unchanged = await runEnded(api, source.id, full.id);
  if (unchanged.id !== again.id) throw new Error('another sync ran');
  return { full, unchanged };
}

function line(label: string, items: number, secs: number, baseline: number) {
  const rate = items / secs;
  console.log(`  ${label.padEnd(34)} ${String(items).padStart(5)} items in ${secs.toFixed(2).padStart(7)} s  ${rate.toFixed(1).padStart(8)} items/s  ${(rate / baseline).toFixed(2).padStart(6)}× the plain download`);
}

async function main() {
  ensureBuild();
  const site = await startBenchSite();
  const s3 = await startS3Server({ bucket: BUCKET });
  const client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: S3_TEST_CREDENTIALS });
  for (let i = 0; i < ITEMS; i++) {
    await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: `docs/note-${i}.md`, Body: `# Note ${i}\n\nNote ${i} records the harvest of orchard row ${i}: ${'apples, pears and plums; '.repeat(12)}\n`, ContentType: 'text/markdown' }));
  }

  // Baselines: one plain client fetching every item once, sequentially as a sync does.
  let started = performance.now();
  await (await fetch(`${site.url}/docs/`)).text();
  for (let i = 1; i < ITEMS; i++) await (await fetch(`${site.url}/docs/p${i}.html`)).text();
  const siteBaseline = ITEMS / ((performance.now() - started) / 1000);
  started = performance.now();
  const listed = await client.send(new ListObjectsV2Command({ Bucket: BUCKET, Prefix: 'docs/' }));
  for (const object of listed.Contents ?? []) await (await client.send(new GetObjectCommand({ Bucket: BUCKET, Key: object.Key }))).Body!.transformToByteArray();
  const bucketBaseline = ITEMS / ((performance.now() - started) / 1000);

  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-sources-'));
  const scratch = DATABASE === 'postgres' ? await createScratchDatabase(PG_URL) : undefined;
  const server = await runServer({
    env: { QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, DATABASE_URL: scratch?.url ?? '', QUARRY_SOURCES_ALLOW_PRIVATE: 'true' },
    timeoutMs: 120_000,
  });
  try {
    const api = apiClient(server.baseUrl, ADMIN);
    const kb = await api.post<{ id: string }>('/v1/knowledge-bases', { name: 'bench sources' });
    const web = await passes(api, { type: 'web', knowledge_base_id: kb.id, config: { start_url: `${site.url}/docs/`, max_depth: 1, max_pages: ITEMS } });
    const bucket = await passes(api, {
      type: 's3',
      knowledge_base_id: kb.id,
      config: { bucket: BUCKET, prefix: 'docs/', endpoint: s3.endpoint, force_path_style: true },
      credentials: { access_key_id: S3_TEST_CREDENTIALS.accessKeyId, secret_access_key: S3_TEST_CREDENTIALS.secretAccessKey },
    });
    for (const [what, r] of [['site', web], ['bucket', bucket]] as const) {
      if (r.full.counts.added !== ITEMS || r.unchanged.counts.unchanged !== ITEMS) throw new Error(`${what}: unexpected counts ${JSON.stringify(r)}`);
    }
    console.log(`\nbench:sources — ${ITEMS} items each, ${DATABASE}, ${os.cpus().length} cores`);
    console.log(`plain download: site ${siteBaseline.toFixed(1)} items/s, bucket ${bucketBaseline.toFixed(1)} items/s`);
    console.log('site (web crawl)');
    line('full pass (fetch, extract, index)', ITEMS, seconds(web.full), siteBaseline);
    line('unchanged pass (conditional GETs)', ITEMS, seconds(web.unchanged), siteBaseline);
    console.log('bucket (s3)');
    line('full pass (fetch, extract, index)', ITEMS, seconds(bucket.full), bucketBaseline);
    line('unchanged pass (listing only)', ITEMS, seconds(bucket.unchanged), bucketBaseline);
  } finally {
    await server.stop();
    await scratch?.drop();
    client.destroy();
    await s3.stop();
    await site.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
