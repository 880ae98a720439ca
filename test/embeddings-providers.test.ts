import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { embedOne } from '@/lib/embeddings/builtin';
import {
  configuredEmbeddingSpec,
  EmbeddingError,
  embeddingProviderFor,
  resetEmbeddingProviders,
  type EmbeddingSpec,
} from '@/lib/embeddings';
import { embeddingsEndpoint, normalize } from '@/lib/embeddings/openai';
import { retryAfterMs } from '@/lib/http/post';
import { fakeVector, startFakeEmbeddingServer, type FakeEmbeddingServer } from '@/test/support/embeddings-openai-server';
import { writeTinyModel, type TinyModel } from '@/test/support/embeddings-tiny-model';

const norm = (v: number[]) => Math.sqrt(v.reduce((s, x) => s + x * x, 0));

/** The QUARRY_EMBEDDING_* variables as they were before the file ran; each test starts without any. */
const saved = Object.entries(process.env).filter(([k]) => k.startsWith('QUARRY_EMBEDDING_'));

function clearEmbeddingEnv() {
  for (const k of Object.keys(process.env)) if (k.startsWith('QUARRY_EMBEDDING_')) delete process.env[k];
}

function setEnv(vars: Record<string, string>) {
  clearEmbeddingEnv();
  Object.assign(process.env, vars);
  resetEmbeddingProviders();
}

/** The rejection of a promise (or throw of a function) as an EmbeddingError. */
async function embeddingError(action: Promise<unknown> | (() => unknown)): Promise<EmbeddingError> {
  try {
    await (typeof action === 'function' ? action() : action);
  } catch (err) {
    expect(err).toBeInstanceOf(EmbeddingError);
    return err as EmbeddingError;
  }
  throw new Error('expected an EmbeddingError');
}

beforeEach(() => {
  clearEmbeddingEnv();
  resetEmbeddingProviders();
});

afterEach(() => {
  clearEmbeddingEnv();
  Object.assign(process.env, Object.fromEntries(saved));
  resetEmbeddingProviders();
});

describe('openai provider against a local OpenAI-compatible server', () => {
  let server: FakeEmbeddingServer;
  beforeAll(async () => {
    server = await startFakeEmbeddingServer(12);
  });
  afterAll(() => server.close());
  beforeEach(() => server.reset());

  const useServer = (extra: Record<string, string> = {}) =>
    setEnv({
      QUARRY_EMBEDDING_PROVIDER: 'openai',
      QUARRY_EMBEDDING_URL: `${server.origin}/v1`,
      QUARRY_EMBEDDING_MODEL: 'text-embedding-3-small',
      ...extra,
    });

  it('sends batches of the configured size with model, dimensions and bearer key, and returns unit vectors in input order', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64', QUARRY_EMBEDDING_BATCH_SIZE: '3', QUARRY_EMBEDDING_API_KEY: 'sk-test-123' });
    const spec = await configuredEmbeddingSpec();
    expect(spec).toEqual({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 64 });
    expect(server.requests).toHaveLength(0);

    const texts = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf'];
    const vectors = await embeddingProviderFor(spec).embed(texts);

    expect(server.requests.map((r) => r.body.input)).toEqual([['alpha', 'bravo', 'charlie'], ['delta', 'echo', 'foxtrot'], ['golf']]);
    for (const r of server.requests) {
      expect(r.method).toBe('POST');
      expect(r.url).toBe('/v1/embeddings');
      expect(r.body.model).toBe('text-embedding-3-small');
      expect(r.body.dimensions).toBe(64);
      expect(r.headers.authorization).toBe('Bearer sk-test-123');
      expect(r.headers['api-key']).toBeUndefined();
    }
    // The server answers in reverse order: `index` puts each vector back with its text.
    vectors.forEach((v, i) => {
      expect(v).toHaveLength(64);
      expect(norm(v)).toBeCloseTo(1, 10);
      expect(v).toEqual(normalize(fakeVector(texts[i], 64)));
    });
  });

  it('supports the Azure api-key header and keeps the query string after /embeddings', async () => {
    useServer({
      QUARRY_EMBEDDING_URL: `${server.origin}/openai/deployments/emb-small?api-version=2024-02-01`,
      QUARRY_EMBEDDING_API_KEY: 'azure-key',
      QUARRY_EMBEDDING_API_KEY_HEADER: 'api-key',
      QUARRY_EMBEDDING_DIMENSIONS: '256',
    });
    await embeddingProviderFor(await configuredEmbeddingSpec()).embed(['hello']);
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].url).toBe('/openai/deployments/emb-small/embeddings?api-version=2024-02-01');
    expect(server.requests[0].headers['api-key']).toBe('azure-key');
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it('accepts a URL that already ends in /embeddings and sends no key when none is set', async () => {
    expect(embeddingsEndpoint('http://localhost:11434/v1/')).toBe('http://localhost:11434/v1/embeddings');
    expect(embeddingsEndpoint('https://api.openai.com/v1/embeddings')).toBe('https://api.openai.com/v1/embeddings');
    useServer({ QUARRY_EMBEDDING_URL: `${server.origin}/v1/embeddings`, QUARRY_EMBEDDING_DIMENSIONS: '64' });
    await embeddingProviderFor(await configuredEmbeddingSpec()).embed(['hello']);
    expect(server.requests[0].url).toBe('/v1/embeddings');
    expect(server.requests[0].headers.authorization).toBeUndefined();
  });

  it('probes the dimension once when QUARRY_EMBEDDING_DIMENSIONS is unset, and sends no dimensions', async () => {
    useServer();
    const spec = await configuredEmbeddingSpec();
    expect(spec).toEqual({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 12 });
    await configuredEmbeddingSpec();
    expect(server.requests).toHaveLength(1);
    expect(server.requests[0].body).not.toHaveProperty('dimensions');

    const [v] = await embeddingProviderFor(spec).embed(['probe me']);
    expect(v).toHaveLength(12);
    expect(server.requests[1].body).not.toHaveProperty('dimensions');

    // The learned dimension now rules out a spec of another size.
    const err = await embeddingError(() => embeddingProviderFor({ ...spec, dimensions: 1536 }));
    expect(err.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
  });

  it('takes answers without index in input order, as some compatible servers send them', async () => {
    useServer();
    server.failNext({ status: 200, body: { data: [{ embedding: [3, 4] }, { embedding: [0, 2] }] } });
    const provider = embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 2 });
    expect(await provider.embed(['first', 'second'])).toEqual([[0.6, 0.8], [0, 1]]);
  });

  it('fails with a mismatch when the endpoint returns vectors of another length than the recorded spec', async () => {
    useServer();
    const err = await embeddingError(embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 24 }).embed(['x']));
    expect(err.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(err.message).toContain('12-dimensional');
    expect(err.retryable).toBe(false);
  });

  it('gives blank texts zero vectors without sending them', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64' });
    const provider = embeddingProviderFor(await configuredEmbeddingSpec());
    const [empty, word, spaces] = await provider.embed(['', 'word', '  \n']);
    expect(server.requests.map((r) => r.body.input)).toEqual([['word']]);
    expect(empty.every((x) => x === 0) && spaces.every((x) => x === 0)).toBe(true);
    expect(empty).toHaveLength(64);
    expect(norm(word)).toBeCloseTo(1, 10);
    expect(await provider.embed(['', ' '])).toHaveLength(2);
    expect(server.requests).toHaveLength(1);
  });

  it('retries after a 500 and after a 429 with Retry-After: 0', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64' });
    const provider = embeddingProviderFor(await configuredEmbeddingSpec());

    server.failNext({ status: 500, body: { error: { message: 'upstream hiccup' } } });
    const [a] = await provider.embed(['retry me']);
    expect(server.requests).toHaveLength(2);
    expect(a).toEqual(normalize(fakeVector('retry me', 64)));

    server.requests.length = 0;
    server.failNext({ status: 429, headers: { 'retry-after': '0' }, body: { error: { message: 'Rate limit reached' } } });
    const started = Date.now();
    await provider.embed(['rate limited']);
    expect(server.requests).toHaveLength(2);
    expect(Date.now() - started).toBeLessThan(200);
  });

  it('gives up after QUARRY_EMBEDDING_MAX_RETRIES with a retryable EMBEDDING_FAILED', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64', QUARRY_EMBEDDING_MAX_RETRIES: '2' });
    const busy = { status: 503, headers: { 'retry-after': '0' }, body: 'Service Unavailable' };
    server.failNext(busy, busy, busy);
    const err = await embeddingError(embeddingProviderFor(await configuredEmbeddingSpec()).embed(['x']));
    expect(server.requests).toHaveLength(3);
    expect(err.code).toBe('EMBEDDING_FAILED');
    expect(err.retryable).toBe(true);
    expect(err.message).toContain('503');
    expect(err.message).toContain('3 attempts');
  });

  it('does not retry a 400 and surfaces the server message, shortened', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64' });
    server.failNext({
      status: 400,
      body: { error: { message: `This model's maximum context length is 8192 tokens. ${'x'.repeat(2000)}`, type: 'invalid_request_error' } },
    });
    const err = await embeddingError(embeddingProviderFor(await configuredEmbeddingSpec()).embed(['too long']));
    expect(server.requests).toHaveLength(1);
    expect(err.code).toBe('EMBEDDING_FAILED');
    expect(err.retryable).toBe(false);
    expect(err.message).toContain("This model's maximum context length is 8192 tokens.");
    expect(err.message).toContain('400');
    expect(err.message.length).toBeLessThan(500);
  });

  it('reports rejected credentials as a configuration problem', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64', QUARRY_EMBEDDING_API_KEY: 'wrong' });
    server.failNext({ status: 401, body: { error: { message: 'Incorrect API key provided' } } });
    const err = await embeddingError(embeddingProviderFor(await configuredEmbeddingSpec()).embed(['x']));
    expect(server.requests).toHaveLength(1);
    expect(err).toMatchObject({ code: 'EMBEDDING_NOT_CONFIGURED', retryable: false });
    expect(err.message).toContain('Incorrect API key provided');
    expect(err.message).toContain('QUARRY_EMBEDDING_API_KEY');
  });

  it('times out a request that never gets an answer, retries, then fails retryable', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64', QUARRY_EMBEDDING_TIMEOUT_S: '0.2', QUARRY_EMBEDDING_MAX_RETRIES: '1' });
    server.failNext({ status: 0, hang: true }, { status: 0, hang: true });
    const started = Date.now();
    const err = await embeddingError(embeddingProviderFor(await configuredEmbeddingSpec()).embed(['slow']));
    expect(server.requests).toHaveLength(2);
    expect(err).toMatchObject({ code: 'EMBEDDING_FAILED', retryable: true });
    expect(err.message).toContain('QUARRY_EMBEDDING_TIMEOUT_S');
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('fails clearly, without retrying, on a malformed response', async () => {
    useServer({ QUARRY_EMBEDDING_DIMENSIONS: '64' });
    const provider = embeddingProviderFor(await configuredEmbeddingSpec());
    const cases: Array<[unknown, string]> = [
      ['<html><body>Welcome to nginx</body></html>', 'not JSON'],
      [{ data: [{ index: 0, embedding: 'not an array' }] }, 'data.0.embedding'],
      [{ data: [{ index: 0, embedding: [1, 2] }, { index: 1, embedding: [3, 4] }] }, '2 embeddings for 1 inputs'],
      [{ object: 'list' }, 'data'],
    ];
    for (const [body, expected] of cases) {
      server.requests.length = 0;
      server.failNext({ status: 200, body });
      const err = await embeddingError(provider.embed(['x']));
      expect(server.requests).toHaveLength(1);
      expect(err).toMatchObject({ code: 'EMBEDDING_FAILED', retryable: false });
      expect(err.message).toContain('malformed response');
      expect(err.message).toContain(expected);
    }
  });

  it('fails retryable when the endpoint cannot be reached', async () => {
    const gone = await startFakeEmbeddingServer();
    await gone.close();
    setEnv({
      QUARRY_EMBEDDING_PROVIDER: 'openai',
      QUARRY_EMBEDDING_URL: `${gone.origin}/v1`,
      QUARRY_EMBEDDING_MODEL: 'nomic-embed-text',
      QUARRY_EMBEDDING_MAX_RETRIES: '0',
    });
    const err = await embeddingError(configuredEmbeddingSpec());
    expect(err).toMatchObject({ code: 'EMBEDDING_FAILED', retryable: true });
    expect(err.message).toContain('ECONNREFUSED');
  });

  it('reads Retry-After as seconds or a date, capped', () => {
    expect(retryAfterMs(new Headers({ 'retry-after': '2' }))).toBe(2000);
    expect(retryAfterMs(new Headers({ 'retry-after': '86400' }))).toBe(60_000);
    expect(retryAfterMs(new Headers({ 'retry-after': new Date(10_000).toUTCString() }), 7_000)).toBe(3000);
    expect(retryAfterMs(new Headers())).toBeUndefined();
  });
});

describe('configuredEmbeddingSpec and embeddingProviderFor', () => {
  it('defaults to the built-in embedder', async () => {
    expect(await configuredEmbeddingSpec()).toEqual({ provider: 'builtin', model: 'quarry-hashed-ngrams-v2', dimensions: 384 });
    setEnv({ QUARRY_EMBEDDING_DIMENSIONS: '256' });
    expect(await configuredEmbeddingSpec()).toEqual({ provider: 'builtin', model: 'quarry-hashed-ngrams-v2', dimensions: 256 });
  });

  it('serves any built-in spec whatever the environment says, and caches providers per spec', async () => {
    setEnv({ QUARRY_EMBEDDING_PROVIDER: 'openai', QUARRY_EMBEDDING_URL: 'http://127.0.0.1:9/v1', QUARRY_EMBEDDING_MODEL: 'm' });
    const spec: EmbeddingSpec = { provider: 'builtin', model: 'quarry-hashed-ngrams-v2', dimensions: 100 };
    const provider = embeddingProviderFor(spec);
    expect(provider).toMatchObject(spec);
    expect(await provider.embed(['vector search'])).toEqual([embedOne('vector search', 100)]);
    expect(embeddingProviderFor({ ...spec })).toBe(provider);
    expect(embeddingProviderFor({ ...spec, dimensions: 384 })).not.toBe(provider);
  });

  it('refuses a built-in spec of another model', async () => {
    const err = await embeddingError(() => embeddingProviderFor({ provider: 'builtin', model: 'quarry-hashed-ngrams-v9', dimensions: 384 }));
    expect(err.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
  });

  it('refuses openai specs whose model or dimension differ from the configuration, naming both', async () => {
    setEnv({
      QUARRY_EMBEDDING_PROVIDER: 'openai',
      QUARRY_EMBEDDING_URL: 'http://127.0.0.1:9/v1',
      QUARRY_EMBEDDING_MODEL: 'text-embedding-3-large',
      QUARRY_EMBEDDING_DIMENSIONS: '1024',
    });
    const model = await embeddingError(() =>
      embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 1024 }),
    );
    expect(model.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(model.retryable).toBe(false);
    expect(model.message).toContain('openai/text-embedding-3-small (1024 dimensions)');
    expect(model.message).toContain('openai/text-embedding-3-large (1024 dimensions)');

    const dims = await embeddingError(() => embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-large', dimensions: 3072 }));
    expect(dims.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(dims.message).toContain('3072 dimensions');

    expect(embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-large', dimensions: 1024 })).toMatchObject({
      provider: 'openai',
      model: 'text-embedding-3-large',
      dimensions: 1024,
    });
  });

  it('refuses an openai spec on a server configured with the built-in embedder', async () => {
    const err = await embeddingError(() => embeddingProviderFor({ provider: 'openai', model: 'text-embedding-3-small', dimensions: 1536 }));
    expect(err.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(err.message).toContain('builtin/quarry-hashed-ngrams-v2 (384 dimensions)');
    expect(err.message).toContain('QUARRY_EMBEDDING_PROVIDER=openai');
  });

  it('reports invalid or incomplete settings as EMBEDDING_NOT_CONFIGURED', async () => {
    setEnv({ QUARRY_EMBEDDING_DIMENSIONS: '10' });
    expect((await embeddingError(configuredEmbeddingSpec())).code).toBe('EMBEDDING_NOT_CONFIGURED');
    setEnv({ QUARRY_EMBEDDING_PROVIDER: 'openai', QUARRY_EMBEDDING_MODEL: 'm' });
    const err = await embeddingError(configuredEmbeddingSpec());
    expect(err.code).toBe('EMBEDDING_NOT_CONFIGURED');
    expect(err.message).toContain('QUARRY_EMBEDDING_URL');
    setEnv({ QUARRY_EMBEDDING_PROVIDER: 'cohere' });
    expect((await embeddingError(configuredEmbeddingSpec())).message).toContain('QUARRY_EMBEDDING_PROVIDER');
  });
});

describe('transformers provider on a tiny local model', () => {
  let dir: string;
  let model: TinyModel;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-embedding-models-'));
    model = writeTinyModel(dir);
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  const useModel = (extra: Record<string, string> = {}) =>
    setEnv({
      QUARRY_EMBEDDING_PROVIDER: 'transformers',
      QUARRY_EMBEDDING_MODEL: model.modelId,
      QUARRY_EMBEDDING_MODEL_DIR: dir,
      ...extra,
    });

  it('learns the dimension from the model and returns mean-pooled unit vectors, batched, in order', async () => {
    useModel({ QUARRY_EMBEDDING_BATCH_SIZE: '2' });
    const spec = await configuredEmbeddingSpec();
    expect(spec).toEqual({ provider: 'transformers', model: model.modelId, dimensions: model.dimensions });

    const texts = ['the invoice', 'vector search database query', '', 'finance team approves the payment', 'rain'];
    const vectors = await embeddingProviderFor(spec).embed(texts);
    expect(vectors).toHaveLength(texts.length);
    texts.forEach((text, i) => {
      if (text === '') {
        expect(vectors[i]).toEqual(new Array(model.dimensions).fill(0));
        return;
      }
      expect(norm(vectors[i])).toBeCloseTo(1, 5);
      model.expected(text).forEach((x, d) => expect(vectors[i][d]).toBeCloseTo(x, 5));
    });
  });

  it('refuses transformers specs of another model or dimension', async () => {
    useModel();
    const spec = await configuredEmbeddingSpec();
    const other = await embeddingError(() => embeddingProviderFor({ ...spec, model: 'Xenova/all-MiniLM-L6-v2' }));
    expect(other.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
    expect(other.message).toContain(`transformers/${model.modelId} (8 dimensions)`);
    const dims = await embeddingError(() => embeddingProviderFor({ ...spec, dimensions: 384 }));
    expect(dims.code).toBe('EMBEDDING_PROVIDER_MISMATCH');
  });

  it('names the settings to change when the model is not in the model directory and downloads are off', async () => {
    useModel({ QUARRY_EMBEDDING_MODEL: 'quarry-test/not-there' });
    const err = await embeddingError(configuredEmbeddingSpec());
    expect(err).toMatchObject({ code: 'EMBEDDING_NOT_CONFIGURED', retryable: false });
    expect(err.message).toContain('quarry-test/not-there');
    expect(err.message).toContain('QUARRY_EMBEDDING_MODEL_DIR');
    expect(err.message).toContain('QUARRY_EMBEDDING_ALLOW_DOWNLOAD=true');
  });
});
