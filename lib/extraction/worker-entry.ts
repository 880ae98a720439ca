/**
 * The extraction child process. It receives one task at a time over IPC, runs the extractor and
 * answers with the result or a coded error. Untrusted documents are parsed only here, so a file
 * that crashes, hangs or floods memory takes down this process, never the server.
 */
import { getConfig } from '@/lib/config';
import { extractDocument } from './engine';
import { withExtractionLimits } from './limits';
import { setPdfThreadEntry } from './pdf/threads';
import type { WorkerLimits } from './pool';
import { killProcessGroup, runningPrograms, watchPrograms } from './programs';
import { ExtractionError, type ExtractInput } from './types';
import { PDF_THREAD } from './worker-bundle';

type TaskMessage = { type: 'extract'; input: Omit<ExtractInput, 'onProgress' | 'signal'>; limits: WorkerLimits };

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

serveTasks();
