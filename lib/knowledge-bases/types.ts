import { ApiError } from '@/lib/errors';
import { validateChunkingStrategy } from '@/lib/chunking';
import type { ChunkingStrategyValue } from '@/lib/db/schema';

export type ChunkingStrategy = ChunkingStrategyValue;

export const DEFAULT_CHUNK_SIZE = 512;
export const DEFAULT_CHUNKING_TYPE = 'paragraph' as const;

/**
 * Defaults for omitted strategy fields: type paragraph, chunk_size 512 tokens, overlap 64 tokens
 * (an eighth of chunk_size when that is smaller, so a small chunk_size alone stays valid).
 */
/** The overlap used when none is given: 64 tokens, or an eighth of chunk_size when that is smaller. */
export const defaultOverlap = (chunkSize: number) => Math.min(64, Math.floor(chunkSize / 8));

export function withStrategyDefaults(input: Partial<ChunkingStrategy> | undefined): ChunkingStrategy {
  const type = input?.type ?? DEFAULT_CHUNKING_TYPE;
  const chunkSize = input?.chunk_size ?? DEFAULT_CHUNK_SIZE;
  const overlap = input?.overlap ?? defaultOverlap(chunkSize);
  return { type, chunk_size: chunkSize, overlap };
}

/**
 * The strategy after an update: given fields replace the current ones; when chunk_size changes
 * and overlap is not given, overlap takes its default for the new size.
 */
export function mergeStrategy(current: ChunkingStrategy, input: Partial<ChunkingStrategy>): ChunkingStrategy {
  const chunkSize = input.chunk_size ?? current.chunk_size;
  const overlap = input.overlap ?? (input.chunk_size !== undefined ? defaultOverlap(chunkSize) : current.overlap);
  return { type: input.type ?? current.type, chunk_size: chunkSize, overlap };
}

/** The chunking module's validation as an API error. */
export function checkStrategy(strategy: ChunkingStrategy): ChunkingStrategy {
  try {
    validateChunkingStrategy(strategy);
  } catch (err) {
    const reason = (err as Error).message;
    const field = /overlap/.test(reason) ? 'overlap' : /chunk_size/.test(reason) ? 'chunk_size' : 'type';
    throw new ApiError('INVALID_REQUEST', `Invalid body: chunking_strategy.${field}: ${reason}`, {
      field: `chunking_strategy.${field}`,
      reason,
    });
  }
  return strategy;
}

export function sameStrategy(a: ChunkingStrategy, b: ChunkingStrategy): boolean {
  return a.type === b.type && a.chunk_size === b.chunk_size && a.overlap === b.overlap;
}

export const DOCUMENT_STATUSES = ['pending', 'indexing', 'indexed', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];
