import path from 'node:path';
import { z } from 'zod';
import { RerankError } from './errors';

/*
 * The reranker, from QUARRY_RERANK_*: an HTTP endpoint speaking the Cohere / Jina / Text
 * Embeddings Inference /rerank protocol (QUARRY_RERANK_URL), or a local cross-encoder run with
 * Transformers.js from a model directory (QUARRY_RERANK_MODEL_DIR). Neither: reranking is off and
 * a search that asks for it is refused with RERANK_NOT_CONFIGURED.
 */

const lowercase = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

const envSchema = z.object({
  QUARRY_RERANK_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  QUARRY_RERANK_MODEL: z.string().trim().min(1).optional(),
  QUARRY_RERANK_API_KEY: z.string().optional(),
  QUARRY_RERANK_FORMAT: z.preprocess(lowercase, z.enum(['cohere', 'tei'])).default('cohere'),
  QUARRY_RERANK_TIMEOUT_S: z.coerce.number().positive().max(600).default(30),
  QUARRY_RERANK_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
  QUARRY_RERANK_MODEL_DIR: z.string().min(1).optional(),
  QUARRY_RERANK_MEMORY_MB: z.coerce.number().int().min(128).max(65536).default(2048),
  QUARRY_RERANK_MAX_CHARS: z.coerce.number().int().min(100).max(100_000).default(4000),
});

interface Common {
  /** Each passage is cut to this many characters before it is sent (rerankers truncate anyway). */
  maxChars: number;
  timeoutMs: number;
}

export interface HttpRerankConfig extends Common {
  kind: 'http';
  url: string;
  model: string | undefined;
  apiKey: string | undefined;
  /** "cohere" (Cohere, Jina, Voyage, vLLM…): {model, query, documents}; "tei": {query, texts}. */
  format: 'cohere' | 'tei';
  maxRetries: number;
}

export interface LocalRerankConfig extends Common {
  kind: 'local';
  /** The model id: a folder of modelDir holding config.json, tokenizer.json and onnx/model.onnx. */
  model: string;
  modelDir: string;
  memoryMb: number;
}

export type RerankConfig = { kind: 'none' } | HttpRerankConfig | LocalRerankConfig;

let cached: RerankConfig | undefined;

/** Reads QUARRY_RERANK_* once; throws RERANK_NOT_CONFIGURED when they are invalid or incomplete. */
export function getRerankConfig(): RerankConfig {
  if (cached) return cached;
  const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => k.startsWith('QUARRY_RERANK_') && v !== undefined && v !== ''));
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new RerankError('RERANK_NOT_CONFIGURED', `Invalid reranker configuration: ${problems}`);
  }
  const e = parsed.data;
  const common = { maxChars: e.QUARRY_RERANK_MAX_CHARS, timeoutMs: Math.round(e.QUARRY_RERANK_TIMEOUT_S * 1000) };
  if (e.QUARRY_RERANK_URL) {
    cached = {
      kind: 'http',
      ...common,
      url: e.QUARRY_RERANK_URL,
      model: e.QUARRY_RERANK_MODEL,
      apiKey: e.QUARRY_RERANK_API_KEY || undefined,
      format: e.QUARRY_RERANK_FORMAT,
      maxRetries: e.QUARRY_RERANK_MAX_RETRIES,
    };
  } else if (e.QUARRY_RERANK_MODEL_DIR) {
    if (!e.QUARRY_RERANK_MODEL) {
      throw new RerankError('RERANK_NOT_CONFIGURED', 'QUARRY_RERANK_MODEL_DIR needs QUARRY_RERANK_MODEL: the folder of the model inside it (e.g. Xenova/ms-marco-MiniLM-L-6-v2)');
    }
    cached = { kind: 'local', ...common, model: e.QUARRY_RERANK_MODEL, modelDir: path.resolve(e.QUARRY_RERANK_MODEL_DIR), memoryMb: e.QUARRY_RERANK_MEMORY_MB };
  } else {
    cached = { kind: 'none' };
  }
  return cached;
}

/** Forget the cached configuration (tests change the environment between cases). */
export function resetRerankConfig(): void {
  cached = undefined;
}
