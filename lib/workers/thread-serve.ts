import { parentPort } from 'node:worker_threads';
import type { ReportedError, ThreadReply, ThreadRequest } from './thread-pool';

/** An error as the main thread gets it: class name, message, and a code and retryability when it has them. */
function report(err: unknown): ReportedError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const { code, retryable } = err as { code?: unknown; retryable?: unknown };
  return {
    name: err.name,
    message: err.message,
    ...(typeof code === 'string' ? { code } : {}),
    ...(typeof retryable === 'boolean' ? { retryable } : {}),
  };
}

/**
 * The thread side of a ThreadPool: answers each request with the handler's value or error, one
 * request at a time in arrival order (a handler may keep state between requests of a session).
 */
export function serveRequests(handle: (message: any) => unknown): void {
  const port = parentPort;
  if (!port) throw new Error('serveRequests runs in a worker thread');
  let queue: Promise<void> = Promise.resolve();
  port.on('message', ({ id, message }: ThreadRequest) => {
    queue = queue.then(async () => {
      let reply: ThreadReply;
      try {
        reply = { id, ok: true, value: await handle(message) };
      } catch (err) {
        reply = { id, ok: false, error: report(err) };
      }
      port.postMessage(reply);
    });
  });
}
