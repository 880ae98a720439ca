import { ensureBundle } from '@/lib/workers/bundle';
import { ThreadFailure, ThreadPool, ThreadTaskError } from '@/lib/workers/thread-pool';
import type { LocalRerankConfig } from './config';
import { RerankError } from './errors';
import type { RerankThreadMessage } from './thread';

/*
 * The server's side of the rerank thread: one thread with a heap limit runs the cross-encoder,
 * each request with the reranker's time limit; the model stays loaded while the thread lives.
 */

const BUNDLE = { name: 'rerank-thread', entry: 'lib/rerank/thread.ts' };
const globalForPool = globalThis as unknown as { __quarryRerankThreads?: ThreadPool; __quarryRerankMemoryMb?: number };

function threads(memoryMb: number): ThreadPool {
  globalForPool.__quarryRerankMemoryMb = memoryMb;
  return (globalForPool.__quarryRerankThreads ??= new ThreadPool({
    entry: () => ensureBundle(BUNDLE),
    size: () => 1,
    memoryMb: () => globalForPool.__quarryRerankMemoryMb ?? memoryMb,
  }));
}

function translate(err: unknown, config: LocalRerankConfig): unknown {
  if (err instanceof ThreadFailure) {
    const why =
      err.reason === 'timeout'
        ? `took longer than ${config.timeoutMs / 1000} s (QUARRY_RERANK_TIMEOUT_S)`
        : err.reason === 'memory'
          ? `needed more than ${config.memoryMb} MB of memory (QUARRY_RERANK_MEMORY_MB)`
          : `stopped unexpectedly (${err.message})`;
    return new RerankError('RERANK_FAILED', `Reranking ${why}`);
  }
  if (err instanceof ThreadTaskError) {
    return new RerankError(err.reported.code === 'RERANK_NOT_CONFIGURED' ? 'RERANK_NOT_CONFIGURED' : 'RERANK_FAILED', err.reported.message);
  }
  return err;
}

/** One score in [0, 1] per passage, in input order, from the local cross-encoder. */
export async function rerankLocally(config: LocalRerankConfig, query: string, passages: string[]): Promise<number[]> {
  const session = await threads(config.memoryMb).acquire();
  try {
    const message: RerankThreadMessage = { modelDir: config.modelDir, model: config.model, query, passages };
    return await session.request<number[]>(message, config.timeoutMs);
  } catch (err) {
    throw translate(err, config);
  } finally {
    session.release();
  }
}

/** Stops the rerank thread (server shutdown, tests). */
export async function closeRerankThreads(): Promise<void> {
  await globalForPool.__quarryRerankThreads?.close();
  globalForPool.__quarryRerankThreads = undefined;
}
