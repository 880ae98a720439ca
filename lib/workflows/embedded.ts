import { randomUUID } from 'node:crypto';
import os from 'node:os';
import { and, asc, eq, inArray, isNull, lt, lte, notInArray, or, sql, type SQL } from 'drizzle-orm';
import { backgroundServices } from '@/lib/context';
import type { Db } from '@/lib/db/client';
import { workflowRuns, workflowSteps, type WorkflowRunRow } from '@/lib/db/schema';
import { enqueueWorkflowsForEvent } from './dispatch';
import { concurrencyKeyOf, perKeyLimit, type StepTools, type WorkflowDefinition } from './types';

/** Thrown inside a run to park it until `until`; the runner turns it into a timer. */
class SleepSignal {
  constructor(readonly until: Date) {}
}

export interface EmbeddedRunnerOptions {
  db: Db;
  workflows: WorkflowDefinition<any>[];
  /** A clock the tests can control. */
  now?: () => Date;
  /** How often due runs and timers are looked for (a local enqueue also wakes the runner at once). */
  pollMs?: number;
  /** How long a claimed run stays ours without a heartbeat. */
  leaseMs?: number;
  /**
   * This process is the database's only runner (the embedded database): runs left "running" by an
   * earlier process are reclaimed at start instead of after their lease expires.
   */
  exclusive?: boolean;
}

export function retryDelayMs(attempt: number): number {
  return Math.min(1000 * 4 ** Math.max(0, attempt - 1), 10 * 60 * 1000);
}

/**
 * Runs workflows inside this process with their state in the database: step results are stored
 * as they complete, sleeps are timers in the runs table, and a lease with heartbeats tells a live
 * run from one whose process died, so an interrupted run resumes where it stopped.
 */
export class EmbeddedRunner {
  /** Names the machine and process holding a lease, so an operator can tell which replica runs what. */
  readonly instanceId = `runner_${os.hostname()}_${process.pid}_${randomUUID().slice(0, 8)}`;
  private readonly db: Db;
  private readonly defs: Map<string, WorkflowDefinition<any>>;
  private readonly now: () => Date;
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly exclusive: boolean;
  private readonly active = new Map<string, number>();
  /** Runs under way per workflow and concurrency key ("<workflow>\u0000<key>"). */
  private readonly activeByKey = new Map<string, number>();
  private readonly inflight = new Set<Promise<void>>();
  private poller: NodeJS.Timeout | undefined;
  private ticking: Promise<void> | null = null;
  /**
   * Workflows that may have due runs: the ones this process enqueued or freed a slot of, and on
   * each poll those the database holds due runs of (runs enqueued elsewhere, timers, retries). A
   * wake-up looks for these only, so a burst of uploads costs one claim per affected workflow, not
   * one per workflow.
   */
  private readonly dirty = new Set<string>();
  /** Set when a poll finds runs whose lease ran out: the next claims take those back first. */
  private orphansDue = false;
  private started = false;
  private stopped = false;

  constructor(options: EmbeddedRunnerOptions) {
    this.db = options.db;
    this.defs = new Map(options.workflows.map((w) => [w.name, w]));
    this.now = options.now ?? (() => new Date());
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? 60_000;
    this.exclusive = options.exclusive ?? false;
  }

  async start(): Promise<void> {
    if (this.started) return;
    this.started = true;
    this.stopped = false;
    if (this.exclusive) {
      await this.db
        .update(workflowRuns)
        .set({ leaseExpiresAt: new Date(0) })
        .where(and(eq(workflowRuns.status, 'running'), sql`${workflowRuns.leaseOwner} is distinct from ${this.instanceId}`));
    }
    this.poller = setInterval(() => this.poll(), this.pollMs);
    this.poller.unref();
    this.poll();
  }

  /** Stops claiming new runs and waits for the ones under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    clearInterval(this.poller);
    await this.ticking;
    await Promise.allSettled([...this.inflight]);
  }

  /**
   * Looks for due runs now (called after a local enqueue): of `workflows` when given, else of
   * every workflow.
   */
  notify(workflows?: readonly string[]): void {
    if (this.stopped) return;
    for (const name of workflows ?? this.defs.keys()) if (this.defs.has(name)) this.dirty.add(name);
    void this.tick();
  }

  /** Every workflow, and runs whose process died. */
  private poll(): void {
    if (!this.stopped) void this.sweep();
  }

  /** Runs everything that is due until nothing is left or under way (tests). */
  async drain(): Promise<void> {
    for (;;) {
      await this.sweep();
      if (this.inflight.size === 0) {
        await this.sweep();
        if (this.inflight.size === 0) return;
      }
      await Promise.race([...this.inflight]);
    }
  }

  /**
   * One statement finds the workflows with due runs and those with runs whose lease ran out; only
   * they are claimed (an idle poll used to run two statements for every workflow).
   */
  private async sweep(): Promise<void> {
    const now = this.now();
    try {
      const rows = await this.db
        .selectDistinct({ workflow: workflowRuns.workflow, status: workflowRuns.status })
        .from(workflowRuns)
        .where(
          or(
            and(eq(workflowRuns.status, 'queued'), lte(workflowRuns.nextRunAt, now)),
            and(eq(workflowRuns.status, 'running'), lt(workflowRuns.leaseExpiresAt, now)),
          ),
        );
      for (const { workflow, status } of rows) {
        if (!this.defs.has(workflow)) continue;
        this.dirty.add(workflow);
        if (status === 'running') this.orphansDue = true;
      }
    } catch (err) {
      console.error('workflow runner: polling failed', err);
    }
    return this.tick();
  }

  private tick(): Promise<void> {
    if (this.ticking) return this.ticking; // the running tick takes up what was marked meanwhile
    // With nothing marked the body below would finish before `ticking` is assigned, leaving a
    // settled promise there that every later tick would return instead of claiming.
    if (this.dirty.size === 0 || this.stopped) return Promise.resolve();
    this.ticking = (async () => {
      try {
        while (this.dirty.size > 0 && !this.stopped) {
          const orphans = this.orphansDue;
          this.orphansDue = false;
          const names = [...this.dirty];
          this.dirty.clear();
          for (const name of names) await this.claimAndStart(this.defs.get(name)!, orphans);
        }
      } catch (err) {
        console.error('workflow runner: polling failed', err);
      } finally {
        this.ticking = null;
      }
    })();
    return this.ticking;
  }

  /**
   * Claims due runs of `def` up to its free slots and starts them. A workflow with a concurrency
   * key claims one run at a time, skipping runs whose key is at its limit in this process, so each
   * claim sees the key the previous one filled (the limits hold per process, like the total).
   */
  private async claimAndStart(def: WorkflowDefinition<any>, orphans: boolean): Promise<void> {
    for (;;) {
      const free = def.concurrency() - (this.active.get(def.name) ?? 0);
      if (free <= 0 || this.stopped) return;
      const wanted = def.concurrencyKey ? 1 : free;
      const runs = await this.claim(def, wanted, orphans);
      for (const run of runs) this.launch(def, run);
      if (runs.length < wanted) return;
    }
  }

  /** Keys of `def` with as many runs under way here as the per-key limit allows. */
  private fullKeys(def: WorkflowDefinition<any>): string[] {
    const limit = perKeyLimit(def);
    const prefix = `${def.name}\u0000`;
    return [...this.activeByKey].filter(([k, n]) => k.startsWith(prefix) && n >= limit).map(([k]) => k.slice(prefix.length));
  }

  private async claim(def: WorkflowDefinition<any>, limit: number, orphans: boolean): Promise<WorkflowRunRow[]> {
    const now = this.now();
    const lease = { leaseOwner: this.instanceId, leaseExpiresAt: new Date(now.getTime() + this.leaseMs), updatedAt: now };
    const full = this.fullKeys(def);
    let keyFree: SQL | undefined;
    if (def.concurrencyKey && full.length > 0) {
      const key = sql`${workflowRuns.input} ->> ${def.concurrencyKey.field}::text`;
      keyFree = or(isNull(key), notInArray(key, full));
    }

    // Runs whose process died: their lease ran out. Each such interruption counts as an attempt.
    const reclaimed = orphans ? await this.reclaim(lease, limit, def, now, keyFree) : [];
    if (reclaimed.length >= limit) return reclaimed;

    const due = this.db
      .select({ id: workflowRuns.id })
      .from(workflowRuns)
      .where(and(eq(workflowRuns.workflow, def.name), eq(workflowRuns.status, 'queued'), lte(workflowRuns.nextRunAt, now), keyFree))
      .orderBy(asc(workflowRuns.nextRunAt))
      .limit(limit - reclaimed.length)
      .for('update', { skipLocked: true });
    const claimed = await this.db.update(workflowRuns).set({ ...lease, status: 'running' }).where(inArray(workflowRuns.id, due)).returning();
    return [...reclaimed, ...claimed];
  }

  private async reclaim(
    lease: { leaseOwner: string; leaseExpiresAt: Date; updatedAt: Date },
    limit: number,
    def: WorkflowDefinition<any>,
    now: Date,
    keyFree: SQL | undefined,
  ): Promise<WorkflowRunRow[]> {
    const orphans = this.db
      .select({ id: workflowRuns.id })
      .from(workflowRuns)
      .where(and(eq(workflowRuns.workflow, def.name), eq(workflowRuns.status, 'running'), lt(workflowRuns.leaseExpiresAt, now), keyFree))
      .orderBy(asc(workflowRuns.nextRunAt))
      .limit(limit)
      .for('update', { skipLocked: true });
    return this.db
      .update(workflowRuns)
      .set({ ...lease, attempt: sql`${workflowRuns.attempt} + 1`, lastError: 'interrupted: the process running it stopped' })
      .where(inArray(workflowRuns.id, orphans))
      .returning();
  }

  private launch(def: WorkflowDefinition<any>, run: WorkflowRunRow): void {
    const key = concurrencyKeyOf(def, run.input);
    const slot = key === null ? null : `${def.name}\u0000${key}`;
    this.active.set(def.name, (this.active.get(def.name) ?? 0) + 1);
    if (slot) this.activeByKey.set(slot, (this.activeByKey.get(slot) ?? 0) + 1);
    const task = this.execute(def, run).finally(() => {
      this.inflight.delete(task);
      this.active.set(def.name, (this.active.get(def.name) ?? 1) - 1);
      if (slot) {
        const left = (this.activeByKey.get(slot) ?? 1) - 1;
        if (left > 0) this.activeByKey.set(slot, left);
        else this.activeByKey.delete(slot);
      }
      this.notify([def.name]); // a slot is free
    });
    this.inflight.add(task);
  }

  private mine(runId: string) {
    return and(eq(workflowRuns.id, runId), eq(workflowRuns.leaseOwner, this.instanceId));
  }

  private async execute(def: WorkflowDefinition<any>, run: WorkflowRunRow): Promise<void> {
    const heartbeat = setInterval(() => {
      const now = this.now();
      this.db
        .update(workflowRuns)
        .set({ leaseExpiresAt: new Date(now.getTime() + this.leaseMs), updatedAt: now })
        .where(this.mine(run.id))
        .catch((err) => console.error(`workflow ${run.id}: heartbeat failed`, err));
    }, Math.max(50, Math.floor(this.leaseMs / 3)));
    heartbeat.unref();

    let input: Record<string, unknown> = run.input;
    try {
      if (run.attempt >= run.maxAttempts) throw new Error(run.lastError ?? 'too many attempts');
      input = def.input.parse(run.input) as Record<string, unknown>;
      await def.run(input, this.stepTools(run), { runId: run.id, attempt: run.attempt, services: backgroundServices(this.db) });
      const now = this.now();
      await this.db
        .update(workflowRuns)
        .set({ status: 'completed', completedAt: now, updatedAt: now, leaseOwner: null, leaseExpiresAt: null })
        .where(this.mine(run.id));
    } catch (err) {
      const now = this.now();
      if (err instanceof SleepSignal) {
        await this.db
          .update(workflowRuns)
          .set({ status: 'queued', nextRunAt: err.until, updatedAt: now, leaseOwner: null, leaseExpiresAt: null })
          .where(this.mine(run.id));
        return;
      }
      const error = err instanceof Error ? err : new Error(String(err));
      const attempt = Math.max(run.attempt + 1, 1);
      if (attempt < run.maxAttempts) {
        await this.db
          .update(workflowRuns)
          .set({
            status: 'queued',
            attempt,
            nextRunAt: new Date(now.getTime() + retryDelayMs(attempt)),
            lastError: error.message,
            updatedAt: now,
            leaseOwner: null,
            leaseExpiresAt: null,
          })
          .where(this.mine(run.id));
        return;
      }
      await this.db
        .update(workflowRuns)
        .set({ status: 'failed', attempt, lastError: error.message, completedAt: now, updatedAt: now, leaseOwner: null, leaseExpiresAt: null })
        .where(this.mine(run.id));
      try {
        await def.onFailure?.(input, error, backgroundServices(this.db));
      } catch (failureErr) {
        console.error(`workflow ${run.id}: onFailure failed`, failureErr);
      }
    } finally {
      clearInterval(heartbeat);
    }
  }

  private stepTools(run: WorkflowRunRow): StepTools {
    const seen = new Set<string>();
    const claimId = (id: string) => {
      if (seen.has(id)) throw new Error(`step id "${id}" used twice in workflow ${run.workflow}`);
      seen.add(id);
    };
    // The run's stored step results, read once per execution (each step id is used once in it).
    let steps: Promise<Map<string, (typeof workflowSteps.$inferSelect)['output']>> | null = null;
    const stored = async (id: string) => {
      steps ??= this.db
        .select({ stepId: workflowSteps.stepId, output: workflowSteps.output })
        .from(workflowSteps)
        .where(eq(workflowSteps.runId, run.id))
        .then((rows) => new Map(rows.map((r) => [r.stepId, r.output])));
      return (await steps).get(id);
    };
    const tools: StepTools = {
      run: async <T>(id: string, fn: () => Promise<T>): Promise<T> => {
        claimId(id);
        const previous = await stored(id);
        if (previous) return previous.value as T;
        const value = JSON.parse(JSON.stringify((await fn()) ?? null)) as T;
        await this.db.insert(workflowSteps).values({ runId: run.id, stepId: id, output: { value } }).onConflictDoNothing();
        return value;
      },
      sleep: async (id, durationMs) => {
        claimId(id);
        const previous = await stored(id);
        const now = this.now();
        let until: Date;
        if (previous?.sleepUntil) {
          until = new Date(previous.sleepUntil);
        } else {
          until = new Date(now.getTime() + durationMs);
          await this.db
            .insert(workflowSteps)
            .values({ runId: run.id, stepId: id, output: { sleepUntil: until.toISOString() } })
            .onConflictDoNothing();
        }
        if (now.getTime() < until.getTime()) throw new SleepSignal(until);
      },
      sendEvent: async (id, event) => {
        await tools.run(id, async () => {
          await enqueueWorkflowsForEvent(this.db, [...this.defs.values()], event.name, event.data, this.now());
          return null;
        });
        this.notify([...this.defs.values()].filter((d) => d.event === event.name).map((d) => d.name));
      },
    };
    return tools;
  }
}
