import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { extractionDocumentSchema } from '@/lib/api/schemas/documents';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { blankPng } from '@/test/support/hostile-images';

/**
 * Extraction through the production server: real uploads, the embedded runner, worker processes,
 * hostile files, and a kill -9 in the middle of a task.
 */
const ADMIN = 'sk_test_extractionserveradminkey00000001';
const FINAL = new Set(['completed', 'failed']);
const KNOWN_CODES = new Set([
  'OCR_FAILED',
  'ENCRYPTED_DOCUMENT',
  'CORRUPT_DOCUMENT',
  'EXTRACTION_TIMEOUT',
  'TOO_MANY_PAGES',
  'RESOURCE_LIMIT_EXCEEDED',
  'INTERNAL_ERROR',
]);

let dataDir: string;
let server: RunningServer;
// Status polling of some sixty tasks would reach the per-key rate limit, which this file does not test.
const env = () => ({ QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, DATABASE_URL: '', QUARRY_EXTRACTION_TIMEOUT_S: '90', QUARRY_RATE_LIMIT_PER_MINUTE: '100000' });
const auth = { authorization: `Bearer ${ADMIN}` };

async function upload(base: string, file: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(fs.readFileSync(file))]), path.basename(file));
  const res = await fetch(`${base}/v1/files`, { method: 'POST', headers: auth, body: form });
  expect(res.status, file).toBe(201);
  return (await res.json()).id;
}

async function extract(base: string, fileId: string, mode = 'normal'): Promise<string> {
  const res = await fetch(`${base}/v1/extractions`, {
    method: 'POST',
    headers: { ...auth, 'content-type': 'application/json' },
    body: JSON.stringify({ file_id: fileId, mode }),
  });
  expect(res.status).toBe(201);
  return (await res.json()).id;
}

async function status(base: string, id: string) {
  const res = await fetch(`${base}/v1/extractions/${id}`, { headers: auth });
  expect(res.status).toBe(200);
  return res.json();
}

/** A completed extraction's document model: served, and valid by the endpoint's declared schema. */
async function expectDocument(base: string, id: string, doc: string) {
  const res = await fetch(`${base}/v1/extractions/${id}/document`, { headers: auth });
  const body = await res.json();
  expect(res.status, `${path.basename(doc)}: ${JSON.stringify(body).slice(0, 300)}`).toBe(200);
  const parsed = extractionDocumentSchema.safeParse(body);
  expect(parsed.success, `${path.basename(doc)}: ${parsed.error?.message.slice(0, 300)}`).toBe(true);
  expect(body.extraction_id).toBe(id);
  expect(body.blocks.length, path.basename(doc)).toBeGreaterThan(0);
}

async function waitFor(base: string, ids: string[], timeoutMs: number) {
  const deadline = Date.now() + timeoutMs;
  const results = new Map<string, any>();
  while (Date.now() < deadline) {
    for (const id of ids) if (!results.has(id)) {
      const s = await status(base, id);
      if (FINAL.has(s.status)) results.set(id, s);
    }
    if (results.size === ids.length) return results;
    const health = await fetch(`${base}/health`);
    expect(health.status).toBe(200);
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`extractions still unfinished after ${timeoutMs} ms: ${ids.filter((i) => !results.has(i)).join(', ')}`);
}

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-extract-http-'));
  server = await runServer({ env: env() });
}, 300_000);

afterAll(async () => {
  await server?.stop('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('extraction through the server', () => {
  it('extracts every PDF and DOCX fixture to non-empty Markdown', async () => {
    const docs = [
      ...fs.readdirSync(path.join(FIXTURES_DIR, 'pdf')).filter((f) => f.endsWith('.pdf')).map((f) => path.join(FIXTURES_DIR, 'pdf', f)),
      ...fs.readdirSync(path.join(FIXTURES_DIR, 'docx')).filter((f) => f.endsWith('.docx')).map((f) => path.join(FIXTURES_DIR, 'docx', f)),
    ];
    const ids = new Map<string, string>();
    for (const doc of docs) ids.set(await extract(server.baseUrl, await upload(server.baseUrl, doc)), doc);
    const results = await waitFor(server.baseUrl, [...ids.keys()], 240_000);
    for (const [id, doc] of ids) {
      const result = results.get(id);
      expect(result.status, `${path.basename(doc)}: ${JSON.stringify(result.error)}`).toBe('completed');
      expect(result.markdown.trim().length, path.basename(doc)).toBeGreaterThan(50);
      expect(result.total_pages).toBeGreaterThanOrEqual(1);
      expect(result.completed_at).toBeTruthy();
      await expectDocument(server.baseUrl, id, doc);
    }
  }, 300_000);

  it('extracts every file of formats/, office/, ocr-more/ and large/ to non-empty Markdown and a document model', async () => {
    const folder = (name: string) => fs.readdirSync(path.join(FIXTURES_DIR, name), { withFileTypes: true }).filter((e) => e.isFile()).map((e) => path.join(FIXTURES_DIR, name, e.name));
    const docs = [...folder('formats'), ...folder('formats/same-content'), ...folder('office'), ...folder('ocr-more'), ...folder('large')].filter(
      (f) => !f.endsWith('.md') || f.endsWith('eng_spa_mult.md'),
    );
    expect(docs.length).toBeGreaterThan(40);
    const ids = new Map<string, string>();
    for (const doc of docs) {
      // The long born-digital PDFs are read from their text layer; everything else as the API's default.
      const mode = doc.includes(`${path.sep}large${path.sep}`) && doc.endsWith('.pdf') ? 'simple' : 'normal';
      ids.set(await extract(server.baseUrl, await upload(server.baseUrl, doc), mode), doc);
    }
    const results = await waitFor(server.baseUrl, [...ids.keys()], 400_000);
    for (const [id, doc] of ids) {
      const result = results.get(id);
      expect(result.status, `${path.basename(doc)}: ${JSON.stringify(result.error)}`).toBe('completed');
      expect(result.markdown.trim().length, path.basename(doc)).toBeGreaterThan(20);
      await expectDocument(server.baseUrl, id, doc);
    }
  }, 480_000);

  it('ends every hostile or broken file completed or failed with a known code, and stays up', async () => {
    const bad = fs.readdirSync(path.join(FIXTURES_DIR, 'bad')).map((f) => path.join(FIXTURES_DIR, 'bad', f));
    const ids = new Map<string, string>();
    for (const doc of bad) ids.set(await extract(server.baseUrl, await upload(server.baseUrl, doc)), doc);
    const results = await waitFor(server.baseUrl, [...ids.keys()], 200_000);
    for (const [id, doc] of ids) {
      const result = results.get(id);
      if (result.status === 'failed') {
        expect(KNOWN_CODES.has(result.error.code), `${path.basename(doc)}: ${result.error.code}`).toBe(true);
        expect(result.error.message.length).toBeGreaterThan(10);
      } else {
        expect(typeof result.markdown).toBe('string');
      }
    }
    const encrypted = results.get([...ids].find(([, d]) => d.endsWith('issue6010_1.pdf'))![0]);
    expect(encrypted).toMatchObject({ status: 'failed', error: { code: 'ENCRYPTED_DOCUMENT' } });
  }, 260_000);

  it('refuses an image bomb at once with RESOURCE_LIMIT_EXCEEDED and goes on serving', async () => {
    // A valid 1.8 MB PNG of 20000 × 20000 grey pixels: gigabytes once an OCR engine decodes it.
    const bomb = path.join(dataDir, 'bomb.png');
    fs.writeFileSync(bomb, await blankPng(20_000, 20_000));
    const bombId = await extract(server.baseUrl, await upload(server.baseUrl, bomb));
    const started = Date.now();
    const failed = (await waitFor(server.baseUrl, [bombId], 60_000)).get(bombId);
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(failed).toMatchObject({ status: 'failed', error: { code: 'RESOURCE_LIMIT_EXCEEDED' } });
    expect(failed.error.message).toContain('The image is 20000 × 20000 pixels (400 megapixels); at most 100 megapixels');
    const next = await extract(server.baseUrl, await upload(server.baseUrl, path.join(FIXTURES_DIR, 'ocr', 'phototest.tif')));
    const done = (await waitFor(server.baseUrl, [next], 60_000)).get(next);
    expect(done.status).toBe('completed');
    expect(done.markdown).toContain('quick brown dog');
  }, 120_000);

  it('finishes a task interrupted by kill -9 after a restart; none is left processing', async () => {
    const fileId = await upload(server.baseUrl, path.join(FIXTURES_DIR, 'pdf', 'ocr_test.pdf'));
    const id = await extract(server.baseUrl, fileId, 'advanced');
    const deadline = Date.now() + 60_000;
    while ((await status(server.baseUrl, id)).status === 'pending') {
      if (Date.now() > deadline) throw new Error('the task never started');
      await new Promise((r) => setTimeout(r, 50));
    }
    await server.stop('SIGKILL');
    server = await runServer({ env: env() });
    const results = await waitFor(server.baseUrl, [id], 120_000);
    expect(results.get(id).status).toBe('completed');
    expect(results.get(id).markdown.length).toBeGreaterThan(0);
  }, 240_000);
});
