import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { ExtractInput } from '@/lib/extraction/types';
import { ExtractionError, type ExtractionErrorCode } from '@/lib/extraction/types';
import type { PageText } from './types';

/**
 * Long PDFs are read by several threads at once: pdf.js and PDFium parse on one thread, so this
 * is how a document uses more than one core. The threads take pages in small runs from a shared
 * counter (PageClaims) rather than a fixed range each, so that they finish together: with fixed
 * halves the page thread, which starts a little later but has no metadata to read and no Markdown
 * to write, sat idle for the last 15-20% of a 400-page report. Only available where a thread entry
 * file is registered (the bundled extraction worker registers the page threads' bundle,
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

/** A run of pages, 1-based and inclusive. */
export interface PageRange {
  from: number;
  to: number;
}

/** A page source that hands out `range` once (one thread reading every page). */
export function onlyOnce(range: PageRange): () => PageRange | null {
  let taken = false;
  return () => {
    if (taken) return null;
    taken = true;
    return range;
  };
}

/** Pages a thread takes at a time: few enough that the threads end within a few pages of each other. */
export function claimSize(numPages: number, threads: number): number {
  return Math.max(1, Math.min(8, Math.floor(numPages / (threads * 8))));
}

/**
 * The pages still to read, shared by the threads of one document: each takes the next `size`
 * pages (fewer at the end) until none are left.
 */
export class PageClaims {
  private readonly next: Int32Array;

  constructor(
    readonly buffer: SharedArrayBuffer,
    readonly numPages: number,
    readonly size: number,
  ) {
    this.next = new Int32Array(buffer);
  }

  static create(numPages: number, size: number): PageClaims {
    return new PageClaims(new SharedArrayBuffer(4), numPages, size);
  }

  /** The next run of pages, or null when every page has been taken. */
  claim(): PageRange | null {
    const from = Atomics.add(this.next, 0, this.size) + 1;
    if (from > this.numPages) return null;
    return { from, to: Math.min(this.numPages, from + this.size - 1) };
  }
}

export interface PdfRangeJob {
  kind: 'pdf-pages';
  input: Omit<ExtractInput, 'onProgress' | 'signal'>;
  /** PageClaims' counter, numPages and size. */
  claims: { buffer: SharedArrayBuffer; numPages: number; size: number };
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

/** Pages being read by page threads and by the calling thread (in `join`). */
export interface RangeJobs {
  /** The pages the threads share: the calling thread takes its pages from here too. */
  claims: PageClaims;
  /** Reads the calling thread's share through `mainPages` and returns every page in order. */
  join(mainPages: () => Promise<PageText[]>): Promise<PageText[]>;
  /** Stops the page threads before `join` (their work is lost, the threads are ended). */
  stop(): void;
}

/**
 * Starts `threads - 1` page threads on the document's pages; the calling thread reads its share
 * in `join`. `onPages` is told how many pages (that need no OCR) a thread has
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
  const claims = PageClaims.create(numPages, claimSize(numPages, threads));
  const busy: Worker[] = [];
  const jobs: Promise<PageText[]>[] = [];
  const { onProgress: _progress, signal, ...plain } = input;
  for (let i = 1; i < threads; i++) {
    const job: PdfRangeJob = { kind: 'pdf-pages', input: plain, claims: { buffer: claims.buffer, numPages, size: claims.size }, wantOcr };
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
    claims,
    stop,
    async join(mainPages) {
      try {
        const ranges = await Promise.all([mainPages(), ...jobs]);
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
