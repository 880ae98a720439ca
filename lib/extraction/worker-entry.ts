/**
 * The extraction child process. It receives one task at a time over IPC, runs the extractor and
 * answers with the result or a coded error. Untrusted documents are parsed only here, so a file
 * that crashes, hangs or floods memory takes down this process, never the server.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { getConfig } from '@/lib/config';
import { ProgressWriter } from '@/lib/db/pacing';
import { extractDocument } from './engine';
import { warmUpDocument } from './pdf/run/warm-up';
import { withExtractionLimits } from './limits';
import { setPdfThreadEntry } from './pdf/run/threads';
import type { WorkerLimits } from './pool';
import { killProcessGroup, runningPrograms, watchPrograms } from './programs';
import { ExtractionError, type ExtractInput } from './types';
import { PDF_THREAD } from './worker-bundle';

type TaskMessage =
  | { type: 'extract'; input: Omit<ExtractInput, 'onProgress' | 'signal'>; limits: WorkerLimits }
  | { type: 'warm-up'; runs: number };

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

/**
 * Reads the warm-up document (pdf/run/warm-up.ts) up to `runs` times, in normal and simple mode in
 * turn (normal first: the API's default, whose first task also finds out which OCR engine is
 * installed), stopping after the run under way when a task arrives; tells the pool how many runs it
 * made. The document's pages all have a text layer, so no run starts OCR. A failure only ends the
 * warm-up.
 */
async function warmUp(runs: number, stop: () => boolean): Promise<void> {
  let done = 0;
  let dir: string | null = null;
  try {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-warm-up-'));
    const file = path.join(dir, 'warm-up.pdf');
    fs.writeFileSync(file, warmUpDocument());
    for (; done < runs && !stop(); done++) {
      await extractDocument({
        path: file,
        mimeType: 'application/pdf',
        extension: '.pdf',
        mode: done % 2 === 0 ? 'normal' : 'simple',
        options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
        onProgress: () => {},
        signal: new AbortController().signal,
        maxPages: 1000,
        tmpDir: dir,
      });
    }
  } catch {
    // a worker that cannot warm up still serves tasks
  } finally {
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  }
  send({ type: 'warm', runs: done });
}

function serveTasks(): void {
  // The bundled worker (plain JavaScript) starts threads for long PDFs from the page threads'
  // bundle, which is built beside it.
  if (import.meta.url.endsWith('.mjs')) setPdfThreadEntry(new URL(`./${PDF_THREAD.name}.mjs`, import.meta.url));

  // The warm-up under way: a task waits for its current run (the page threads are shared), then
  // no further run starts.
  let warming: Promise<void> = Promise.resolve();
  let taskArrived = false;

  process.on('message', (message: TaskMessage) => {
    if (message?.type === 'warm-up') {
      warming = warmUp(message.runs, () => taskArrived);
      return;
    }
    if (message?.type !== 'extract') return;
    taskArrived = true;
    void warming.then(() => runTask(message));
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

function runTask(message: Extract<TaskMessage, { type: 'extract' }>): void {
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
}

serveTasks();
