import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ExtractInput } from '../types';
import { ExtractionError, type ExtractionErrorCode } from '../types';
import type { PageText } from './types';

/**
 * Long PDFs are read by several threads at once, each taking a range of pages: pdf.js parses on
 * one thread, so this is how a document uses more than one core. Only available where a thread
 * entry file is registered (the bundled extraction worker registers the page threads' bundle,
 * thread-entry.ts).
 */
let threadEntry: URL | null = null;

export function setPdfThreadEntry(entry: URL | null): void {
  threadEntry = entry;
}

const MIN_PAGES_PER_THREAD = 16;
const MAX_THREADS = 4;

export function planThreads(numPages: number): number {
  if (!threadEntry) return 1;
  return Math.max(1, Math.min(os.availableParallelism(), MAX_THREADS, Math.floor(numPages / MIN_PAGES_PER_THREAD)));
}

export interface PdfRangeJob {
  kind: 'pdf-range';
  input: Omit<ExtractInput, 'onProgress' | 'signal'>;
  from: number;
  to: number;
  wantOcr: boolean;
}

export type ThreadMessage =
  /** Pages finished (without OCR to come) since the thread's last report. */
  | { type: 'progress'; pages: number }
  | { type: 'done'; pages: PageText[] }
  | { type: 'error'; code: ExtractionErrorCode; message: string };

/** How often a page thread reports finished pages at most (the server shows progress twice a second). */
export const PROGRESS_MS = 100;

const idle: Worker[] = [];

/** A page thread, kept between documents so pdf.js is loaded once per thread, not per document. */
function acquireThread(): Worker {
  const reused = idle.pop();
  if (reused) return reused;
  const worker = new Worker(threadEntry!);
  worker.unref();
  worker.once('exit', () => {
    const i = idle.indexOf(worker);
    if (i >= 0) idle.splice(i, 1);
  });
  return worker;
}

/** Page ranges being read by page threads, and the calling thread's own range, read by `join`. */
export interface RangeJobs {
  /** Last page of the calling thread's range (1..mainTo). */
  mainTo: number;
  /** Reads the calling thread's range through `mainRange` and returns every page in order. */
  join(mainRange: () => Promise<PageText[]>): Promise<PageText[]>;
  /** Stops the page threads before `join` (their work is lost, the threads are ended). */
  stop(): void;
}

/**
 * Starts reading pages ⌈n/threads⌉+1..n in page threads, a range each; the calling thread reads
 * the first range in `join`. `onPages` is told how many pages (that need no OCR) a thread has
 * finished since it last told: threads report at most every PROGRESS_MS, as the calling thread
 * reads their messages only between its own pages and at the end (a message per page cost it
 * 10-20 ms of handling at the end of a 400-page document).
 */
export function startRangeJobs(
  input: ExtractInput,
  numPages: number,
  threads: number,
  wantOcr: boolean,
  onPages: (pages: number) => void,
): RangeJobs {
  const size = Math.ceil(numPages / threads);
  const busy: Worker[] = [];
  const jobs: Promise<PageText[]>[] = [];
  const { onProgress: _progress, signal, ...plain } = input;
  for (let i = 1; i < threads; i++) {
    const from = i * size + 1;
    const to = Math.min(numPages, (i + 1) * size);
    if (from > to) break;
    const job: PdfRangeJob = { kind: 'pdf-range', input: plain, from, to, wantOcr };
    const worker = acquireThread();
    busy.push(worker);
    const pending = new Promise<PageText[]>((resolve, reject) => {
      const onMessage = (message: ThreadMessage) => {
        if (message.type === 'progress') return onPages(message.pages);
        cleanup();
        if (message.type === 'done') resolve(message.pages);
        else reject(new ExtractionError(message.code, message.message));
      };
      const onExit = (code: number) => {
        cleanup();
        reject(new Error(`a PDF page thread stopped (exit code ${code})`));
      };
      const cleanup = () => {
        worker.off('message', onMessage);
        worker.off('exit', onExit);
        worker.off('error', onExit);
      };
      worker.on('message', onMessage);
      worker.once('exit', onExit);
      worker.once('error', onExit);
      worker.postMessage(job);
    });
    // Settled by `join`, or dropped by `stop`.
    pending.catch(() => undefined);
    jobs.push(pending);
  }
  let aborted = false;
  const stop = () => {
    if (aborted) return;
    aborted = true;
    signal.removeEventListener('abort', stop);
    for (const w of busy) void w.terminate();
  };
  signal.addEventListener('abort', stop, { once: true });
  return {
    mainTo: Math.min(numPages, size),
    stop,
    async join(mainRange) {
      try {
        const ranges = await Promise.all([mainRange(), ...jobs]);
        return ranges.flat().sort((a, b) => a.page - b.page);
      } catch (err) {
        stop();
        throw err;
      } finally {
        signal.removeEventListener('abort', stop);
        if (!aborted) idle.push(...busy);
      }
    },
  };
}
