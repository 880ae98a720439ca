import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureBuild } from '@/scripts/lib/ensure-build.mjs';
import { runServer, type RunningServer } from '@/scripts/lib/run-server.mjs';
import { FIXTURES_DIR } from '@/test/support/fixtures';

/**
 * Knowledge bases through the production server: real documents uploaded and extracted, indexed
 * by the background runner, searched over HTTP; then the file deletion cascade.
 */
const ADMIN = 'sk_test_knowledgebaseserveradmin00000001';
const auth = { authorization: `Bearer ${ADMIN}` };

let dataDir: string;
let server: RunningServer;

async function call(method: string, route: string, body?: unknown): Promise<{ status: number; body: any }> {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: body === undefined ? auth : { ...auth, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : undefined };
}

async function until<T>(what: string, fn: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const value = await fn();
    if (value !== undefined) return value;
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`timed out waiting for ${what}`);
}

async function uploadAndExtract(relative: string): Promise<string> {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(fs.readFileSync(path.join(FIXTURES_DIR, relative)))]), path.basename(relative));
  const uploaded = await fetch(`${server.baseUrl}/v1/files`, { method: 'POST', headers: auth, body: form });
  expect(uploaded.status).toBe(201);
  const fileId = (await uploaded.json()).id;
  const extraction = await call('POST', '/v1/extractions', { file_id: fileId, mode: 'simple' });
  expect(extraction.status).toBe(201);
  await until(`extraction of ${relative}`, async () => {
    const s = (await call('GET', `/v1/extractions/${extraction.body.id}`)).body;
    if (s.status === 'failed') throw new Error(`extraction failed: ${JSON.stringify(s.error)}`);
    return s.status === 'completed' ? s : undefined;
  });
  return fileId;
}

beforeAll(async () => {
  ensureBuild({ quiet: true });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-kb-server-'));
  server = await runServer({ env: { QUARRY_ADMIN_KEY: ADMIN, QUARRY_DATA_DIR: dataDir, DATABASE_URL: '' } });
}, 600_000);

afterAll(async () => {
  await server?.stop();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('knowledge bases over HTTP', () => {
  it('indexes extracted documents in the background and finds them by semantic and hybrid search', async () => {
    const docx = await uploadAndExtract('docx/word_sample.docx');
    const pdf = await uploadAndExtract('pdf/code_and_formula.pdf');

    const kb = await call('POST', '/v1/knowledge-bases', { name: 'fixtures', description: 'real documents' });
    expect(kb.status).toBe(201);
    const kbId = kb.body.id;
    const added = await Promise.all([docx, pdf].map((file_id) => call('POST', `/v1/knowledge-bases/${kbId}/documents`, { file_id })));
    expect(added.map((r) => r.status)).toEqual([201, 201]);

    const indexed = await until('indexing', async () => {
      const list = (await call('GET', `/v1/knowledge-bases/${kbId}/documents?status=indexed`)).body;
      return list.total === 2 ? list : undefined;
    });
    expect(indexed.items.every((d: { chunk_count: number }) => d.chunk_count > 0)).toBe(true);
    const detail = (await call('GET', `/v1/knowledge-bases/${kbId}`)).body;
    expect(detail.document_count).toBe(2);
    expect(detail.chunk_count).toBe(indexed.items.reduce((s: number, d: { chunk_count: number }) => s + d.chunk_count, 0));

    // Search for text taken from one of the chunks: it comes back first.
    const chunks = (await call('POST', `/v1/knowledge-bases/${kbId}/search`, { query: 'code', top_k: 100 })).body.chunks;
    expect(chunks.length).toBe(detail.chunk_count);
    const target = chunks.find((c: { content: string }) => c.content.split(/\s+/).length > 12);
    const query = target.content.split(/\s+/).slice(0, 12).join(' ');
    const semantic = await call('POST', `/v1/knowledge-bases/${kbId}/search`, { query });
    expect(semantic.status).toBe(200);
    expect(semantic.body.chunks[0].id).toBe(target.id);
    const hybrid = await call('POST', `/v1/knowledge-bases/${kbId}/hybrid-search`, { query });
    expect(hybrid.status).toBe(200);
    expect(hybrid.body.chunks[0]).toMatchObject({ id: target.id, keyword_score: 1 });

    // Deleting a file takes its document and chunks out of the knowledge base.
    expect((await call('DELETE', `/v1/files/${pdf}`)).status).toBe(204);
    const after = (await call('GET', `/v1/knowledge-bases/${kbId}`)).body;
    expect(after.document_count).toBe(1);
    const remaining = (await call('POST', `/v1/knowledge-bases/${kbId}/search`, { query: 'code', top_k: 100 })).body.chunks;
    expect(remaining.length).toBe(after.chunk_count);
    expect(remaining.every((c: { document_id: string }) => c.document_id === added[0].body.id)).toBe(true);
  }, 300_000);
});
