import type { ChunkingStrategy, ExtractionLayout } from '@/lib/chunking';
import { getConfig } from '@/lib/config';
import { EmbeddingError, type EmbedderRecipe } from '@/lib/embeddings';
import { EMBEDDING_ERROR_CODES, type EmbeddingErrorCode } from '@/lib/embeddings/errors';
import { ensureBundle } from '@/lib/workers/bundle';
import { ThreadFailure, ThreadPool, ThreadTaskError, type ThreadSession } from '@/lib/workers/thread-pool';
import { IndexingError } from './errors';
import type { ChunkRow, ChunkSource, PreparedSummary } from './prepare';
import type { PrepareThreadMessage } from './prepare-thread';

/*
 * The server's side of the indexing threads. Chunking, tokenising, embedding (built-in and local
 * models) and keyword analysis all run in a thread with a heap limit and a time limit per request;
 * the server only fetches finished rows, a batch at a time, while it writes them. Threads in use
 * are bounded by QUARRY_INDEXING_CONCURRENCY; more documents wait for one.
 */

const BUNDLE = { name: 'indexing-thread', entry: 'lib/knowledge-bases/prepare-thread.ts' };
const RELEASE_TIMEOUT_MS = 10_000;

const globalForPool = globalThis as unknown as { __quarryIndexingThreads?: ThreadPool };

export function getIndexingThreads(): ThreadPool {
  return (globalForPool.__quarryIndexingThreads ??= new ThreadPool({
    entry: () => ensureBundle(BUNDLE),
    size: () => getConfig().knowledgeBases.indexingConcurrency,
    memoryMb: () => getConfig().knowledgeBases.indexingMemoryMb,
  }));
}

/** The thread's error as the indexing code knows it: a document failure, an embedding failure, or a plain error (retried). */
function translate(err: unknown): unknown {
  if (err instanceof ThreadFailure) {
    const { indexingTimeoutMs, indexingMemoryMb } = getConfig().knowledgeBases;
    switch (err.reason) {
      case 'timeout':
        return new IndexingError(
          'INDEXING_TIMEOUT',
          `Indexing this document took longer than the limit of ${indexingTimeoutMs / 1000} s (QUARRY_INDEXING_TIMEOUT_S) and was stopped`,
        );
      case 'memory':
        return new IndexingError(
          'RESOURCE_LIMIT_EXCEEDED',
          `Indexing this document needed more than the limit of ${indexingMemoryMb} MB of memory (QUARRY_INDEXING_MEMORY_MB) and was stopped`,
        );
      case 'crashed':
        return new IndexingError('INDEXING_FAILED', `The indexing thread stopped unexpectedly while indexing this document (${err.message})`);
      case 'closed':
        // Not the document's fault: the workflow tries again when the server runs again.
        return new Error('Indexing was interrupted because the server is shutting down');
    }
  }
  if (err instanceof ThreadTaskError) {
    const { name, code, message, retryable } = err.reported;
    if (name === 'IndexingError' && code) return new IndexingError(code, message);
    if (name === 'EmbeddingError' && (EMBEDDING_ERROR_CODES as readonly string[]).includes(code ?? '')) {
      return new EmbeddingError(code as EmbeddingErrorCode, message, retryable === true);
    }
    return new Error(message);
  }
  return err;
}

async function ask<T>(session: ThreadSession, message: PrepareThreadMessage): Promise<T> {
  try {
    return await session.request<T>(message, getConfig().knowledgeBases.indexingTimeoutMs);
  } catch (err) {
    throw translate(err);
  }
}

export interface PrepareInput {
  markdown: string;
  /** Where the Markdown's text sits on its pages, when known: chunks then carry boxes. */
  layout?: ExtractionLayout | null;
  /** The extraction's document model (its blocks' spans in the Markdown) as JSON text, when it was kept. */
  document?: string | null;
  strategies: ChunkingStrategy[];
  embedder: EmbedderRecipe;
  metadata: Record<string, unknown>;
}

/** A thread taken for one or more documents: prepare one, write its chunks, prepare the next. */
export interface Preparer {
  /** One chunk source per strategy, valid until the next prepare. */
  prepare(input: PrepareInput): Promise<ChunkSource[]>;
}

/**
 * Runs `fn` with an indexing thread, taken on its first prepare (waiting for a free one) and
 * given back afterwards.
 */
export async function withPreparer<T>(fn: (preparer: Preparer) => Promise<T>): Promise<T> {
  let session: ThreadSession | undefined;
  const preparer: Preparer = {
    async prepare(input) {
      session ??= await getIndexingThreads()
        .acquire()
        .catch((err) => {
          throw translate(err);
        });
      const taken = session;
      const limits = { maxChunks: getConfig().knowledgeBases.maxChunksPerDocument };
      const summaries = await ask<PreparedSummary[]>(taken, { type: 'prepare', ...input, limits });
      return summaries.map((summary, set) => ({
        ...summary,
        rows: (start: number, count: number) => ask<ChunkRow[]>(taken, { type: 'rows', set, start, count }),
      }));
    },
  };
  try {
    return await fn(preparer);
  } finally {
    if (session) {
      // Frees the thread's copy of the chunks now rather than when it next prepares.
      await session.request({ type: 'release' } satisfies PrepareThreadMessage, RELEASE_TIMEOUT_MS).catch(() => undefined);
      session.release();
    }
  }
}
