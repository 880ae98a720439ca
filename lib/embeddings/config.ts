import path from 'node:path';
import { z } from 'zod';
import { EMBEDDING_PROVIDERS } from '@/lib/db/schema/enums';
import { EmbeddingError } from './errors';

export const DEFAULT_TRANSFORMERS_MODEL = 'Xenova/all-MiniLM-L6-v2';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .optional()
  .transform((v) => (v === undefined ? undefined : v === 'true' || v === '1' || v === 'yes'));

const lowercase = (v: unknown) => (typeof v === 'string' ? v.toLowerCase() : v);

const envSchema = z.object({
  QUARRY_EMBEDDING_PROVIDER: z.preprocess(lowercase, z.enum(EMBEDDING_PROVIDERS)).default('builtin'),
  QUARRY_EMBEDDING_DIMENSIONS: z.coerce.number().int().min(64).max(4000).optional(),
  QUARRY_EMBEDDING_MODEL: z.string().trim().min(1).optional(),
  QUARRY_EMBEDDING_URL: z.url({ protocol: /^https?$/, error: 'must be an http or https URL' }).optional(),
  QUARRY_EMBEDDING_API_KEY: z.string().optional(),
  QUARRY_EMBEDDING_API_KEY_HEADER: z.preprocess(lowercase, z.enum(['authorization', 'api-key'])).default('authorization'),
  QUARRY_EMBEDDING_BATCH_SIZE: z.coerce.number().int().min(1).max(2048).default(64),
  QUARRY_EMBEDDING_TIMEOUT_S: z.coerce.number().positive().max(3600).default(60),
  QUARRY_EMBEDDING_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(4),
  QUARRY_EMBEDDING_MODEL_DIR: z.string().min(1).optional(),
  QUARRY_EMBEDDING_ALLOW_DOWNLOAD: boolish,
});

/** Settings shared by the HTTP and local providers. */
interface CommonConfig {
  /** QUARRY_EMBEDDING_DIMENSIONS, when set. */
  dimensions: number | undefined;
  batchSize: number;
}

export interface BuiltinConfig extends CommonConfig {
  provider: 'builtin';
}

export interface OpenAIConfig extends CommonConfig {
  provider: 'openai';
  model: string;
  url: string;
  apiKey: string | undefined;
  apiKeyHeader: 'authorization' | 'api-key';
  timeoutMs: number;
  maxRetries: number;
}

export interface TransformersConfig extends CommonConfig {
  provider: 'transformers';
  model: string;
  /** A local directory holding models as <dir>/<model id>/…, when set. */
  modelDir: string | undefined;
  /** Whether missing model files may be fetched from the Hugging Face Hub. */
  allowDownload: boolean;
}

export type EmbeddingConfig = BuiltinConfig | OpenAIConfig | TransformersConfig;

let cached: EmbeddingConfig | undefined;

/** Reads the QUARRY_EMBEDDING_* variables once; throws EMBEDDING_NOT_CONFIGURED when they are invalid or incomplete. */
export function getEmbeddingConfig(): EmbeddingConfig {
  if (cached) return cached;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([k, v]) => k.startsWith('QUARRY_EMBEDDING_') && v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new EmbeddingError('EMBEDDING_NOT_CONFIGURED', `Invalid embedding configuration: ${problems}`);
  }
  cached = toConfig(parsed.data);
  return cached;
}

/** Forget the cached configuration (tests change the environment between cases). */
export function resetEmbeddingConfig(): void {
  cached = undefined;
}

function toConfig(e: z.infer<typeof envSchema>): EmbeddingConfig {
  const common = { dimensions: e.QUARRY_EMBEDDING_DIMENSIONS, batchSize: e.QUARRY_EMBEDDING_BATCH_SIZE };
  switch (e.QUARRY_EMBEDDING_PROVIDER) {
    case 'builtin':
      return { provider: 'builtin', ...common };
    case 'openai': {
      if (!e.QUARRY_EMBEDDING_URL || !e.QUARRY_EMBEDDING_MODEL) {
        const missing = [
          e.QUARRY_EMBEDDING_URL ? null : 'QUARRY_EMBEDDING_URL (e.g. https://api.openai.com/v1)',
          e.QUARRY_EMBEDDING_MODEL ? null : 'QUARRY_EMBEDDING_MODEL (e.g. text-embedding-3-small)',
        ].filter(Boolean);
        throw new EmbeddingError('EMBEDDING_NOT_CONFIGURED', `QUARRY_EMBEDDING_PROVIDER=openai needs ${missing.join(' and ')}`);
      }
      return {
        provider: 'openai',
        ...common,
        model: e.QUARRY_EMBEDDING_MODEL,
        url: e.QUARRY_EMBEDDING_URL,
        apiKey: e.QUARRY_EMBEDDING_API_KEY || undefined,
        apiKeyHeader: e.QUARRY_EMBEDDING_API_KEY_HEADER,
        timeoutMs: Math.round(e.QUARRY_EMBEDDING_TIMEOUT_S * 1000),
        maxRetries: e.QUARRY_EMBEDDING_MAX_RETRIES,
      };
    }
    case 'transformers':
      return {
        provider: 'transformers',
        ...common,
        model: e.QUARRY_EMBEDDING_MODEL ?? DEFAULT_TRANSFORMERS_MODEL,
        modelDir: e.QUARRY_EMBEDDING_MODEL_DIR ? path.resolve(e.QUARRY_EMBEDDING_MODEL_DIR) : undefined,
        allowDownload: e.QUARRY_EMBEDDING_ALLOW_DOWNLOAD ?? !e.QUARRY_EMBEDDING_MODEL_DIR,
      };
  }
}
