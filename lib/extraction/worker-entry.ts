/**
 * The extraction child process. It receives one task at a time over IPC, runs the extractor and
 * answers with the result or a coded error. Untrusted documents are parsed only here, so a file
 * that crashes, hangs or floods memory takes down this process, never the server.
 * The same file also runs as a worker thread reading a range of a long PDF's pages.
 */
import { isMainThread, parentPort, workerData } from 'node:worker_threads';
import { getConfig } from '@/lib/config';
import { extractDocument } from './engine';
import { withExtractionLimits } from './limits';
import { runPdfRangeJob } from './pdf/thread-job';
import { setPdfThreadEntry, type PdfRangeJob } from './pdf/threads';
import type { WorkerLimits } from './pool';
import { killProcessGroup, runningPrograms, watchPrograms } from './programs';
import { ExtractionError, type ExtractInput } from './types';

type TaskMessage = { type: 'extract'; input: Omit<ExtractInput, 'onProgress' | 'signal'>; limits: WorkerLimits };

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

function serveTasks(): void {
  // The bundled worker (plain JavaScript) can start threads from its own file for long PDFs.
  if (import.meta.url.endsWith('.mjs')) setPdfThreadEntry(new URL(import.meta.url));

  process.on('message', (message: TaskMessage) => {
    if (message?.type !== 'extract') return;
    const controller = new AbortController();
    const limits = {
      memoryMb: message.limits.memoryMb,
      deadline: Date.now() + message.limits.timeoutMs,
      maxImagePixels: message.limits.maxImagePixels ?? getConfig().extraction.maxImagePixels,
    };
    withExtractionLimits(limits, () =>
      extractDocument({
        ...message.input,
        signal: controller.signal,
        onProgress: (done, total) => send({ type: 'progress', done, total }),
      }),
    )
      .then((result) => send({ type: 'result', result }))
      .catch((err: unknown) => {
        if (err instanceof ExtractionError) send({ type: 'error', code: err.code, message: err.message });
        else {
          const detail = err instanceof Error ? err.message : String(err);
          send({ type: 'error', code: 'INTERNAL_ERROR', message: `The document could not be processed: ${detail}` });
        }
      });
  });

  // The pool kills the programs' process groups along with this process.
  watchPrograms((pid, running) => send({ type: 'program', pid, running }));
  // The server went away (even by kill -9): nothing is waiting for this process any more.
  process.on('disconnect', () => {
    for (const group of runningPrograms()) killProcessGroup(group);
    process.exit(0);
  });
  send({ type: 'ready' });
}

if (!isMainThread && (workerData as { kind?: string } | undefined)?.kind === 'pdf-range-thread') {
  // A page thread: one range job at a time, for as long as the process keeps it.
  parentPort!.on('message', (job: PdfRangeJob) => void runPdfRangeJob(job, parentPort!));
} else {
  serveTasks();
}
