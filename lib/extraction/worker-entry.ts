/**
 * The extraction child process. It receives one task at a time over IPC, runs the extractor and
 * answers with the result or a coded error. Untrusted documents are parsed only here, so a file
 * that crashes, hangs or floods memory takes down this process, never the server.
 */
import { extractDocument } from './engine';
import { ExtractionError, type ExtractInput } from './types';

type TaskMessage = { type: 'extract'; input: Omit<ExtractInput, 'onProgress' | 'signal'> };

function send(message: unknown): void {
  if (process.connected) process.send?.(message);
}

process.on('message', (message: TaskMessage) => {
  if (message?.type !== 'extract') return;
  const controller = new AbortController();
  extractDocument({
    ...message.input,
    signal: controller.signal,
    onProgress: (done, total) => send({ type: 'progress', done, total }),
  })
    .then((result) => send({ type: 'result', result }))
    .catch((err: unknown) => {
      if (err instanceof ExtractionError) send({ type: 'error', code: err.code, message: err.message });
      else {
        const detail = err instanceof Error ? err.message : String(err);
        send({ type: 'error', code: 'INTERNAL_ERROR', message: `The document could not be processed: ${detail}` });
      }
    });
});

// The server went away (even by kill -9): nothing is waiting for this process any more.
process.on('disconnect', () => process.exit(0));
send({ type: 'ready' });
