import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';

const boolish = z
  .enum(['true', 'false', '1', '0', 'yes', 'no', ''])
  .optional()
  .transform((v) => v === 'true' || v === '1' || v === 'yes');

const envSchema = z.object({
  DATABASE_URL: z.string().min(1).optional(),
  QUARRY_DATA_DIR: z.string().min(1).default('./data'),
  QUARRY_ADMIN_KEY: z.string().min(16, 'QUARRY_ADMIN_KEY must be at least 16 characters').optional(),
  QUARRY_KEY_ENV: z.enum(['live', 'test']).default('test'),
  QUARRY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).default(600),
  QUARRY_TRUST_PROXY: boolish,
  QUARRY_SECRET_KEY: z.string().min(16, 'QUARRY_SECRET_KEY must be at least 16 characters').optional(),
  QUARRY_EXTRACTION_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
  QUARRY_EXTRACTION_TIMEOUT_S: z.coerce.number().int().min(1).default(600),
  QUARRY_EXTRACTION_MEMORY_MB: z.coerce.number().int().min(256).default(2048),
  QUARRY_EXTRACTION_WARM_UP: z.coerce.number().int().min(0).max(20).default(5),
  QUARRY_MAX_PAGES: z.coerce.number().int().min(1).default(2000),
  QUARRY_MAX_IMAGE_PIXELS: z.coerce.number().int().min(1_000_000).default(100_000_000),
  QUARRY_WEBHOOK_ALLOW_INSECURE: boolish,
  QUARRY_ADMIN_EMAIL: z.email('QUARRY_ADMIN_EMAIL must be an email address').optional(),
  QUARRY_ADMIN_PASSWORD: z.string().min(10, 'QUARRY_ADMIN_PASSWORD must be at least 10 characters').optional(),
  NEXTAUTH_SECRET: z.string().min(16, 'NEXTAUTH_SECRET must be at least 16 characters').optional(),
  QUARRY_WEBHOOK_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(16),
  QUARRY_SOURCES_ALLOW_PRIVATE: boolish,
  QUARRY_SOURCE_SYNC_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  QUARRY_INDEXING_CONCURRENCY: z.coerce.number().int().min(1).max(64).default(2),
  QUARRY_INDEXING_MAX_CHUNKS: z.coerce.number().int().min(1).default(100_000),
  QUARRY_INDEXING_TIMEOUT_S: z.coerce.number().positive().default(1800),
  QUARRY_INDEXING_MEMORY_MB: z.coerce.number().int().min(64).default(2048),
  QUARRY_SEARCH_EXACT_MAX_CHUNKS: z.coerce.number().int().min(0).default(2000),
  QUARRY_POSTINGS_CACHE_MB: z.coerce.number().min(0).max(65_536).default(64),
  QUARRY_STORAGE_URL: z
    .string()
    .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?$/, 'QUARRY_STORAGE_URL must look like s3://bucket or s3://bucket/prefix')
    .optional(),
  QUARRY_S3_FORCE_PATH_STYLE: boolish,
  QUARRY_WORKFLOW_LEASE_S: z.coerce.number().min(1).max(3600).default(60),
});

export interface Config {
  databaseUrl: string | undefined;
  dataDir: string;
  adminKey: string | undefined;
  keyEnv: 'live' | 'test';
  rateLimitPerMinute: number;
  trustProxy: boolean;
  secretKey: string | undefined;
  extraction: {
    concurrency: number;
    timeoutMs: number;
    memoryMb: number;
    maxPages: number;
    maxImagePixels: number;
    /** Times a new extraction worker reads the warm-up document before its first task (0: never). */
    warmUpRuns: number;
  };
  knowledgeBases: {
    indexingConcurrency: number;
    exactSearchMaxChunks: number;
    /** Memory for decoded keyword postings of recent query terms (0: none kept). */
    postingsCacheBytes: number;
    /** Chunks one document may make (per chunking strategy). */
    maxChunksPerDocument: number;
    /** Time limit of one indexing thread request (preparing a document, or a batch of its rows). */
    indexingTimeoutMs: number;
    /** JavaScript heap limit of one indexing thread. */
    indexingMemoryMb: number;
  };
  webhooks: { allowInsecure: boolean; concurrency: number };
  /** Sources may reach private, loopback and link-local addresses (a bucket or site on the local network). */
  sources: { allowPrivate: boolean; concurrency: number };
  /** Where file bytes live: an S3-compatible bucket (`s3://bucket/prefix`), or the data directory when unset. */
  storage: { url: string | undefined; forcePathStyle: boolean };
  /** How long a pipeline run stays claimed without a heartbeat before another process takes it over. */
  workflowLeaseMs: number;
  console: { adminEmail: string | undefined; adminPassword: string | undefined; authSecret: string | undefined };
}

let cached: Config | undefined;

/** Reads the environment once; values are validated so a typo fails at start, not on first use. */
export function getConfig(): Config {
  if (cached) return cached;
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([, v]) => v !== undefined && v !== ''),
  );
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new Error(`Invalid configuration: ${problems}`);
  }
  const e = parsed.data;
  cached = {
    databaseUrl: e.DATABASE_URL,
    dataDir: path.resolve(e.QUARRY_DATA_DIR),
    adminKey: e.QUARRY_ADMIN_KEY,
    keyEnv: e.QUARRY_KEY_ENV,
    rateLimitPerMinute: e.QUARRY_RATE_LIMIT_PER_MINUTE,
    trustProxy: e.QUARRY_TRUST_PROXY,
    secretKey: e.QUARRY_SECRET_KEY,
    extraction: {
      concurrency: e.QUARRY_EXTRACTION_CONCURRENCY ?? Math.max(1, os.availableParallelism()),
      timeoutMs: e.QUARRY_EXTRACTION_TIMEOUT_S * 1000,
      memoryMb: e.QUARRY_EXTRACTION_MEMORY_MB,
      maxPages: e.QUARRY_MAX_PAGES,
      maxImagePixels: e.QUARRY_MAX_IMAGE_PIXELS,
      warmUpRuns: e.QUARRY_EXTRACTION_WARM_UP,
    },
    console: { adminEmail: e.QUARRY_ADMIN_EMAIL, adminPassword: e.QUARRY_ADMIN_PASSWORD, authSecret: e.NEXTAUTH_SECRET },
    webhooks: { allowInsecure: e.QUARRY_WEBHOOK_ALLOW_INSECURE, concurrency: e.QUARRY_WEBHOOK_CONCURRENCY },
    sources: { allowPrivate: e.QUARRY_SOURCES_ALLOW_PRIVATE, concurrency: e.QUARRY_SOURCE_SYNC_CONCURRENCY },
    storage: { url: e.QUARRY_STORAGE_URL, forcePathStyle: e.QUARRY_S3_FORCE_PATH_STYLE },
    workflowLeaseMs: Math.round(e.QUARRY_WORKFLOW_LEASE_S * 1000),
    knowledgeBases: {
      indexingConcurrency: e.QUARRY_INDEXING_CONCURRENCY,
      exactSearchMaxChunks: e.QUARRY_SEARCH_EXACT_MAX_CHUNKS,
      postingsCacheBytes: Math.round(e.QUARRY_POSTINGS_CACHE_MB * 1024 * 1024),
      maxChunksPerDocument: e.QUARRY_INDEXING_MAX_CHUNKS,
      indexingTimeoutMs: Math.round(e.QUARRY_INDEXING_TIMEOUT_S * 1000),
      indexingMemoryMb: e.QUARRY_INDEXING_MEMORY_MB,
    },
  };
  return cached;
}

/** Forget the cached configuration (tests change the environment between suites). */
export function resetConfig(): void {
  cached = undefined;
}
