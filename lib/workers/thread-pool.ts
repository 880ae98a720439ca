import { Worker } from 'node:worker_threads';

/**
 * Worker threads for CPU work the server's main thread must not do, kept between tasks so each
 * loads its libraries once. A caller takes a thread for a session of requests (the thread may
 * keep state between them) and gives it back. Every thread has a JavaScript heap limit, every
 * request a time limit; a thread that overruns either, or dies, is terminated and its session
 * fails with a ThreadFailure, never the server.
 */

export type ThreadFailureReason = 'timeout' | 'memory' | 'crashed' | 'closed';

/** The thread did not answer: it ran out of time or memory, stopped, or the pool was closed. */
export class ThreadFailure extends Error {
  constructor(
    readonly reason: ThreadFailureReason,
    message: string,
  ) {
    super(message);
    this.name = 'ThreadFailure';
  }
}

/** An error thrown by the handler inside the thread, as reported over the message channel. */
export interface ReportedError {
  name: string;
  message: string;
  code?: string;
  retryable?: boolean;
}

export type ThreadRequest = { id: number; message: unknown };
export type ThreadReply = { id: number; ok: true; value: unknown } | { id: number; ok: false; error: ReportedError };

/** The handler in the thread threw: the request failed, the thread is fine. */
export class ThreadTaskError extends Error {
  constructor(readonly reported: ReportedError) {
    super(reported.message);
    this.name = 'ThreadTaskError';
  }
}

export interface ThreadPoolOptions {
  /** Path of the bundled thread entry (see lib/workers/bundle.ts). */
  entry: () => Promise<string>;
  /** Threads in use at once; further sessions wait for one. */
  size: () => number;
  /** JavaScript heap limit of one thread (resourceLimits.maxOldGenerationSizeMb). */
  memoryMb: () => number;
  /** A thread left idle this long is stopped. */
  idleMs?: number;
}

interface Pending {
  resolve: (value: unknown) => void;
  reject: (err: Error) => void;
  timer: NodeJS.Timeout;
}

interface PooledThread {
  worker: Worker;
  memoryMb: number;
  pending: Map<number, Pending>;
  failure?: ThreadFailure;
  idleTimer?: NodeJS.Timeout;
}

export interface ThreadSession {
  /** Sends one request; rejects with ThreadTaskError (handler threw) or ThreadFailure (thread lost). */
  request<T>(message: unknown, timeoutMs: number): Promise<T>;
  /** Gives the thread back (a failed one is discarded). */
  release(): void;
}

const DEFAULT_IDLE_MS = 60_000;

export class ThreadPool {
  private idle: PooledThread[] = [];
  private readonly all = new Set<PooledThread>();
  private busy = 0;
  private waiting: (() => void)[] = [];
  private closed = false;
  private nextId = 1;

  constructor(private readonly options: ThreadPoolOptions) {}

  async acquire(): Promise<ThreadSession> {
    while (!this.closed && this.busy >= Math.max(1, this.options.size())) await new Promise<void>((resolve) => this.waiting.push(resolve));
    if (this.closed) throw new ThreadFailure('closed', 'The server is shutting down');
    this.busy += 1;
    let thread: PooledThread;
    try {
      thread = await this.take(this.options.memoryMb());
    } catch (err) {
      this.done();
      throw err;
    }
    thread.worker.ref();
    let released = false;
    return {
      request: (message, timeoutMs) => this.send(thread, message, timeoutMs),
      release: () => {
        if (released) return;
        released = true;
        this.giveBack(thread);
        this.done();
      },
    };
  }

  /** Terminates every thread; sessions under way fail with reason 'closed' (server shutdown, tests). */
  async close(): Promise<void> {
    this.closed = true;
    const threads = [...this.all];
    for (const thread of threads) this.fail(thread, new ThreadFailure('closed', 'The server is shutting down'));
    await Promise.all(threads.map((t) => t.worker.terminate()));
    for (const wake of this.waiting.splice(0)) wake();
  }

  private done(): void {
    this.busy -= 1;
    this.waiting.shift()?.();
  }

  private async take(memoryMb: number): Promise<PooledThread> {
    for (;;) {
      const thread = this.idle.pop();
      if (!thread) break;
      clearTimeout(thread.idleTimer);
      if (thread.memoryMb === memoryMb && !thread.failure) return thread;
      void thread.worker.terminate();
    }
    return this.spawn(await this.options.entry(), memoryMb);
  }

  private spawn(entry: string, memoryMb: number): PooledThread {
    const worker = new Worker(entry, { resourceLimits: { maxOldGenerationSizeMb: memoryMb } });
    const thread: PooledThread = { worker, memoryMb, pending: new Map() };
    this.all.add(thread);
    worker.on('message', (reply: ThreadReply) => {
      const pending = thread.pending.get(reply.id);
      if (!pending) return;
      thread.pending.delete(reply.id);
      clearTimeout(pending.timer);
      if (reply.ok) pending.resolve(reply.value);
      else pending.reject(new ThreadTaskError(reply.error));
    });
    worker.on('error', (err: Error & { code?: string }) => {
      const failure =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? new ThreadFailure('memory', `the thread needed more than its limit of ${memoryMb} MB of memory`)
          : new ThreadFailure('crashed', `the thread stopped: ${err.message}`);
      this.fail(thread, failure);
    });
    worker.on('exit', (code) => {
      this.fail(thread, new ThreadFailure('crashed', `the thread stopped (exit code ${code})`));
      this.all.delete(thread);
      this.idle = this.idle.filter((t) => t !== thread);
      clearTimeout(thread.idleTimer);
    });
    return thread;
  }

  /** Marks the thread lost (the first reason sticks) and rejects what it was asked. */
  private fail(thread: PooledThread, failure: ThreadFailure): void {
    thread.failure ??= failure;
    for (const pending of thread.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(thread.failure);
    }
    thread.pending.clear();
  }

  private send<T>(thread: PooledThread, message: unknown, timeoutMs: number): Promise<T> {
    if (thread.failure) return Promise.reject(thread.failure);
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.fail(thread, new ThreadFailure('timeout', `the thread did not finish within ${Math.round(timeoutMs / 100) / 10} s`));
        void thread.worker.terminate();
      }, timeoutMs);
      thread.pending.set(id, { resolve: resolve as (value: unknown) => void, reject, timer });
      thread.worker.postMessage({ id, message } satisfies ThreadRequest);
    });
  }

  private giveBack(thread: PooledThread): void {
    if (thread.failure || this.closed || thread.pending.size > 0) {
      void thread.worker.terminate();
      return;
    }
    thread.worker.unref();
    thread.idleTimer = setTimeout(() => void thread.worker.terminate(), this.options.idleMs ?? DEFAULT_IDLE_MS);
    thread.idleTimer.unref();
    this.idle.push(thread);
  }
}
