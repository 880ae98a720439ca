import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  QuarryClient,
  QuarryError,
  QuarryJobFailedError,
  verifyWebhook,
  WebhookVerificationError,
  type WaitProgress,
} from '@/clients/typescript/src/index';
import { GENERATED_FILE, generateTypes } from '@/clients/typescript/scripts/generate-types';
import { startTestServer } from '@/test/support/test-server';
import { FIXTURES_DIR, fixture } from '@/test/support/fixtures';
import { startReceiver } from '@/test/support/receiver';

/**
 * The typed client (clients/typescript) against the production server over HTTP: its generated
 * types match the served OpenAPI document, and each helper does what a caller relies on.
 */
const ADMIN = 'sk_test_typedclientadministratorkey00001';
const PDF = path.join(FIXTURES_DIR, 'pdf', 'code_and_formula.pdf');

let server: Awaited<ReturnType<typeof startTestServer>>;
let quarry: QuarryClient;

beforeAll(async () => {
  server = await startTestServer('client', ADMIN);
  quarry = new QuarryClient({ baseUrl: server.baseUrl, apiKey: ADMIN });
}, 600_000);

afterAll(async () => {
  await server?.stop();
});

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

describe('generated types', () => {
  it('match the OpenAPI document the server serves (a route changed without regenerating fails here)', async () => {
    const res = await fetch(`${server.baseUrl}/v1/openapi.json`);
    expect(res.status).toBe(200);
    const generated = await generateTypes(await res.json());
    const committed = fs.readFileSync(GENERATED_FILE, 'utf8');
    // Not toBe() on the whole text: a 185 KB diff helps nobody. A few changed lines and the command do.
    const lines = (text: string) => new Set(text.split('\n').map((l) => l.trim()));
    const [now, then] = [lines(generated), lines(committed)];
    const changed = [...[...now].filter((l) => !then.has(l)).map((l) => `+ ${l}`), ...[...then].filter((l) => !now.has(l)).map((l) => `- ${l}`)];
    expect(
      generated === committed,
      `clients/typescript/src/generated/openapi.ts is stale: run \`npm run generate -w @quarry/client\`\n${changed.slice(0, 12).join('\n')}`,
    ).toBe(true);
  });
});

describe('uploads', () => {
  it('uploads from a path with tags, metadata and the one-step extract part, reporting bytes sent', async () => {
    const sent: number[] = [];
    const file = await quarry.uploadFile(PDF, {
      tags: ['client', 'path'],
      metadata: { source: 'client test' },
      extract: 'simple',
      onProgress: (n, total) => {
        sent.push(n);
        expect(total).toBe(fs.statSync(PDF).size);
      },
    });
    const bytes = fs.readFileSync(PDF);
    expect(file).toMatchObject({ filename: 'code_and_formula.pdf', content_type: 'application/pdf', size: bytes.length, tags: ['client', 'path'] });
    expect(file.metadata).toEqual({ source: 'client test' });
    expect(file.sha256).toBe(sha256(bytes));
    expect(file.extraction).toMatchObject({ mode: 'simple', status: 'pending' });
    expect(sent.at(-1)).toBe(bytes.length);
    const stored = await quarry.getFile(file.id);
    expect(stored.sha256).toBe(file.sha256);
  });

  it('uploads from a Node stream, a web stream and bytes without knowing their size', async () => {
    const text = Buffer.from('# Streamed\n\nUploaded from a stream, in pieces.\n'.repeat(200));
    const pieces = Array.from({ length: 10 }, (_, i) => text.subarray((i * text.length) / 10, ((i + 1) * text.length) / 10));
    const progress: [number, number | undefined][] = [];
    const fromNode = await quarry.uploadFile(Readable.from(pieces), {
      filename: 'streamed "notes".md',
      onProgress: (n, total) => progress.push([n, total]),
    });
    expect(fromNode).toMatchObject({ filename: 'streamed "notes".md', size: text.length, sha256: sha256(text) });
    expect(progress.at(-1)).toEqual([text.length, undefined]);

    const fromFs = await quarry.uploadFile(fs.createReadStream(PDF), { tags: 'fs-stream' });
    expect(fromFs).toMatchObject({ filename: 'code_and_formula.pdf', size: fs.statSync(PDF).size, tags: ['fs-stream'] });

    const fromWeb = await quarry.uploadFile(new Blob([text]).stream(), { filename: 'web.md' });
    expect(fromWeb).toMatchObject({ filename: 'web.md', sha256: sha256(text) });
    const fromBytes = await quarry.uploadFile(new Uint8Array(text), { filename: 'bytes.md', dedupe: true });
    expect(fromBytes).toMatchObject({ id: fromNode.id, deduplicated: true });

    await expect(quarry.uploadFile(Readable.from(pieces))).rejects.toThrow(/options\.filename/);
  });
});

describe('waiting', () => {
  it('waits for an extraction, calling the progress callback until it completes', async () => {
    const file = await quarry.uploadFile(path.join(FIXTURES_DIR, 'large', 'pdf2image-memory-error-test-400p.pdf'), { extract: 'simple' });
    const seen: WaitProgress[] = [];
    const done = await quarry.waitForExtraction(file.extraction!.id, { intervalMs: 100, onProgress: (p) => seen.push(p), timeoutMs: 120_000 });
    expect(done).toMatchObject({ id: file.extraction!.id, status: 'completed', total_pages: 400 });
    expect(done.markdown).toContain('<!-- page 400 -->');
    expect(seen.length).toBeGreaterThan(1);
    expect(seen.at(-1)).toEqual({ stage: 'completed', percent: 100 });
    const percents = seen.map((p) => p.percent ?? 0);
    expect(percents).toEqual([...percents].sort((a, b) => a - b));
  }, 150_000);

  it('reads the document model of a completed extraction, typed by the generated schema', async () => {
    const file = await quarry.uploadFile(PDF, { extract: 'simple' });
    const early = await quarry.getExtractionDocument(file.extraction!.id).catch((e: unknown) => e);
    // Either still running (409) or already done: never another error.
    if (early instanceof QuarryError) expect(early).toMatchObject({ status: 409, code: 'EXTRACTION_NOT_COMPLETED' });
    await quarry.waitForExtraction(file.extraction!.id, { intervalMs: 100, timeoutMs: 60_000 });
    const model = await quarry.getExtractionDocument(file.extraction!.id);
    expect(model).toMatchObject({ extraction_id: file.extraction!.id, version: 1 });
    const pages = model.blocks.filter((b) => b.type === 'section' && b.kind === 'page');
    expect(pages.map((b) => (b.type === 'section' ? b.page : undefined))).toEqual([1, 2]);
  }, 90_000);

  it('rejects with the failure of an extraction that fails', async () => {
    const file = await quarry.uploadFile(path.join(FIXTURES_DIR, 'bad', 'aes-256-r6.pdf'), { extract: true });
    const err = await quarry.waitForExtraction(file.extraction!.id, { intervalMs: 100, timeoutMs: 60_000 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(QuarryJobFailedError);
    expect((err as QuarryJobFailedError).code).toBe('ENCRYPTED_DOCUMENT');
    expect((err as QuarryJobFailedError).job).toMatchObject({ status: 'failed' });
  }, 90_000);

  it('waits for a knowledge-base document through its extraction and indexing, then searches it', async () => {
    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'client waits' } }));
    const file = await quarry.uploadFile(PDF, { knowledgeBaseId: kb.id, extract: 'simple', documentTitle: 'Code and formulas' });
    expect(file.document).toMatchObject({ kb_id: kb.id, status: 'pending' });
    const stages = new Set<string>();
    const doc = await quarry.waitForDocument(kb.id, file.document!.id, { intervalMs: 100, timeoutMs: 120_000, onProgress: (p) => stages.add(p.stage) });
    expect(doc).toMatchObject({ status: 'indexed', title: 'Code and formulas' });
    expect(doc.chunk_count).toBeGreaterThan(0);
    expect(stages.has('completed')).toBe(true);

    const semantic = await quarry.search(kb.id, { query: 'JavaScript code example', top_k: 2 });
    expect(semantic.chunks.length).toBeGreaterThan(0);
    expect(semantic.chunks[0]).toMatchObject({ document_id: doc.id, file_id: file.id });
    const hybrid = await quarry.hybridSearch(kb.id, { query: 'formula', top_k: 1 });
    expect(hybrid.chunks[0].keyword_score).toBeGreaterThan(0);
  }, 150_000);
});

describe('lists', () => {
  it('iterates every page of a list, with its filters and path parameters typed', async () => {
    const tag = `paged-${Date.now()}`;
    const ids = new Set<string>();
    for (let i = 0; i < 7; i++) {
      const file = await quarry.uploadFile(Buffer.from(`page item ${i} ${tag}\n`), { filename: `item-${i}.txt`, tags: [tag] });
      ids.add(file.id);
    }
    const pages = [];
    for await (const page of quarry.pages('/v1/files', { query: { tags: tag }, pageSize: 3 })) pages.push(page);
    expect(pages.map((p) => [p.offset, p.items.length, p.total])).toEqual([
      [0, 3, 7],
      [3, 3, 7],
      [6, 1, 7],
    ]);
    const all = await quarry.listAll('/v1/files', { query: { tags: tag, sort_by: 'filename', order: 'asc' }, pageSize: 2 });
    expect(all.map((f) => f.filename)).toEqual(Array.from({ length: 7 }, (_, i) => `item-${i}.txt`));
    expect(new Set(all.map((f) => f.id))).toEqual(ids);

    const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'client pages' } }));
    const docs = [];
    for await (const doc of quarry.paginate('/v1/knowledge-bases/{kb_id}/documents', { path: { kb_id: kb.id }, pageSize: 5 })) docs.push(doc);
    expect(docs).toEqual([]);
  });
});

describe('errors', () => {
  it('throws a QuarryError carrying the API error body', async () => {
    const missing = await quarry.getExtraction('ext_01jd0000000000000000000000').catch((e: unknown) => e);
    expect(missing).toBeInstanceOf(QuarryError);
    const err = missing as QuarryError;
    expect(err).toMatchObject({ status: 404, code: 'EXTRACTION_NOT_FOUND' });
    expect(err.requestId).toMatch(/^req_/);
    expect(err.body.error.request_id).toBe(err.requestId);

    const invalid = (await quarry.search('kb_01jd0000000000000000000000', { query: 'x', top_k: 1000 }).catch((e: unknown) => e)) as QuarryError;
    expect(invalid).toMatchObject({ status: 400, code: 'INVALID_REQUEST', details: { field: 'top_k' } });

    const stranger = new QuarryClient({ baseUrl: server.baseUrl, apiKey: 'sk_test_00000000000000000000000000000000' });
    await expect(stranger.getFile('file_01jd0000000000000000000000')).rejects.toMatchObject({ name: 'QuarryError', status: 401, code: 'UNAUTHORIZED' });

    // The generated client itself answers {error} typed as the document's Error schema.
    const raw = await quarry.api.GET('/v1/files/{file_id}', { params: { path: { file_id: 'file_01jd0000000000000000000000' } } });
    expect(raw.response.status).toBe(404);
    expect(raw.error?.error.code).toBe('FILE_NOT_FOUND');
  });
});

describe('webhook signatures', () => {
  it('verifies a real delivery in both header styles and refuses a wrong secret, a changed body or an old timestamp', async () => {
    const receiver = await startReceiver();
    try {
      const secret = 'typed-client-webhook-secret-0123';
      const hook = await quarry.unwrap(quarry.api.POST('/v1/webhooks', { body: { url: receiver.url, events: ['knowledge_base.created'], secret } }));
      const kb = await quarry.unwrap(quarry.api.POST('/v1/knowledge-bases', { body: { name: 'announced by webhook' } }));
      for (let waited = 0; receiver.received.length === 0 && waited < 15_000; waited += 100) await new Promise((r) => setTimeout(r, 100));
      expect(receiver.received).toHaveLength(1);
      expect(verifyWebhook<{ kb_id: string }>({ secret, body: receiver.received[0].body, headers: receiver.received[0].headers })).toMatchObject({
        type: 'knowledge_base.created',
        data: { kb_id: kb.id },
      });

      // The test event is sent at once, before the call answers.
      await quarry.unwrap(quarry.api.POST('/v1/webhooks/{webhook_id}/test', { params: { path: { webhook_id: hook.id } } }));
      expect(receiver.received).toHaveLength(2);
      const { headers, body } = receiver.received[1];
      const event = verifyWebhook<{ webhook_id: string }>({ secret, body, headers });
      expect(event).toMatchObject({ type: 'webhook.test', data: { webhook_id: hook.id } });
      expect(verifyWebhook({ secret, body: body.toString('utf8'), headers: new Headers(headers as Record<string, string>) }).id).toBe(event.id);
      const standardOnly = { 'webhook-id': headers['webhook-id'], 'webhook-timestamp': headers['webhook-timestamp'], 'webhook-signature': headers['webhook-signature'] };
      expect(verifyWebhook({ secret, body, headers: standardOnly, scheme: 'standard' }).type).toBe('webhook.test');
      expect(verifyWebhook({ secret, body, headers: { 'x-service-signature': headers['x-service-signature'] }, scheme: 'service' }).type).toBe('webhook.test');

      const refused = (input: Partial<Parameters<typeof verifyWebhook>[0]>) => () => verifyWebhook({ secret, body, headers, ...input });
      expect(refused({ secret: 'another-secret-0123456789abcdef' })).toThrow(WebhookVerificationError);
      expect(refused({ body: Buffer.from(body.toString('utf8').replace('webhook.test', 'webhook.tesT')) })).toThrow(/does not match/);
      expect(refused({ now: Date.now() + 10 * 60_000 })).toThrow(/webhook-timestamp is \d+ s away/);
      expect(refused({ headers: standardOnly })).toThrow(/Missing X-Service-Signature/);
      expect(refused({ headers: { 'x-service-signature': headers['x-service-signature'] } })).toThrow(/Missing webhook-id/);
    } finally {
      await receiver.close();
    }
  });
});
