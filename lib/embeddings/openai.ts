import { z } from 'zod';
import { displayEndpoint, isTransient, postWithRetries, serverMessage, type FailureMapper } from '@/lib/http/post';
import { EmbeddingError } from './errors';
import type { EmbeddingProvider } from './types';

/**
 * Embeddings from any server that speaks the OpenAI embeddings API: OpenAI, Azure OpenAI, Ollama,
 * Text Embeddings Inference, vLLM, LiteLLM and others. Inputs are sent in batches; transient
 * failures (network errors, timeouts, 408, 429, 5xx) are retried with exponential backoff and
 * jitter; vectors are put back in input order by their `index` and normalised to unit length.
 * Blank texts are not sent (OpenAI rejects empty input): they get a zero vector, as the built-in
 * embedder gives to a text without words.
 */
export interface OpenAIEmbedderOptions {
  /** Base URL (…/v1), or the full …/embeddings URL; a query string (Azure's api-version) is kept. */
  url: string;
  model: string;
  apiKey?: string;
  /** "authorization" sends `Authorization: Bearer <key>`; "api-key" sends `api-key: <key>` (Azure). */
  apiKeyHeader?: 'authorization' | 'api-key';
  /** Sent as `dimensions` in every request when set (text-embedding-3-* can shorten their vectors). */
  requestDimensions?: number;
  batchSize?: number;
  /** Per request, including reading the answer. */
  timeoutMs?: number;
  /** Retries after the first attempt of each request. */
  maxRetries?: number;
  /** First backoff delay; it doubles with each retry (with jitter) up to maxRetryDelayMs. */
  retryBaseMs?: number;
  maxRetryDelayMs?: number;
}

const DEFAULTS = {
  apiKeyHeader: 'authorization',
  batchSize: 64,
  timeoutMs: 60_000,
  maxRetries: 4,
  retryBaseMs: 500,
  maxRetryDelayMs: 20_000,
} as const;

const responseSchema = z.object({
  data: z
    .array(
      z.object({
        embedding: z.array(z.number()).min(1),
        index: z.number().int().nonnegative().optional(),
      }),
    )
    .min(1),
});

/** Where to POST: the base URL with /embeddings appended to its path (unless already there), query string kept. */
export function embeddingsEndpoint(base: string): string {
  const url = new URL(base);
  const pathname = url.pathname.replace(/\/+$/, '');
  url.pathname = pathname.endsWith('/embeddings') ? pathname : `${pathname}/embeddings`;
  return url.toString();
}

/** The vector scaled to unit length (a zero vector stays zero). */
export function normalize(vector: number[]): number[] {
  let sum = 0;
  for (const v of vector) sum += v * v;
  const norm = Math.sqrt(sum);
  return norm > 0 ? vector.map((v) => v / norm) : vector.map(() => 0);
}

/** An attempt's failure as an EmbeddingError: transient ones (network, timeout, 408, 429, 5xx) are retryable. */
function embeddingFailure(endpoint: string, timeoutMs: number): FailureMapper {
  const where = displayEndpoint(endpoint);
  return (failure, attempts) => {
    const gaveUp = attempts ? ` (gave up after ${attempts} attempt${attempts === 1 ? '' : 's'})` : '';
    const cause = failure.kind === 'status' ? undefined : { cause: failure.cause };
    if (failure.kind === 'timeout') {
      return new EmbeddingError('EMBEDDING_FAILED', `Embedding endpoint ${where} did not answer within ${timeoutMs / 1000} s (QUARRY_EMBEDDING_TIMEOUT_S)${gaveUp}`, true, cause);
    }
    if (failure.kind === 'network') {
      return new EmbeddingError('EMBEDDING_FAILED', `Could not reach the embedding endpoint ${where}: ${failure.detail}${gaveUp}`, true, cause);
    }
    const { status, message } = failure;
    if (isTransient(failure)) return new EmbeddingError('EMBEDDING_FAILED', `Embedding endpoint ${where} answered ${status}: ${message}${gaveUp}`, true);
    if (status === 401 || status === 403) {
      return new EmbeddingError(
        'EMBEDDING_NOT_CONFIGURED',
        `Embedding endpoint ${where} refused the credentials (${status}): ${message}. Check QUARRY_EMBEDDING_API_KEY and QUARRY_EMBEDDING_API_KEY_HEADER.`,
      );
    }
    if (status === 404) {
      return new EmbeddingError('EMBEDDING_NOT_CONFIGURED', `Embedding endpoint ${where} answered 404: ${message}. Check QUARRY_EMBEDDING_URL and QUARRY_EMBEDDING_MODEL.`);
    }
    return new EmbeddingError('EMBEDDING_FAILED', `Embedding endpoint ${where} rejected the request (${status}): ${message}`);
  };
}

/** Checks a 200 answer's shape and returns its vectors in input order, normalised. */
function parseVectors(text: string, count: number, endpoint: string): number[][] {
  const malformed = (why: string) =>
    new EmbeddingError(
      'EMBEDDING_FAILED',
      `Embedding endpoint ${displayEndpoint(endpoint)} returned a malformed response (${why}); expected {"data":[{"embedding":[numbers],"index":n}]}`,
    );
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw malformed(`not JSON: ${serverMessage(text)}`);
  }
  const parsed = responseSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw malformed(`${issue.path.join('.') || 'body'}: ${issue.message}`);
  }
  const items = parsed.data.data;
  if (items.length !== count) throw malformed(`${items.length} embeddings for ${count} inputs`);
  const ordered = new Array<number[] | undefined>(count);
  const indexed = items.every((item) => item.index !== undefined);
  if (!indexed && items.some((item) => item.index !== undefined)) throw malformed('only some items have an index');
  items.forEach((item, position) => {
    const index = indexed ? (item.index as number) : position;
    if (index >= count || ordered[index]) throw malformed(`index ${index} is out of range or repeated`);
    ordered[index] = item.embedding;
  });
  const vectors = ordered as number[][];
  if (vectors.some((v) => v.length !== vectors[0].length)) throw malformed('embeddings of different lengths');
  return vectors.map(normalize);
}

/** One batch: POSTs the inputs, retrying transient failures; returns unit vectors in input order. */
export async function requestEmbeddings(options: OpenAIEmbedderOptions, inputs: string[]): Promise<number[][]> {
  const o = {
    ...options,
    apiKeyHeader: options.apiKeyHeader ?? DEFAULTS.apiKeyHeader,
    timeoutMs: options.timeoutMs ?? DEFAULTS.timeoutMs,
    maxRetries: options.maxRetries ?? DEFAULTS.maxRetries,
    retryBaseMs: options.retryBaseMs ?? DEFAULTS.retryBaseMs,
    maxRetryDelayMs: options.maxRetryDelayMs ?? DEFAULTS.maxRetryDelayMs,
  };
  const endpoint = embeddingsEndpoint(o.url);
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json' };
  if (o.apiKey) {
    if (o.apiKeyHeader === 'api-key') headers['api-key'] = o.apiKey;
    else headers.authorization = `Bearer ${o.apiKey}`;
  }
  const body = JSON.stringify({
    model: o.model,
    input: inputs,
    ...(o.requestDimensions ? { dimensions: o.requestDimensions } : {}),
  });

  const text = await postWithRetries(endpoint, headers, body, o, embeddingFailure(endpoint, o.timeoutMs));
  return parseVectors(text, inputs.length, endpoint);
}

/** The length of the vectors the endpoint returns for this model (one small request). */
export async function probeDimensions(options: OpenAIEmbedderOptions): Promise<number> {
  const [vector] = await requestEmbeddings(options, ['dimension probe']);
  return vector.length;
}

/**
 * A provider whose vectors must have `dimensions` entries: a response of another length means the
 * endpoint no longer serves that vector space, and fails with EMBEDDING_PROVIDER_MISMATCH.
 */
export function createOpenAIEmbedder(options: OpenAIEmbedderOptions & { dimensions: number }): EmbeddingProvider {
  const batchSize = options.batchSize ?? DEFAULTS.batchSize;
  const { dimensions, model } = options;
  return {
    provider: 'openai',
    model,
    dimensions,
    async embed(texts) {
      const out: number[][] = texts.map(() => new Array<number>(dimensions).fill(0));
      const pending = texts.flatMap((text, i) => (text.trim() === '' ? [] : [i]));
      for (let start = 0; start < pending.length; start += batchSize) {
        const positions = pending.slice(start, start + batchSize);
        const vectors = await requestEmbeddings(options, positions.map((i) => texts[i]));
        if (vectors[0].length !== dimensions) {
          throw new EmbeddingError(
            'EMBEDDING_PROVIDER_MISMATCH',
            `Embedding endpoint ${displayEndpoint(embeddingsEndpoint(options.url))} returned ${vectors[0].length}-dimensional vectors for model ${model}, expected ${dimensions}` +
              (options.requestDimensions
                ? ' (the model may not accept the dimensions parameter: unset QUARRY_EMBEDDING_DIMENSIONS)'
                : ''),
          );
        }
        positions.forEach((i, k) => (out[i] = vectors[k]));
      }
      return out;
    },
  };
}
