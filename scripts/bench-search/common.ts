// Measurement and printing helpers of npm run bench:search: percentiles, named timings, number
// formatting, the terminal progress line and a concurrency pool.

/** Nearest-rank percentile of samples in milliseconds. */
export function percentile(samples: number[], p: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export class Timings {
  readonly samples = new Map<string, number[]>();

  add(name: string, ms: number): void {
    const list = this.samples.get(name) ?? [];
    list.push(ms);
    this.samples.set(name, list);
  }

  async time<T>(name: string | null, fn: () => Promise<T>): Promise<T> {
    const started = performance.now();
    const result = await fn();
    if (name) this.add(name, performance.now() - started);
    return result;
  }

  p(name: string, pct: number): number {
    return percentile(this.samples.get(name) ?? [], pct);
  }

  mean(name: string): number {
    const list = this.samples.get(name) ?? [];
    return list.reduce((a, b) => a + b, 0) / Math.max(1, list.length);
  }
}

export const fmt = (n: number, digits = 1) => n.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
export const int = (n: number) => Math.round(n).toLocaleString('en-US');
export const seconds = (ms: number) => `${fmt(ms / 1000)} s`;
export const verdict = (ok: boolean) => (ok ? 'met' : 'NOT met');

/** A progress line on a terminal, overwritten by the next one; null clears it. */
export function progress(text: string | null): void {
  if (!process.stdout.isTTY) return;
  process.stdout.write(text === null ? `\r${' '.repeat(60)}\r` : `\r    ${text}`);
}

/** Runs `worker` over the items with `concurrency` of them in flight. */
export async function pool<T>(items: T[], concurrency: number, worker: (item: T) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < items.length) await worker(items[next++]);
    }),
  );
}
