import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/*
 * Long writes as a series of short statements, so that the server keeps answering meanwhile.
 * The embedded database (PGlite) runs each statement on the server's main thread, and its answers
 * arrive as resolved promises, not I/O: statements awaited one after another would run back to
 * back, and a request (which takes several turns of the event loop) would wait for all of them.
 * So each statement is sized by how long the previous one took, and afterwards the event loop is
 * left idle for a share of the time the statement kept it busy. On PostgreSQL a statement keeps
 * the event loop busy for almost nothing, so there is almost no pause, and the sizing only
 * decides the number of round trips.
 */

/** How long one statement should run. */
const TARGET_STATEMENT_MS = 40;
/** Idle time after a statement, as a share of the time it kept the event loop busy. */
const IDLE_SHARE = 0.25;

export class StatementPacer {
  /** Rows for the next statement. */
  rows: number;

  constructor(
    first: number,
    private readonly max: number,
  ) {
    this.rows = first;
  }

  /** Runs a statement of `rows` rows, sizes the next one from its time, then pauses. */
  async run<T>(rows: number, statement: () => Promise<T>): Promise<T> {
    const before = performance.eventLoopUtilization();
    const started = performance.now();
    const result = await statement();
    const fitting = (Math.max(rows, 1) * TARGET_STATEMENT_MS) / Math.max(performance.now() - started, 1);
    // Half way towards the new estimate, so one slow or fast statement does not swing it.
    this.rows = Math.max(1, Math.min(this.max, Math.round((Math.max(rows, 1) + fitting) / 2)));
    await sleep(performance.eventLoopUtilization(before).active * IDLE_SHARE);
    return result;
  }
}

/**
 * Writes a running task's progress (a percentage, a count) at most once per interval without ever
 * holding the latest value back longer than that: a value reported too soon after a write is
 * written when the interval is up, even when no further report follows (a long page, a long stage of a format
 * that reports by stages). Writes happen one after another, so an older value never lands last.
 */
export class ProgressWriter<T = number> {
  private lastWrite = Number.NEGATIVE_INFINITY;
  private pending: T | null = null;
  private written: T | null = null;
  private timer: NodeJS.Timeout | undefined;
  private chain: Promise<void> = Promise.resolve();
  private stopped = false;

  /**
   * `firstAfterMs`: no write before this long after construction, so a task that ends sooner
   * writes no progress at all (its outcome follows at once).
   */
  constructor(
    private readonly write: (value: T) => Promise<void>,
    private readonly intervalMs: number,
    firstAfterMs = 0,
  ) {
    if (firstAfterMs > 0) this.lastWrite = Date.now() + firstAfterMs - intervalMs;
  }

  /**
   * `now`: written at once whatever the interval (a last value that must not be held back). A
   * report after the interval is written at once even while a held-back value waits for its
   * timer: a thread busy with synchronous work (the extraction worker reading pages) runs no
   * timers until it is done.
   */
  report(value: T, now = false): void {
    if (this.stopped || (value === this.written && this.pending === null)) return;
    this.pending = value;
    const wait = this.lastWrite + this.intervalMs - Date.now();
    if (now || wait <= 0) {
      clearTimeout(this.timer);
      this.timer = undefined;
      this.flush();
      return;
    }
    if (this.timer) return;
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.flush();
    }, wait);
    this.timer.unref?.();
  }

  private flush(): void {
    const value = this.pending;
    this.pending = null;
    if (value === null || this.stopped) return;
    this.lastWrite = Date.now();
    this.written = value;
    this.chain = this.chain.then(() => this.write(value)).catch(() => undefined);
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

/**
 * Statements of one transaction sent without waiting for the previous ones' results, so that the
 * next one is built while the database runs the last (PostgreSQL runs a connection's statements
 * in the order they arrive; the driver pipelines them). At most `depth` are in flight. A failure
 * fails every later send and `drain`; the transaction is then rolled back by its caller. Only for
 * PostgreSQL: the embedded database runs statements on this thread, one at a time, and is paced
 * instead (StatementPacer).
 */
export class StatementPipeline {
  private inflight: Promise<void>[] = [];
  private failure: { error: unknown } | null = null;

  constructor(private readonly depth = 4) {}

  async send(statement: () => Promise<unknown>): Promise<void> {
    this.check();
    while (this.inflight.length >= this.depth) await this.inflight.shift();
    this.check();
    this.inflight.push(
      statement().then(
        () => undefined,
        (error: unknown) => {
          this.failure ??= { error };
        },
      ),
    );
  }

  /** Waits for every statement sent; throws the first failure. */
  async drain(): Promise<void> {
    await Promise.all(this.inflight);
    this.inflight = [];
    this.check();
  }

  private check(): void {
    if (this.failure) throw this.failure.error;
  }
}
