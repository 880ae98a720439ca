import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import postgres from 'postgres';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { createScratchDatabase } from '@/test/support/database';
import { fixture } from '@/test/support/fixtures';
import { largeMarkdown } from '@/test/support/large-markdown';
import { startS3Server, type S3TestServer } from '@/test/support/s3-server';

/**
 * Two production server processes on one PostgreSQL database and one bucket, as behind a load
 * balancer: each serves what the other stored; every pipeline run is executed once; idempotency
 * keys and maintenance mode hold across them; a replica with other secrets is refused; and when
 * one is killed (SIGKILL) mid-extraction or mid-indexing, the other finishes its runs once the
 * lease runs out, with nothing lost or done twice.
 */
const PG = process.env.TEST_DATABASE_URL;
const ADMIN = 'sk_test_replicasadministratorkey0000001';
const auth = { authorization: `Bearer ${ADMIN}` };
// Short, so a killed replica's runs are taken over quickly; long enough that a heartbeat (every
// third of it) delayed by a loaded two-core machine does not lose a live run its lease.
const LEASE_S = 5;

let s3: S3TestServer;
let scratch: { url: string; drop(): Promise<void> };
let sql: postgres.Sql;
const dirs: string[] = [];
const servers: RunningServer[] = [];
let replicas: RunningServer[] = [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function baseEnv(): Record<string, string> {
  return {
    ...s3.env('replicas'),
    DATABASE_URL: scratch.url,
    QUARRY_ADMIN_KEY: ADMIN,
    QUARRY_SECRET_KEY: 'replicas-shared-secret-key-0001',
    NEXTAUTH_SECRET: 'replicas-shared-auth-secret-0001',
    QUARRY_WORKFLOW_LEASE_S: String(LEASE_S),
    QUARRY_RATE_LIMIT_PER_MINUTE: '100000',
  };
}

async function startReplica(extra: Record<string, string> = {}): Promise<RunningServer> {
  // Each replica has a data directory of its own: nothing may depend on another's local disk.
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-replica-'));
  dirs.push(dataDir);
  const server = await runServer({ env: { ...baseEnv(), QUARRY_DATA_DIR: dataDir, ...extra }, timeoutMs: 120_000 });
  servers.push(server);
  return server;
}

async function call(server: RunningServer, method: string, route: string, body?: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(60_000),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text && res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
}

async function upload(server: RunningServer, name: string, bytes: Buffer | string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([typeof bytes === 'string' ? bytes : new Uint8Array(bytes)]), name);
  const res = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth, body: form });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

/** Polls the database (not the API, which the test's other requests share) until `check` holds. */
async function until<T>(what: string, check: () => Promise<T | undefined | null | false>, timeoutMs = 180_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

/** The replica holding a run's lease (lease owners are named runner_<host>_<pid>_<id>). */
function holderOf(leaseOwner: string): RunningServer {
  const pid = Number(/_(\d+)_[0-9a-f]{8}$/.exec(leaseOwner)?.[1]);
  const holder = replicas.find((r) => r.pid === pid);
  if (!holder) throw new Error(`no replica holds ${leaseOwner}`);
  return holder;
}

describe.runIf(PG)('two replicas on one PostgreSQL database and one bucket', () => {
  beforeAll(async () => {
    ensureBuild({ quiet: true });
    s3 = await startS3Server();
    scratch = await createScratchDatabase(PG!);
    sql = postgres(scratch.url, { max: 2, onnotice: () => undefined });
    // Started together: migrations run once, under an advisory lock, while the other waits.
    replicas = await Promise.all([startReplica(), startReplica()]);
  }, 300_000);

  afterAll(async () => {
    await Promise.all(servers.map((s) => s.stop('SIGKILL')));
    await sql?.end();
    await scratch?.drop();
    await s3?.stop();
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('serves and extracts on one replica what the other stored, each run executed once', async () => {
    const [a, b] = replicas;
    const bytes = fixture('pdf/code_and_formula.pdf');
    const fileId = await upload(a, 'paper.pdf', bytes);
    const dl = await fetch(`${b.baseUrl}/v1/files/${fileId}/download`, { headers: { ...auth, range: 'bytes=0-7' } });
    expect(dl.status).toBe(206);
    expect(Buffer.from(await dl.arrayBuffer()).toString('latin1')).toBe(bytes.subarray(0, 8).toString('latin1'));

    const ids: string[] = [];
    for (let i = 0; i < 6; i++) {
      const created = await call(i % 2 ? a : b, 'POST', '/v1/extractions', { file_id: fileId });
      expect(created.status).toBe(201);
      ids.push(created.body.id);
    }
    await until('six completed extractions', async () => {
      const rows = await sql`select status from extractions where id = any(${ids})`;
      return rows.length === 6 && rows.every((r) => r.status === 'completed' || r.status === 'failed');
    });
    const done = await call(a, 'GET', `/v1/extractions/${ids[0]}`);
    expect(done.body.status).toBe('completed');
    expect(done.body.markdown.length).toBeGreaterThan(100);
    const events = await sql`select data->>'extraction_id' as id from events where type = 'extraction.completed' and data->>'extraction_id' = any(${ids})`;
    expect(events.map((e) => e.id).sort()).toEqual([...ids].sort());
    const runs = await sql`select status, attempt, lease_owner from workflow_runs where workflow = 'extract-document' and input->>'extraction_id' = any(${ids})`;
    expect(runs).toHaveLength(6);
    expect(runs.map((r) => ({ status: r.status, attempt: r.attempt }))).toEqual(runs.map(() => ({ status: 'completed', attempt: 0 })));
    // Each step of each run ran once.
    const steps = await sql`select run_id, step_id, count(*)::int as n from workflow_steps where run_id in (select id from workflow_runs where workflow = 'extract-document') group by 1, 2 having count(*) > 1`;
    expect(steps).toEqual([]);
  });

  it('keeps idempotency keys and maintenance mode across replicas', async () => {
    const [a, b] = replicas;
    const key = { 'idempotency-key': `replicas-${Date.now()}` };
    const first = await call(a, 'POST', '/v1/knowledge-bases', { name: 'once' }, key);
    const replay = await call(b, 'POST', '/v1/knowledge-bases', { name: 'once' }, key);
    expect(first.status).toBe(201);
    expect(replay.status).toBe(201);
    expect(replay.body.id).toBe(first.body.id);
    const reused = await call(b, 'POST', '/v1/knowledge-bases', { name: 'other' }, key);
    expect(reused.status).toBe(409);
    expect(reused.body.error.code).toBe('IDEMPOTENCY_KEY_REUSED');

    expect((await call(a, 'POST', '/admin/maintenance', { enabled: true, message: 'upgrading' })).status).toBe(200);
    try {
      // Each process reads the flag again after at most two seconds.
      const blocked = await until('maintenance on the other replica', async () => {
        const res = await call(b, 'POST', '/v1/knowledge-bases', { name: 'blocked' });
        return res.status === 503 ? res : null;
      }, 10_000);
      expect(blocked.body.error.code).toBe('SERVICE_UNAVAILABLE');
    } finally {
      expect((await call(a, 'POST', '/admin/maintenance', { enabled: false })).status).toBe(200);
    }
    await until('maintenance off on the other replica', async () => (await call(b, 'GET', '/v1/knowledge-bases')).status === 200, 10_000);
  });

  it('refuses to start a replica whose secrets differ from the others’', async () => {
    const other = await startReplica({ QUARRY_SECRET_KEY: 'a-different-secret-key-0002' }).catch((err: Error) => err);
    expect(other).toBeInstanceOf(Error);
    expect((other as Error).message).toContain('QUARRY_SECRET_KEY differs from the one other Quarry processes on this database use');
    const unset = await startReplica({ NEXTAUTH_SECRET: '' }).catch((err: Error) => err);
    expect((unset as Error).message).toContain('NEXTAUTH_SECRET is not set');
  });

  it('finishes an extraction and an indexing run of a replica killed mid-way, once each', async () => {
    const [a] = replicas;
    const pdfId = await upload(a, 'long.pdf', fixture('large/pdf2image-memory-error-test-400p.pdf'));
    const markdown = largeMarkdown(3 * 1024 * 1024, { sectionBytes: 2_000 });
    const mdId = await upload(a, 'long.md', markdown);
    const kb = await call(a, 'POST', '/v1/knowledge-bases', { name: 'takeover', chunking_strategy: { chunk_size: 256 } });
    expect(kb.status).toBe(201);

    // Mid-extraction: the run is claimed and the task has started.
    const extraction = await call(a, 'POST', '/v1/extractions', { file_id: pdfId });
    const extractionRun = await until('the extraction run to be claimed', async () => {
      const [run] = await sql`select r.id, r.lease_owner from workflow_runs r join extractions e on e.id = r.input->>'extraction_id'
        where r.workflow = 'extract-document' and e.id = ${extraction.body.id} and r.status = 'running' and e.status = 'processing'`;
      return run;
    });
    const first = holderOf(extractionRun.lease_owner);
    await first.stop('SIGKILL');
    replicas = replicas.filter((r) => r !== first);
    const survivor = replicas[0];
    const run = await until('the survivor to finish the extraction run', async () => {
      const [row] = await sql`select status, attempt, last_error from workflow_runs where id = ${extractionRun.id}`;
      return row.status === 'completed' || row.status === 'failed' ? row : null;
    }, 300_000);
    expect(run).toMatchObject({ status: 'completed', attempt: 1 });
    expect(run.last_error).toContain('interrupted');
    const finished = await call(survivor, 'GET', `/v1/extractions/${extraction.body.id}`);
    expect(finished.body).toMatchObject({ status: 'completed', total_pages: 400 });
    const completedEvents = await sql`select count(*)::int as n from events where type = 'extraction.completed' and data->>'extraction_id' = ${extraction.body.id}`;
    expect(completedEvents[0].n).toBe(1);

    // A new replica joins; then the one running the indexing is killed mid-way.
    replicas.push(await startReplica());
    const added = await call(survivor, 'POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { file_id: mdId, extract: {} });
    expect(added.status, JSON.stringify(added.body)).toBe(201);
    const indexingRun = await until('the indexing run to be claimed', async () => {
      const [row] = await sql`select r.id, r.lease_owner from workflow_runs r join kb_documents d on d.id = r.input->>'document_id'
        where r.workflow = 'index-document' and d.id = ${added.body.id} and r.status = 'running' and d.status = 'indexing'`;
      return row;
    });
    // Mid-write: every replica shows how many chunks are written so far.
    const midway = await until('chunks being written', async () => {
      const res = await call(replicas[replicas.length - 1], 'GET', `/v1/knowledge-bases/${kb.body.id}/documents/${added.body.id}`);
      const progress = res.body.indexing_progress;
      return progress && progress.chunks_written > 0 && progress.chunks_written < progress.chunk_total ? progress : null;
    });
    expect(midway.chunk_total).toBeGreaterThan(1000);
    const second = holderOf(indexingRun.lease_owner);
    await second.stop('SIGKILL');
    replicas = replicas.filter((r) => r !== second);
    const doc = await until('the document to be indexed by the survivor', async () => {
      const res = await call(replicas[0], 'GET', `/v1/knowledge-bases/${kb.body.id}/documents/${added.body.id}`);
      return res.body.status === 'indexed' || res.body.status === 'failed' ? res.body : null;
    }, 300_000);
    expect(doc.status, JSON.stringify(doc.error)).toBe('indexed');
    const indexRun = await until('the indexing run to end', async () => {
      const [row] = await sql`select status, attempt from workflow_runs where id = ${indexingRun.id}`;
      return row.status === 'completed' || row.status === 'failed' ? row : null;
    }, 60_000);
    expect(indexRun).toMatchObject({ status: 'completed', attempt: 1 });
    // Nothing twice: the stored chunks are the document's chunks, once each, with one posting each per term.
    const [chunks] = await sql`select count(*)::int as n, count(distinct ordinal)::int as ordinals, count(distinct chunk_index)::int as indexes,
      count(distinct generation)::int as generations from kb_chunks where document_id = ${added.body.id}`;
    expect(doc.chunk_count).toBeGreaterThan(1000);
    expect(chunks).toEqual({ n: doc.chunk_count, ordinals: doc.chunk_count, indexes: doc.chunk_count, generations: 1 });
    expect(doc.chunk_count).toBe(midway.chunk_total);
    expect(doc.indexing_progress).toBeUndefined();
    expect(await sql`select 1 from kb_indexing_progress where document_id = ${added.body.id}`).toHaveLength(0);
    const hit = await call(replicas[0], 'POST', `/v1/knowledge-bases/${kb.body.id}/search`, { query: 'Section 7', top_k: 3 });
    expect(hit.status).toBe(200);
    expect(hit.body.chunks.length).toBeGreaterThan(0);
  }, 600_000);
});
