import { fork, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import { getConfig } from '@/lib/config';
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
  | { type: 'program'; pid: number; running: boolean }
  | { type: 'warm'; runs: number };

/**
 * A worker is replaced after this many tasks, or sooner when a task leaves it holding more than
 * RECYCLE_SHARE of its memory limit. Starting one takes about half a second, so replacing workers
 * often (it was every 25 tasks) cost short documents more than their extraction.
 */
const TASKS_PER_WORKER = 500;
const RECYCLE_SHARE = 0.4;
/**
 * Resident memory of a worker after its warm-up (about 265 MB measured after five runs, 210 MB
 * after any first PDF). Workers warm up only under a memory limit whose recycling share leaves
 * room for this, or every task would replace a worker just warmed.
 */
const WARM_WORKER_MB = 320;
/** Idle workers beyond the last one are stopped after this long; the last one is kept, warm. */
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
  /** Settles with the warm-up runs the worker made once it has warmed up (0 when it was not asked or stopped). */
  warm: Promise<number>;
  settleWarm: (runs: number) => void;
  warmed: boolean;
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

  private readonly warmUpRuns: number;
  private readonly idleMs: number;

  constructor(options: { warmUpRuns?: number; idleMs?: number } = {}) {
    /** Warm-up runs each spare worker makes before its first task (QUARRY_EXTRACTION_WARM_UP). */
    this.warmUpRuns = options.warmUpRuns ?? getConfig().extraction.warmUpRuns;
    this.idleMs = options.idleMs ?? IDLE_MS;
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
    let resolveWarm: (runs: number) => void = () => {};
    const warm = new Promise<number>((resolve) => (resolveWarm = resolve));
    const settleWarm = (runs: number) => {
      resolveWarm(runs);
      worker.warmed = true;
      this.quiet(worker);
    };
    const worker: PooledWorker = { child, tasks: 0, programs: new Set(), warm, settleWarm, warmed: false };
    this.all.add(worker);
    child.on('message', (message: ChildMessage) => {
      if (message?.type === 'warm') settleWarm(message.runs);
      if (message?.type !== 'program') return;
      if (message.running) worker.programs.add(message.pid);
      else worker.programs.delete(message.pid);
    });
    child.once('exit', () => {
      settleWarm(0);
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
      worker.child.ref();
      worker.child.channel?.ref();
      return worker;
    }
    const spawned = this.spawn(await ensureWorkerBundle(), memoryMb);
    // Started for a task that is waiting: it warms up on that task.
    spawned.settleWarm(0);
    return spawned;
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
    this.idle.push(worker);
    this.armIdleTimer(worker);
    this.quiet(worker);
  }

  /**
   * A warm worker waiting for a task does not keep this process running (a script that forgot to
   * close the pool still ends); it does while it warms up, so that waiting for the warm-up works.
   */
  private quiet(worker: PooledWorker): void {
    if (!worker.warmed || !this.idle.includes(worker)) return;
    worker.child.unref();
    worker.child.channel?.unref();
  }

  /** Stops an idle worker after `idleMs` unless it is the pool's last one, which stays for the next task. */
  private armIdleTimer(worker: PooledWorker): void {
    worker.idleTimer = setTimeout(() => {
      if (this.all.size <= 1) return this.armIdleTimer(worker);
      // Out of the pool at once, so that a timer firing before this one has exited keeps its worker.
      this.all.delete(worker);
      this.idle = this.idle.filter((w) => w !== worker);
      this.kill(worker);
    }, this.idleMs);
    worker.idleTimer.unref();
  }

  /**
   * A new worker kept for the next task, which warms up on the warm-up document (pdf/run/warm-up.ts)
   * while it waits: its first long PDF then runs on compiled code (the 400-page report's first run
   * in a worker 0.70–0.76 → 0.43–0.54 s). A task that arrives meanwhile waits for the warm-up run under way.
   */
  private async warmSpare(memoryMb: number): Promise<PooledWorker | null> {
    if (this.closing) return null;
    try {
      const worker = this.spawn(await ensureWorkerBundle(), memoryMb);
      if (this.warmUpRuns > 0 && memoryMb * RECYCLE_SHARE >= WARM_WORKER_MB) worker.child.send({ type: 'warm-up', runs: this.warmUpRuns });
      else worker.settleWarm(0);
      this.park(worker);
      return worker;
    } catch {
      // the next task starts one itself
      return null;
    }
  }

  /**
   * Starts a worker for the next task unless one is waiting (the server calls this when it starts)
   * and settles with the warm-up runs it made once it is warm.
   */
  async prestart(memoryMb = getConfig().extraction.memoryMb): Promise<number> {
    const waiting = this.idle.find((w) => w.child.connected);
    if (waiting) return waiting.warm;
    const worker = await this.warmSpare(memoryMb);
    return worker ? worker.warm : 0;
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
