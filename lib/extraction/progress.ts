/**
 * Writes a running task's progress at most once per interval without ever holding the latest
 * value back longer than that: a value reported too soon after a write is written when the
 * interval is up, even when no further report follows (a long page, a long stage of a format
 * that reports by stages). Writes happen one after another, so an older value never lands last.
 */
export class ProgressWriter {
  private lastWrite = Number.NEGATIVE_INFINITY;
  private pending: number | null = null;
  private written: number | null = null;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  constructor(
    private readonly write: (percent: number) => Promise<void>,
    private readonly intervalMs: number,
  ) {}

  report(percent: number): void {
    if (this.stopped || (percent === this.written && this.pending === null)) return;
    this.pending = percent;
    if (this.timer) return;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (wait <= 0) {
      this.flush();
      return;
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    this.timer.unref?.();
  }

  private flush(): void {
    const percent = this.pending;
    this.pending = null;
    if (percent === null || this.stopped) return;
    this.lastWrite = Date.now();
    this.written = percent;
    this.chain = this.chain.then(() => this.write(percent)).catch(() => undefined);
  }

  /** No more writes: a value not yet written is dropped (the task has ended); waits for one under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.pending = null;
    await this.chain;
  }
}
