/**
 * The extraction child process. It receives one task at a time over IPC, runs the extractor and
 * answers with the result or a coded error. Untrusted documents are parsed only here, so a file
 * that crashes, hangs or floods memory takes down this process, never the server.
 */
import { getConfig } from '@/lib/config';
import { ProgressWriter } from '@/lib/db/pacing';
import { extractDocument } from './engine';
import { withExtractionLimits } from './limits';
import { setPdfThreadEntry } from './pdf/threads';
import type { WorkerLimits } from './pool';
import { killProcessGroup, runningPrograms, watchPrograms } from './programs';
import { ExtractionError, type ExtractInput } from './types';
import { PDF_THREAD } from './worker-bundle';

type TaskMessage = { type: 'extract'; input: Omit<ExtractInput, 'onProgress' | 'signal'>; limits: WorkerLimits };

/**
 * Progress goes to the server at most this often (the first report and the last at once, one held
 * back sent when the time is up). A message per page cost the worker's main thread, which also
 * writes the Markdown and is the last to finish, about 90 µs a page; the server writes progress
 * twice a second at most.
 */
const PROGRESS_SEND_MS = 100;

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

function serveTasks(): void {
  // The bundled worker (plain JavaScript) starts threads for long PDFs from the page threads'
  // bundle, which is built beside it.
  if (import.meta.url.endsWith('.mjs')) setPdfThreadEntry(new URL(`./${PDF_THREAD.name}.mjs`, import.meta.url));

  process.on('message', (message: TaskMessage) => {
    if (message?.type !== 'extract') return;
    const controller = new AbortController();
    const limits = {
      memoryMb: message.limits.memoryMb,
      deadline: Date.now() + message.limits.timeoutMs,
      maxImagePixels: message.limits.maxImagePixels ?? getConfig().extraction.maxImagePixels,
    };
    const progress = new ProgressWriter<{ done: number; total: number }>(async (p) => send({ type: 'progress', ...p }), PROGRESS_SEND_MS);
    withExtractionLimits(limits, () =>
      extractDocument({
        ...message.input,
        signal: controller.signal,
        onProgress: (done, total) => progress.report({ done, total }, done >= total),
      }),
    )
      .then(async (result) => {
        await progress.stop();
        send({ type: 'result', result });
      })
      .catch(async (err: unknown) => {
        await progress.stop();
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

serveTasks();
