/** Processes as /proc shows them, for tests that check what an extraction leaves running. */
import fs from 'node:fs';

export interface ProcessInfo {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgrp: number;
}

export function processInfo(pid: number): ProcessInfo | null {
  try {
    // "pid (comm) state ppid pgrp …"; comm may itself hold spaces and parentheses.
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const close = stat.lastIndexOf(')');
    const [state, ppid, pgrp] = stat.slice(close + 2).split(' ');
    return { pid, comm: stat.slice(stat.indexOf('(') + 1, close), state, ppid: Number(ppid), pgrp: Number(pgrp) };
  } catch {
    return null;
  }
}

/** Running (not zombie) processes descending from `root`. */
export function descendants(root: number): ProcessInfo[] {
  const all = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .map((d) => processInfo(Number(d)))
    .filter((p): p is ProcessInfo => p !== null && p.state !== 'Z');
  const found: ProcessInfo[] = [];
  let parents = new Set([root]);
  while (parents.size > 0) {
    const children = all.filter((p) => parents.has(p.ppid));
    found.push(...children);
    parents = new Set(children.map((p) => p.pid));
  }
  return found;
}

export function isAlive(pid: number): boolean {
  const info = processInfo(pid);
  return info !== null && info.state !== 'Z';
}

/** Polls `check` every 10 ms until it holds or `timeoutMs` passes; returns whether it held. */
export async function waitFor(check: () => boolean, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (check()) return true;
    if (Date.now() > deadline) return false;
    await new Promise((r) => setTimeout(r, 10));
  }
}

/**
 * Samples a process's peak virtual (VmPeak) and resident (VmHWM) memory every few
 * milliseconds; `stop` returns the largest values seen, in MB.
 */
export function sampleMemory(pid: number, everyMs = 5): { stop(): { virtualMb: number; residentMb: number; samples: number } } {
  let virtualKb = 0;
  let residentKb = 0;
  let samples = 0;
  const read = () => {
    try {
      const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
      const peak = Number(/VmPeak:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      const hwm = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? NaN);
      if (Number.isFinite(peak)) {
        virtualKb = Math.max(virtualKb, peak);
        residentKb = Math.max(residentKb, hwm);
        samples += 1;
      }
    } catch {
      // gone
    }
  };
  read();
  const timer = setInterval(read, everyMs);
  return {
    stop() {
      clearInterval(timer);
      return { virtualMb: virtualKb / 1024, residentMb: residentKb / 1024, samples };
    },
  };
}

/**
 * Watches the descendants of `root` named `comm` every few milliseconds: which ran, and the
 * largest VmPeak and VmHWM each reached (MB) while it was seen.
 */
export function samplePrograms(root: number, comm: string, everyMs = 5) {
  const seen = new Map<number, { virtualMb: number; residentMb: number }>();
  const tick = () => {
    for (const p of descendants(root)) {
      if (p.comm !== comm) continue;
      try {
        const status = fs.readFileSync(`/proc/${p.pid}/status`, 'utf8');
        const prev = seen.get(p.pid) ?? { virtualMb: 0, residentMb: 0 };
        const virtualMb = Number(/VmPeak:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
        const residentMb = Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
        seen.set(p.pid, { virtualMb: Math.max(prev.virtualMb, virtualMb), residentMb: Math.max(prev.residentMb, residentMb) });
      } catch {
        // ended meanwhile
      }
    }
  };
  const timer = setInterval(tick, everyMs);
  return {
    seen,
    stop() {
      clearInterval(timer);
      return seen;
    },
  };
}
