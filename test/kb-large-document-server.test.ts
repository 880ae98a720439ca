import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { largeMarkdown, sectionHeading } from '@/test/support/large-markdown';

/**
 * A 10 MB Markdown document indexed by the production server on the embedded database, while
 * `/health` is asked every 250 ms: chunking, embedding and keyword analysis run off the main
 * thread and the chunks are written in short statements, so every answer comes within a second.
 * The work in the indexing thread grows with the document's size; the writing grows with its
 * number of chunks (PGlite maintains the HNSW index at several milliseconds per chunk), so the
 * sections and chunk_size are large enough to keep the chunks in the low thousands and the test
 * under a minute.
 */
const ADMIN = 'sk_test_largedocumentserveradmin0000001';
const auth = { authorization: `Bearer ${ADMIN}` };
const DOCUMENT_BYTES = 10 * 1024 * 1024;
const SECTION_BYTES = 8_000;
const CHUNK_SIZE = 2_048;
const HEALTH_EVERY_MS = 250;
const HEALTH_LIMIT_MS = 1_000;

let dataDir: string;
let server: RunningServer;

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
    signal: AbortSignal.timeout(120_000),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Asks /health every HEALTH_EVERY_MS until stopped: each answer's time (infinite for an error or no answer within 10 s). */
function pollHealth(): { stop(): Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      try {
        const res = await fetch(`${server.baseUrl}/health`, { signal: AbortSignal.timeout(10_000) });
        await res.arrayBuffer();
        times.push(res.ok ? performance.now() - started : Number.POSITIVE_INFINITY);
      } catch {
        times.push(Number.POSITIVE_INFINITY);
      }
      await sleep(HEALTH_EVERY_MS);
    }
  })();
  return {
    async stop() {
      running = false;
      await loop;
      return times;
    },
  };
}

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-kb-large-'));
  server = await runServer({ env: { QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, DATABASE_URL: '' } });
}, 600_000);

afterAll(async () => {
  // A server that stopped answering would not act on SIGTERM either.
  await Promise.race([server?.stop(), sleep(15_000).then(() => server?.stop('SIGKILL'))]);
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('a large document on the embedded database', () => {
  it('indexes 10 MB of Markdown while /health keeps answering within a second', async () => {
    const markdown = largeMarkdown(DOCUMENT_BYTES, { sectionBytes: SECTION_BYTES });
    const form = new FormData();
    form.set('file', new Blob([markdown]), 'large.md');
    const uploaded = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth, body: form });
    expect(uploaded.status).toBe(201);
    const fileId = (await uploaded.json()).id;
    const extraction = await call('POST', '/v1/extractions', { file_id: fileId, mode: 'simple' });
    expect(extraction.status).toBe(201);
    for (;;) {
      const res = await fetch(`${server.baseUrl}/v1/files/${fileId}/extractions`, { headers: auth });
      const status = (await res.json()).items?.[0]?.status;
      if (status === 'failed') throw new Error('the extraction failed');
      if (status === 'completed') break;
      await sleep(250);
    }
    const kb = await call('POST', '/v1/knowledge-bases', { name: 'large', chunking_strategy: { chunk_size: CHUNK_SIZE } });
    expect(kb.status).toBe(201);

    const health = pollHealth();
    const started = performance.now();
    const added = await call('POST', `/v1/knowledge-bases/${kb.body.id}/documents`, { file_id: fileId });
    expect(added.status).toBe(201);
    let doc: { status: string; chunk_count: number; error?: unknown };
    do {
      await sleep(500);
      doc = (await call('GET', `/v1/knowledge-bases/${kb.body.id}/documents/${added.body.id}`)).body;
    } while ((doc.status === 'pending' || doc.status === 'indexing') && performance.now() - started < 180_000);
    const indexingMs = performance.now() - started;
    const times = await health.stop();

    expect(doc, JSON.stringify(doc.error)).toMatchObject({ status: 'indexed' });
    expect(doc.chunk_count).toBeGreaterThan(2_000);
    // Polled all along: at least one answer per two seconds of indexing.
    expect(times.length).toBeGreaterThan(indexingMs / 2_000);
    const slowest = Math.max(...times);
    expect(slowest, `slowest /health answer during ${Math.round(indexingMs)} ms of indexing`).toBeLessThan(HEALTH_LIMIT_MS);

    const hit = await call('POST', `/v1/knowledge-bases/${kb.body.id}/hybrid-search`, { query: 'Section 777', top_k: 1 });
    expect(hit.status).toBe(200);
    expect(hit.body.chunks[0].content).toContain(sectionHeading(777));
  }, 300_000);
});
