// npm run bench:ingest — bulk ingestion through the HTTP API of the production server: short
// Markdown documents (the SciFact slice, repeated with a copy number so every one is distinct)
// uploaded, extracted and indexed, stage by stage with the batch endpoints, then in one step
// (upload with `extract` and `knowledge_base_id`), on the embedded database and on PostgreSQL.
//
// BENCH_DOCS (default 1000), BENCH_CONCURRENCY (upload clients, default 8), BENCH_DB
// (`pglite,postgres` by default; PostgreSQL at BENCH_DATABASE_URL or postgres://postgres@127.0.0.1:5432/postgres).
// BENCH_PROFILE=<dir> writes a V8 CPU profile of the server process there (one per database).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createScratchDatabase } from '@/test/support/database';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { apiClient, mapLimit, type Api } from './lib/bench-http';
import { ensureBuild } from './lib/ensure-build.mjs';
import { runServer } from './lib/run-server.mjs';

const ADMIN = 'sk_test_benchingestadministratorkey000001';
const DOCS = Number(process.env.BENCH_DOCS ?? 1000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const DATABASES = (process.env.BENCH_DB ?? 'pglite,postgres').split(',');
const PG_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const BATCH = 100;
const GOAL_DOCS_PER_S = 25;
const STALL_MS = 180_000;
const PROFILE = process.env.BENCH_PROFILE;

interface CorpusDoc {
  _id: string;
  title: string;
  text: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function corpus(count: number): { name: string; markdown: string }[] {
  const file = path.join(FIXTURES_DIR, 'retrieval', 'scifact_train50', 'corpus.jsonl');
  const docs = fs
    .readFileSync(file, 'utf8')
    .split('\n')
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as CorpusDoc);
  return Array.from({ length: count }, (_, i) => {
    const doc = docs[i % docs.length];
    const copy = Math.floor(i / docs.length);
    return { name: `${doc._id}-${copy}.md`, markdown: `# ${doc.title}\n\n${doc.text}\n\nCopy ${copy}.\n` };
  });
}

function form(doc: { name: string; markdown: string }, parts: Record<string, string> = {}): FormData {
  const body = new FormData();
  body.set('file', new Blob([doc.markdown], { type: 'text/markdown' }), doc.name);
  for (const [k, v] of Object.entries(parts)) body.set(k, v);
  return body;
}

/** Polls until `done()` reaches `total`; throws when it stops moving for STALL_MS or `failed()` is not 0. */
async function until(what: string, total: number, done: () => Promise<number>, failed: () => Promise<number> = async () => 0): Promise<void> {
  let seen = -1;
  let moved = Date.now();
  for (;;) {
    const bad = await failed();
    if (bad > 0) throw new Error(`${bad} ${what} failed`);
    const now = await done();
    if (now >= total) return;
    if (now !== seen) {
      seen = now;
      moved = Date.now();
    } else if (Date.now() - moved > STALL_MS) throw new Error(`${what} stalled at ${now}/${total}`);
    await sleep(200);
  }
}

async function documentsWith(api: Api, kbId: string, status: string): Promise<number> {
  return (await api.get<{ total: number }>(`/v1/knowledge-bases/${kbId}/documents?status=${status}&limit=1`)).total;
}

/** Events of one type so far (the log's total): a whole batch is watched with one cheap request. */
async function eventCount(api: Api, type: string): Promise<number> {
  return (await api.get<{ total: number }>(`/v1/events?type=${type}&limit=1`)).total;
}

async function extractionEvents(api: Api): Promise<{ completed: number; failed: number }> {
  const [completed, failed] = await Promise.all([eventCount(api, 'extraction.completed'), eventCount(api, 'extraction.failed')]);
  return { completed, failed };
}

/**
 * Waits until `count` more extractions than `before` have completed, watching the event log (one
 * request per poll, as a bulk client would) rather than asking for every task.
 */
async function awaitExtractions(api: Api, before: { completed: number; failed: number }, count: number): Promise<void> {
  await until(
    'extractions',
    before.completed + count,
    () => eventCount(api, 'extraction.completed'),
    async () => (await eventCount(api, 'extraction.failed')) - before.failed,
  );
}

interface Stage {
  name: string;
  seconds: number;
}

async function staged(api: Api, docs: ReturnType<typeof corpus>): Promise<Stage[]> {
  const stages: Stage[] = [];
  const time = async (name: string, fn: () => Promise<void>) => {
    const started = performance.now();
    await fn();
    stages.push({ name, seconds: (performance.now() - started) / 1000 });
  };
  const fileIds: string[] = [];
  await time(`upload (${CONCURRENCY} clients)`, () =>
    mapLimit(docs, CONCURRENCY, async (doc) => {
      fileIds.push((await api.post<{ id: string }>('/v1/files', form(doc))).id);
    }),
  );
  await time('extract (POST /v1/extractions/batch, simple)', async () => {
    const before = await extractionEvents(api);
    for (let i = 0; i < fileIds.length; i += BATCH) {
      const result = await api.post<{ results: { extraction?: { id: string }; error?: unknown }[] }>('/v1/extractions/batch', {
        file_ids: fileIds.slice(i, i + BATCH),
        mode: 'simple',
      });
      for (const r of result.results) {
        if (!r.extraction) throw new Error(`batch extraction refused: ${JSON.stringify(r.error)}`);
      }
    }
    await awaitExtractions(api, before, fileIds.length);
  });
  const kb = await api.post<{ id: string }>('/v1/knowledge-bases', { name: `bench staged ${Date.now()}` });
  await time('add and index (POST …/documents/batch)', async () => {
    for (let i = 0; i < fileIds.length; i += BATCH) {
      await api.post(`/v1/knowledge-bases/${kb.id}/documents/batch`, { items: fileIds.slice(i, i + BATCH).map((file_id) => ({ file_id })) });
    }
    await until('documents', fileIds.length, () => documentsWith(api, kb.id, 'indexed'), () => documentsWith(api, kb.id, 'failed'));
  });
  return stages;
}

/** Upload with `extract` and `knowledge_base_id`: one request per document, the rest in the background. */
async function oneStep(api: Api, docs: ReturnType<typeof corpus>): Promise<{ uploadSeconds: number; totalSeconds: number }> {
  const kb = await api.post<{ id: string }>('/v1/knowledge-bases', { name: `bench one-step ${Date.now()}` });
  const started = performance.now();
  await mapLimit(docs, CONCURRENCY, async (doc) => {
    await api.post('/v1/files', form({ ...doc, name: `one-${doc.name}` }, { extract: 'simple', knowledge_base_id: kb.id }));
  });
  const uploaded = performance.now();
  await until('documents', docs.length, () => documentsWith(api, kb.id, 'indexed'), () => documentsWith(api, kb.id, 'failed'));
  return { uploadSeconds: (uploaded - started) / 1000, totalSeconds: (performance.now() - started) / 1000 };
}

const rate = (n: number, s: number) => `${(n / s).toFixed(1)} docs/s`;

async function run(database: string): Promise<number> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-ingest-'));
  const scratch = database === 'postgres' ? await createScratchDatabase(PG_URL) : undefined;
  const server = await runServer({
    env: {
      QUARRY_ADMIN_KEY: ADMIN,
      QUARRY_DATA_DIR: dataDir,
      QUARRY_RATE_LIMIT_PER_MINUTE: '100000000',
      DATABASE_URL: scratch?.url ?? '',
    },
    nodeArgs: PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(PROFILE)}`, `--cpu-prof-name=server-${database}.cpuprofile`] : [],
    timeoutMs: 120_000,
  });
  try {
    // The server warms up an extraction worker after it starts: measured once that is done.
    await server.quiet();
    const api = apiClient(server.baseUrl, ADMIN);
    const docs = corpus(DOCS);
    console.log(`\n${database === 'postgres' ? 'PostgreSQL' : 'Embedded PGlite'}: ${docs.length} Markdown documents (${Math.round(docs.reduce((n, d) => n + d.markdown.length, 0) / docs.length)} characters on average)`);
    const stages = await staged(api, docs);
    const total = stages.reduce((n, s) => n + s.seconds, 0);
    for (const s of stages) console.log(`  ${s.name.padEnd(48)} ${s.seconds.toFixed(1).padStart(7)} s  ${rate(docs.length, s.seconds).padStart(14)}`);
    console.log(`  ${'staged, end to end'.padEnd(48)} ${total.toFixed(1).padStart(7)} s  ${rate(docs.length, total).padStart(14)}`);
    const one = await oneStep(api, docs);
    console.log(`  ${'one step: uploads answered'.padEnd(48)} ${one.uploadSeconds.toFixed(1).padStart(7)} s  ${rate(docs.length, one.uploadSeconds).padStart(14)}`);
    console.log(`  ${'one step: all indexed'.padEnd(48)} ${one.totalSeconds.toFixed(1).padStart(7)} s  ${rate(docs.length, one.totalSeconds).padStart(14)}`);
    const best = docs.length / Math.min(total, one.totalSeconds);
    console.log(`  goal ≥ ${GOAL_DOCS_PER_S} docs/s end to end: ${best.toFixed(1)} docs/s: ${best >= GOAL_DOCS_PER_S ? 'met' : 'NOT met'}`);
    return best;
  } finally {
    await server.stop();
    await scratch?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

async function main() {
  ensureBuild({ quiet: false });
  console.log(`Bulk ingestion through the HTTP API (${os.availableParallelism()} cores, ${CONCURRENCY} upload clients, built-in embedder)`);
  for (const database of DATABASES) await run(database);
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
