// Polling an extraction, a knowledge-base document or a source's sync until it ends, reporting progress.
import { QuarryError, QuarryJobFailedError, QuarryTimeoutError, type FailedJob, type JobKind } from './errors.js';
import type { Extraction, KbDocument, SourceRun } from './types.js';

/** Where a job stands, the same shape for extractions, documents and syncs. */
export interface WaitProgress {
  /**
   * queued: not started; extracting: the extraction runs (a document waiting for it too);
   * syncing: a source's sync lists and fetches its items; indexing: a document's chunks are
   * prepared and written (or a sync waits for its documents); completed / failed: the end.
   */
  stage: 'queued' | 'extracting' | 'syncing' | 'indexing' | 'completed' | 'failed';
  /** 0–100 when known: the extraction's `progress`, a waiting document's `extraction_progress`, chunks written of the total, or a sync's items done of those found. */
  percent: number | undefined;
  /** While a document's chunks are written (PostgreSQL servers only). */
  chunksWritten?: number;
  chunkTotal?: number;
}

export interface WaitOptions<T> {
  /** Called after every poll, the last one included, with the progress and the object as read. */
  onProgress?: (progress: WaitProgress, current: T) => void;
  /** Time between polls (default 1000 ms). */
  intervalMs?: number;
  /** Give up with a QuarryTimeoutError after this long (default: wait as long as it takes). */
  timeoutMs?: number;
  signal?: AbortSignal;
}

export function extractionProgress(extraction: Extraction): WaitProgress {
  switch (extraction.status) {
    case 'completed':
      return { stage: 'completed', percent: 100 };
    case 'failed':
      return { stage: 'failed', percent: extraction.progress };
    case 'processing':
      return { stage: 'extracting', percent: extraction.progress ?? 0 };
    default:
      return { stage: 'queued', percent: extraction.progress ?? 0 };
  }
}

export function documentProgress(document: KbDocument): WaitProgress {
  switch (document.status) {
    case 'indexed':
      return { stage: 'completed', percent: 100 };
    case 'failed':
      return { stage: 'failed', percent: undefined };
    case 'indexing': {
      const counts = document.indexing_progress;
      if (!counts) return { stage: 'indexing', percent: undefined };
      const percent = counts.chunk_total > 0 ? Math.floor((100 * counts.chunks_written) / counts.chunk_total) : 0;
      return { stage: 'indexing', percent, chunksWritten: counts.chunks_written, chunkTotal: counts.chunk_total };
    }
    default:
      return document.waiting_for === 'extraction'
        ? { stage: 'extracting', percent: document.extraction_progress ?? 0 }
        : { stage: 'queued', percent: undefined };
  }
}

/** A sync run's stage; `percent` is the items done of those found so far (the total grows while it lists). */
export function sourceRunProgress(run: SourceRun): WaitProgress {
  const percent = run.items_total > 0 ? Math.floor((100 * run.items_done) / run.items_total) : undefined;
  switch (run.status) {
    case 'completed':
      return { stage: 'completed', percent: 100 };
    case 'failed':
      return { stage: 'failed', percent };
    case 'running':
      return { stage: 'syncing', percent: percent ?? 0 };
    case 'indexing':
      return { stage: 'indexing', percent };
    default:
      return { stage: 'queued', percent: undefined };
  }
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason);
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });

/**
 * Reads `read()` until `progressOf` says completed (resolves with the object) or failed (rejects
 * with QuarryJobFailedError). A 429 from the server waits its Retry-After and goes on.
 */
export async function pollUntilDone<T extends FailedJob>(
  kind: JobKind,
  read: () => Promise<T>,
  progressOf: (current: T) => WaitProgress,
  options: WaitOptions<T> = {},
): Promise<T> {
  const { intervalMs = 1000, timeoutMs, signal, onProgress } = options;
  const deadline = timeoutMs === undefined ? Infinity : Date.now() + timeoutMs;
  let what: string = kind;
  for (;;) {
    signal?.throwIfAborted();
    let current: T | undefined;
    try {
      current = await read();
    } catch (err) {
      if (!(err instanceof QuarryError && err.status === 429)) throw err;
      await sleep(Math.max(1, err.retryAfter ?? 1) * 1000, signal);
      continue;
    }
    what = `${kind} ${current.id}`;
    const progress = progressOf(current);
    onProgress?.(progress, current);
    if (progress.stage === 'completed') return current;
    if (progress.stage === 'failed') throw new QuarryJobFailedError(kind, current);
    const remaining = deadline - Date.now();
    if (remaining <= 0) throw new QuarryTimeoutError(what, timeoutMs!);
    // The last poll falls on the deadline itself.
    await sleep(Math.min(intervalMs, remaining), signal);
  }
}
