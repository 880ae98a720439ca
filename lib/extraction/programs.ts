/**
 * The one way an extraction starts an external program (tesseract, pdftoppm, pdfinfo,
 * pdfimages, and any converter added later). A program parses the same untrusted document as
 * the worker, so it gets the same limits:
 *
 * - An address-space limit (RLIMIT_AS) equal to the worker's memory cap and a CPU-time limit
 *   (RLIMIT_CPU) of what is left of the task's time, set by util-linux `prlimit` (or `ulimit` in
 *   /bin/sh where it is missing) before the program is exec'd; at the task's deadline it is
 *   killed in any case. RLIMIT_AS counts virtual memory, which is never less than resident
 *   memory; OMP_THREAD_LIMIT=1 stops tesseract from reserving a stack per OpenMP thread.
 * - A process group of its own, so stopping it (cancel, deadline, limit) also stops whatever it
 *   started. The worker reports running groups to the pool, which kills them together with the
 *   worker, and `setpriv --pdeathsig KILL` ends the program when the worker dies first, even
 *   by kill -9.
 *
 * Under RLIMIT_AS a program sees failed allocations rather than a signal, and tesseract and
 * pdftoppm then print "malloc fail" / "Out of memory" and often exit 0 with half the work
 * done. So stderr is watched: the first such message stops the program and fails the task with
 * RESOURCE_LIMIT_EXCEEDED, as does a crash close to the limit; SIGXCPU fails it with
 * EXTRACTION_TIMEOUT.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { extractionLimits, memoryLimitError, timeLimitError } from './limits';
import { abortError } from './types';

export interface ProgramResult {
  code: number | null;
  stdout: Buffer;
  stderr: string;
}

export interface ProgramOptions {
  signal?: AbortSignal;
  env?: NodeJS.ProcessEnv;
  /** Output beyond this many bytes kills the program (default 64 MB). */
  maxStdout?: number;
}

const OUT_OF_MEMORY = /out of memory|bad_alloc|cannot allocate memory|insufficient memory|alloc(?:ation)? fail|failed to allocate|allocation of \S+ failed/i;
/** A crash with this share of the address-space limit in use counts as running out of memory. */
const NEAR_LIMIT = 0.9;
const MEMORY_POLL_MS = 100;

/** The executable `name` resolves to (a path, or a name looked up on PATH), or null. */
export function findProgram(name: string): string | null {
  const candidates = name.includes('/')
    ? [path.resolve(name)]
    : (process.env.PATH ?? '').split(path.delimiter).filter(Boolean).map((dir) => path.join(dir, name));
  for (const file of candidates) {
    try {
      fs.accessSync(file, fs.constants.X_OK);
      if (fs.statSync(file).isFile()) return file;
    } catch {
      // not here
    }
  }
  return null;
}

let launchers: { prlimit: string | null; setpriv: string | null; sh: string | null } | null = null;

/** argv that runs `program` with the limits applied, without a shell parsing any argument. */
function limitedArgv(program: string, args: string[], memoryMb: number, cpuSeconds: number): string[] {
  launchers ??= { prlimit: findProgram('prlimit'), setpriv: findProgram('setpriv'), sh: findProgram('sh') };
  const { prlimit, setpriv, sh } = launchers;
  let argv: string[];
  if (prlimit) {
    // The soft CPU limit sends SIGXCPU, the hard one a second later SIGKILL.
    argv = [prlimit, `--as=${memoryMb * 1024 * 1024}`, `--cpu=${cpuSeconds}:${cpuSeconds + 1}`, '--', program, ...args];
  } else if (sh) {
    const script = 'ulimit -v "$1" && ulimit -t "$2" && shift 2 && exec "$@"';
    argv = [sh, '-c', script, 'quarry-limit', String(memoryMb * 1024), String(cpuSeconds), program, ...args];
  } else {
    throw new Error('Neither prlimit nor sh is available to run programs under resource limits');
  }
  return setpriv ? [setpriv, '--pdeathsig', 'KILL', '--', ...argv] : argv;
}

type ProgramListener = (pid: number, running: boolean) => void;
const running = new Set<number>();
const listeners = new Set<ProgramListener>();

/** Tells `listener` when a program (its process group id) starts and ends; returns an unsubscribe. */
export function watchPrograms(listener: ProgramListener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Process groups of the programs running now. */
export function runningPrograms(): number[] {
  return [...running];
}

export function killProcessGroup(pgid: number): void {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    // already gone
  }
}

function setRunning(pid: number, on: boolean): void {
  if (on === running.has(pid)) return;
  if (on) running.add(pid);
  else running.delete(pid);
  for (const listener of listeners) listener(pid, on);
}

function peakVirtualKb(pid: number): number {
  try {
    return Number(/VmPeak:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0);
  } catch {
    return 0;
  }
}

/**
 * Runs a program under the current extraction's limits and collects its output. Rejects with
 * an ENOENT error when the program is missing, the abort error when `signal` aborts,
 * EXTRACTION_TIMEOUT at the deadline and RESOURCE_LIMIT_EXCEEDED when it runs out of memory.
 */
export function runProgram(command: string, args: string[], options: ProgramOptions = {}): Promise<ProgramResult> {
  const { signal } = options;
  const maxStdout = options.maxStdout ?? 64 * 1024 * 1024;
  const { memoryMb, deadline } = extractionLimits();
  const name = path.basename(command);
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(abortError(signal));
    const remainingMs = deadline - Date.now();
    if (remainingMs <= 0) return reject(timeLimitError(name));
    const program = findProgram(command);
    if (!program) return reject(Object.assign(new Error(`spawn ${command} ENOENT`), { code: 'ENOENT', path: command }));
    let argv: string[];
    try {
      argv = limitedArgv(program, args, memoryMb, Math.ceil(remainingMs / 1000));
    } catch (err) {
      return reject(err);
    }
    const child = spawn(argv[0], argv.slice(1), {
      env: { ...(options.env ?? process.env), OMP_THREAD_LIMIT: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
      windowsHide: true,
    });
    const pid = child.pid;
    const out: Buffer[] = [];
    let outBytes = 0;
    let err = '';
    let errTail = '';
    let peakKb = 0;
    let failure: Error | null = null;
    let exited = false;
    const stop = (why: Error) => {
      failure ??= why;
      if (pid) killProcessGroup(pid);
      else child.kill('SIGKILL');
    };
    const onAbort = () => stop(abortError(signal!));
    signal?.addEventListener('abort', onAbort, { once: true });
    const timer = setTimeout(() => stop(timeLimitError(name)), remainingMs);
    const memoryWatch = setInterval(() => {
      if (pid && !exited) peakKb = Math.max(peakKb, peakVirtualKb(pid));
    }, MEMORY_POLL_MS);
    const cleanUp = () => {
      clearTimeout(timer);
      clearInterval(memoryWatch);
      signal?.removeEventListener('abort', onAbort);
    };
    if (pid) setRunning(pid, true);

    child.stdout.on('data', (chunk: Buffer) => {
      outBytes += chunk.length;
      if (outBytes > maxStdout) stop(new Error(`${name} wrote more than ${maxStdout} bytes`));
      else out.push(chunk);
    });
    child.stderr.on('data', (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      if (err.length < 64 * 1024) err += text;
      // Checked across chunk boundaries, and beyond the part kept for messages.
      if (OUT_OF_MEMORY.test(errTail + text)) stop(memoryLimitError(name, memoryMb));
      errTail = text.slice(-64);
    });
    child.on('exit', (code, killedBy) => {
      exited = true;
      if (pid) {
        // Nothing the program started outlives it; this also closes pipes they held open.
        killProcessGroup(pid);
        setRunning(pid, false);
      }
      if (killedBy === 'SIGXCPU') failure ??= timeLimitError(name);
      else if ((killedBy !== null || code !== 0) && peakKb >= NEAR_LIMIT * memoryMb * 1024) failure ??= memoryLimitError(name, memoryMb);
    });
    child.on('error', (e) => {
      cleanUp();
      if (pid) setRunning(pid, false);
      reject(failure ?? e);
    });
    child.on('close', (code) => {
      cleanUp();
      if (failure) reject(failure);
      else resolve({ code, stdout: Buffer.concat(out), stderr: err });
    });
  });
}
