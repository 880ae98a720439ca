import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { killProcessGroup } from './programs';
import { ensureWorkerBundle } from './worker-bundle';
import { ExtractionError, type ExtractInput, type ExtractResult, type ExtractionErrorCode } from './types';

export interface WorkerLimits {
  /** Wall-clock limit for one task. */
  timeoutMs: number;
  /**
   * Resident memory the child may use (JS heap, WebAssembly and native memory together); also
   * the address-space limit of each program it starts (see programs.ts).
   */
  memoryMb: number;
  /** Pixel budget of an image or rendered page; QUARRY_MAX_IMAGE_PIXELS when unset. */
  maxImagePixels?: number;
}

export interface WorkerTask {
  input: Omit<ExtractInput, 'onProgress' | 'signal'>;
  onProgress: (done: number, total: number) => void;
  signal: AbortSignal;
  limits: WorkerLimits;
}

type ChildMessage =
  | { type: 'ready' }
  | { type: 'progress'; done: number; total: number }
  | { type: 'result'; result: ExtractResult }
  | { type: 'error'; code: ExtractionErrorCode; message: string }
  | { type: 'program'; pid: number; running: boolean };

/**
 * A worker is replaced after this many tasks, or sooner when a task leaves it holding more than
 * RECYCLE_SHARE of its memory limit. Starting one takes about half a second, so replacing workers
 * often (it was every 25 tasks) cost short documents more than their extraction.
 */
const TASKS_PER_WORKER = 500;
const RECYCLE_SHARE = 0.4;
const IDLE_MS = 60_000;
const MEMORY_POLL_MS = 250;

/**
 * V8 flags of the extraction process (and its page threads). A new worker spends its first long
 * PDFs optimising the layout code again and again as new object shapes reach it: about 2 s of
 * optimising compiler time on the 400-page report, on threads that compete with the two reading
 * pages. A smaller inlining budget makes each of those compilations cheaper; the code it gives is
 * as fast once warm (the 400-page report's first run in a worker 0.93–0.99 → 0.85–0.86 s, warm
 * runs unchanged).
 */
const WORKER_V8_FLAGS = ['--max-inlined-bytecode-size-cumulative=300'];

function residentMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0);
    return kb / 1024;
  } catch {
    return 0;
  }
}

interface PooledWorker {
  child: ChildProcess;
  tasks: number;
  idleTimer?: NodeJS.Timeout;
  /** Process groups of the programs the worker is running (each has a group of its own). */
  programs: Set<number>;
}

/**
 * Extraction child processes, reused for a few tasks each. A task that runs too long, uses too
 * much memory or is cancelled has its process killed; the next task gets a fresh one.
 */
export class ExtractionWorkerPool {
  private idle: PooledWorker[] = [];
  private readonly all = new Set<PooledWorker>();
  private closing = false;

  private kill(worker: PooledWorker): void {
    for (const group of worker.programs) killProcessGroup(group);
    worker.programs.clear();
    const { pid } = worker.child;
    try {
      if (pid) process.kill(-pid, 'SIGKILL');
    } catch {
      worker.child.kill('SIGKILL');
    }
  }

  private spawn(entry: string, memoryMb: number): PooledWorker {
    const child = fork(entry, [], {
      execArgv: [`--max-old-space-size=${Math.max(256, Math.floor(memoryMb * 0.75))}`, ...WORKER_V8_FLAGS],
      env: { ...process.env, OMP_THREAD_LIMIT: '1', NODE_OPTIONS: '' },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      serialization: 'advanced',
      // Its own process group, so killing it stops anything it started; the programs it runs
      // have groups of their own, which it reports and `kill` stops too.
      detached: true,
    });
    const worker: PooledWorker = { child, tasks: 0, programs: new Set() };
    this.all.add(worker);
    child.on('message', (message: ChildMessage) => {
      if (message?.type !== 'program') return;
      if (message.running) worker.programs.add(message.pid);
      else worker.programs.delete(message.pid);
    });
    child.once('exit', () => {
      // A worker killed from outside (kill -9) leaves its programs behind: they go with it.
      for (const group of worker.programs) killProcessGroup(group);
      worker.programs.clear();
      this.all.delete(worker);
      this.idle = this.idle.filter((w) => w !== worker);
      clearTimeout(worker.idleTimer);
    });
    return worker;
  }

  private async acquire(memoryMb: number): Promise<PooledWorker> {
    const worker = this.idle.pop();
    if (worker && worker.child.connected) {
      clearTimeout(worker.idleTimer);
      return worker;
    }
    return this.spawn(await ensureWorkerBundle(), memoryMb);
  }

  /** After a task that ran under a limit of `memoryMb`: keeps the worker for the next, or replaces it. */
  private release(worker: PooledWorker, memoryMb: number): void {
    if (!worker.child.connected) {
      this.kill(worker);
      return;
    }
    const pid = worker.child.pid;
    if (worker.tasks >= TASKS_PER_WORKER || (pid && residentMb(pid) > memoryMb * RECYCLE_SHARE)) {
      this.kill(worker);
      // A replacement starts now, while it is not awaited, instead of when the next task comes.
      void this.warmSpare(memoryMb);
      return;
    }
    this.park(worker);
  }

  private park(worker: PooledWorker): void {
    worker.idleTimer = setTimeout(() => this.kill(worker), IDLE_MS);
    worker.idleTimer.unref();
    this.idle.push(worker);
  }

  private async warmSpare(memoryMb: number): Promise<void> {
    if (this.closing) return;
    try {
      this.park(this.spawn(await ensureWorkerBundle(), memoryMb));
    } catch {
      // the next task starts one itself
    }
  }

  async run(task: WorkerTask): Promise<ExtractResult> {
    const worker = await this.acquire(task.limits.memoryMb);
    worker.tasks += 1;
    const { child } = worker;
    return new Promise<ExtractResult>((resolve, reject) => {
      let settled = false;
      const finish = (error: ExtractionError | null, result?: ExtractResult, keep = false) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        clearInterval(memoryWatch);
        child.off('message', onMessage);
        child.off('exit', onExit);
        task.signal.removeEventListener('abort', onAbort);
        if (keep) this.release(worker, task.limits.memoryMb);
        else this.kill(worker);
        if (error) reject(error);
        else resolve(result!);
      };
      const onMessage = (message: ChildMessage) => {
        if (message.type === 'progress') task.onProgress(message.done, message.total);
        else if (message.type === 'result') finish(null, message.result, true);
        else if (message.type === 'error') finish(new ExtractionError(message.code, message.message), undefined, true);
      };
      const onExit = (code: number | null, signal: NodeJS.Signals | null) => {
        if (this.closing) {
          // Not the document's fault: the task is retried when the server runs again.
          settled = true;
          clearTimeout(timer);
          clearInterval(memoryWatch);
          reject(new Error('The extraction was interrupted because the server is shutting down'));
          return;
        }
        finish(
          new ExtractionError(
            'INTERNAL_ERROR',
            `The extraction process stopped unexpectedly (${signal ? `signal ${signal}` : `exit code ${code}`}) while reading this document`,
          ),
        );
      };
      const onAbort = () => {
        const reason = task.signal.reason;
        finish(reason instanceof ExtractionError ? reason : new ExtractionError('CANCELLED', 'The extraction was cancelled'));
      };
      const timer = setTimeout(
        () =>
          finish(
            new ExtractionError(
              'EXTRACTION_TIMEOUT',
              `The extraction took longer than the limit of ${Math.round(task.limits.timeoutMs / 1000)} s and was stopped`,
            ),
          ),
        task.limits.timeoutMs,
      );
      const memoryWatch = setInterval(() => {
        if (child.pid && residentMb(child.pid) > task.limits.memoryMb) {
          finish(
            new ExtractionError(
              'RESOURCE_LIMIT_EXCEEDED',
              `The extraction needed more than the limit of ${task.limits.memoryMb} MB of memory and was stopped`,
            ),
          );
        }
      }, MEMORY_POLL_MS);
      child.on('message', onMessage);
      child.once('exit', onExit);
      if (task.signal.aborted) {
        onAbort();
        return;
      }
      task.signal.addEventListener('abort', onAbort, { once: true });
      child.send({ type: 'extract', input: task.input, limits: task.limits });
    });
  }

  /** Kills every child (server shutdown, tests). */
  async close(): Promise<void> {
    this.closing = true;
    for (const worker of this.all) this.kill(worker);
    this.all.clear();
    this.idle = [];
  }
}

const globalForPool = globalThis as unknown as { __quarryExtractionPool?: ExtractionWorkerPool };

export function getExtractionPool(): ExtractionWorkerPool {
  return (globalForPool.__quarryExtractionPool ??= new ExtractionWorkerPool());
}
