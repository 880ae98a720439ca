import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import * as hybridRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import * as searchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import { resetRerankConfig } from '@/lib/rerank';
import { closeRerankThreads } from '@/lib/rerank/local';
import { useTestApp } from '@/test/support/app';
import { writeTinyCrossEncoder } from '@/test/support/embeddings-tiny-model';
import { addDoc, createKb, drainWorkflows, extractedFile } from '@/test/support/knowledge-bases';

/*
 * Reranking as a second stage of both searches: against a real reranking server on loopback that
 * speaks the Cohere (and TEI) /rerank protocol and scores passages by a rule the test knows, and
 * against a tiny but real cross-encoder run by Transformers.js in the rerank thread.
 */

const app = useTestApp();

/**
 * Passages made of the tiny cross-encoder's vocabulary; "rain" counts decide the HTTP reranker's
 * order. Each holds "note", so a query with it finds all of them on both sides of hybrid search.
 */
const PASSAGES = [
  'note: the weather forecast says sunny',
  'note: rain rain rain the forecast',
  'note: the invoice payment',
  'note: rain the weather',
  'note: the finance team approves payment',
  'note: rain rain the weather forecast',
];

let kbId: string;

interface Rerankd {
  url: string;
  requests: Array<{ path: string; headers: http.IncomingHttpHeaders; body: Record<string, unknown> }>;
  /** Answers 503 to this many requests first. */
  failFirst: number;
  /** Never answers. */
  hang: boolean;
  close(): Promise<void>;
}

const rainCount = (text: string) => text.split(/\s+/).filter((w) => w === 'rain').length;

/** A reranking server: relevance = occurrences of "rain" / 10, answered best first as Cohere does (or TEI's array). */
async function startReranker(): Promise<Rerankd> {
  const state: Rerankd = { url: '', requests: [], failFirst: 0, hang: false, close: async () => {} };
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as Record<string, unknown>;
      state.requests.push({ path: req.url ?? '', headers: req.headers, body });
      if (state.hang) return;
      if (state.failFirst > 0) {
        state.failFirst--;
        res.writeHead(503, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'model is loading' }));
        return;
      }
      const texts = (body.documents ?? body.texts) as string[];
      const scored = texts.map((t, index) => ({ index, score: rainCount(t) / 10 })).sort((a, b) => b.score - a.score);
      res.writeHead(200, { 'content-type': 'application/json' });
      if (body.texts) res.end(JSON.stringify(scored));
      else res.end(JSON.stringify({ id: 'r1', results: scored.map((s) => ({ index: s.index, relevance_score: s.score })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return state;
}

let reranker: Rerankd;
const saved = { ...process.env };

function configure(env: Record<string, string>) {
  for (const key of Object.keys(process.env)) if (key.startsWith('QUARRY_RERANK_')) delete process.env[key];
  Object.assign(process.env, env);
  resetRerankConfig();
}

async function search(body: Record<string, unknown>) {
  return app.call(searchRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/search`, params: { kb_id: kbId }, body });
}
async function hybrid(body: Record<string, unknown>) {
  return app.call(hybridRoute.POST, { method: 'POST', path: `/v1/knowledge-bases/${kbId}/hybrid-search`, params: { kb_id: kbId }, body });
}

beforeAll(async () => {
  reranker = await startReranker();
  kbId = await createKb(app, { name: 'rerank', chunking_strategy: { type: 'paragraph' } });
  for (const [i, text] of PASSAGES.entries()) {
    const { fileId } = await extractedFile(app, `p${i}.md`, `${text}\n`);
    expect((await addDoc(app, kbId, { file_id: fileId })).status).toBe(201);
  }
  await drainWorkflows(app);
});

afterEach(() => {
  reranker.requests.length = 0;
  reranker.failFirst = 0;
  reranker.hang = false;
});

afterAll(async () => {
  await reranker.close();
  await closeRerankThreads();
  for (const key of Object.keys(process.env)) if (key.startsWith('QUARRY_RERANK_')) delete process.env[key];
  Object.assign(process.env, saved);
  resetRerankConfig();
});

describe('reranking', () => {
  it('is refused with RERANK_NOT_CONFIGURED when the server has no reranker, and off by default', async () => {
    configure({});
    for (const res of [await search({ query: 'rain forecast', rerank: true }), await hybrid({ query: 'rain forecast', rerank: { top_n: 5 } })]) {
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('RERANK_NOT_CONFIGURED');
      expect(res.body.error.message).toContain('QUARRY_RERANK_URL');
    }
    const plain = await search({ query: 'rain forecast', rerank: false });
    expect(plain.status).toBe(200);
    expect(plain.body.chunks[0]).not.toHaveProperty('rerank_score');
  });

  it('reorders the best top_n candidates by the reranker of a Cohere-style endpoint and adds rerank_score', async () => {
    configure({ QUARRY_RERANK_URL: reranker.url, QUARRY_RERANK_MODEL: 'rerank-test', QUARRY_RERANK_API_KEY: 'secret-key' });
    for (const run of [search, hybrid]) {
      reranker.requests.length = 0;
      const res = await run({ query: 'weather forecast note', top_k: 3, rerank: { top_n: 6 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      expect(reranker.requests).toHaveLength(1);
      const sent = reranker.requests[0];
      expect(sent.path).toBe('/v1/rerank');
      expect(sent.headers.authorization).toBe('Bearer secret-key');
      expect(sent.body).toMatchObject({ model: 'rerank-test', query: 'weather forecast note' });
      const documents = sent.body.documents as string[];
      expect(documents).toHaveLength(6);
      // The three with most "rain" among the six sent, best first, each with its reranker score.
      const expected = documents.map((d) => rainCount(d)).sort((a, b) => b - a).slice(0, 3);
      expect(res.body.chunks.map((c: { content: string }) => rainCount(c.content))).toEqual(expected);
      for (const c of res.body.chunks) expect(c.rerank_score).toBeCloseTo(rainCount(c.content) / 10, 9);
      expect(res.body.total).toBe(3);
    }
  });

  it('reranks the default 20 candidates (at least top_k) with rerank: true', async () => {
    configure({ QUARRY_RERANK_URL: reranker.url });
    const res = await hybrid({ query: 'note', top_k: 2, rerank: true });
    expect(res.status).toBe(200);
    expect((reranker.requests[0].body.documents as string[]).length).toBe(PASSAGES.length);
    expect(reranker.requests[0].body).not.toHaveProperty('model');
    expect(res.body.chunks.map((c: { content: string }) => c.content.trim())).toEqual(['note: rain rain rain the forecast', 'note: rain rain the weather forecast']);
  });

  it('speaks the Text Embeddings Inference shape too', async () => {
    configure({ QUARRY_RERANK_URL: `${reranker.url}/rerank`, QUARRY_RERANK_FORMAT: 'tei' });
    const res = await search({ query: 'forecast note', top_k: 1, rerank: { top_n: 6 } });
    expect(res.status).toBe(200);
    expect(reranker.requests[0].path).toBe('/v1/rerank');
    expect(reranker.requests[0].body).toMatchObject({ query: 'forecast note', texts: expect.any(Array) });
    expect(res.body.chunks[0].content.trim()).toBe('note: rain rain rain the forecast');
  });

  it('retries a reranker that is not ready, and fails with RERANK_FAILED when it never answers', async () => {
    configure({ QUARRY_RERANK_URL: reranker.url, QUARRY_RERANK_MAX_RETRIES: '2' });
    reranker.failFirst = 2;
    const retried = await search({ query: 'rain', top_k: 1, rerank: true });
    expect(retried.status, JSON.stringify(retried.body)).toBe(200);
    expect(reranker.requests).toHaveLength(3);

    reranker.requests.length = 0;
    reranker.failFirst = 10;
    const refused = await search({ query: 'rain', rerank: true });
    expect(refused.status).toBe(502);
    expect(refused.body.error.code).toBe('RERANK_FAILED');
    expect(refused.body.error.message).toMatch(/answered 503: model is loading \(gave up after 3 attempts\)/);

    configure({ QUARRY_RERANK_URL: reranker.url, QUARRY_RERANK_MAX_RETRIES: '0', QUARRY_RERANK_TIMEOUT_S: '0.3' });
    reranker.hang = true;
    const slow = await search({ query: 'rain', rerank: true });
    expect(slow.status).toBe(502);
    expect(slow.body.error.message).toContain('did not answer within 0.3 s');
  });

  it('validates the rerank option', async () => {
    configure({ QUARRY_RERANK_URL: reranker.url });
    for (const rerank of ['yes', { top_n: 0 }, { top_n: 101 }, { top_n: 2.5 }, { other: 1 }]) {
      const res = await search({ query: 'rain', rerank });
      expect(res.status, JSON.stringify(rerank)).toBe(400);
      expect(res.body.error.code).toBe('INVALID_REQUEST');
    }
    expect(reranker.requests).toHaveLength(0);
  });

  it('reranks with a local cross-encoder in the rerank thread', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-cross-encoder-'));
    const model = writeTinyCrossEncoder(root, { invoice: 2, payment: 1.5, rain: -1, sunny: 0.5 });
    try {
      configure({ QUARRY_RERANK_MODEL_DIR: root, QUARRY_RERANK_MODEL: model.modelId });
      const res = await hybrid({ query: 'note weather', top_k: 6, rerank: { top_n: 6 } });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      const expected = PASSAGES.map((p) => model.expected('note weather', p)).sort((a, b) => b - a);
      expect(res.body.chunks.map((c: { rerank_score: number }) => c.rerank_score)).toEqual(expected.map((e) => expect.closeTo(e, 5)));
      expect(res.body.chunks[0].content.trim()).toBe('note: the invoice payment');

      configure({ QUARRY_RERANK_MODEL_DIR: root, QUARRY_RERANK_MODEL: 'no/such-model' });
      const missing = await search({ query: 'rain', rerank: true });
      expect(missing.status).toBe(400);
      expect(missing.body.error.code).toBe('RERANK_NOT_CONFIGURED');
      expect(missing.body.error.message).toContain('no/such-model');
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
    }
  }, 60_000);
});
