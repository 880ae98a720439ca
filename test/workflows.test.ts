import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { workflowRuns, workflowSteps } from '@/lib/db/schema';
import { useTestApp } from '@/test/support/app';
import { enqueueWorkflow, enqueueWorkflowsForEvent, notifyWorkflows, setWorkflowNotifier } from '@/lib/workflows/dispatch';
import { EmbeddedRunner, retryDelayMs } from '@/lib/workflows/embedded';
import { defineWorkflow } from '@/lib/workflows/types';

const app = useTestApp();

/** A clock the test moves by hand. */
function manualClock(start = Date.parse('2026-01-01T00:00:00Z')) {
  let now = start;
  return { now: () => new Date(now), advance: (ms: number) => (now += ms) };
}

async function runRow(id: string) {
  const [row] = await app.db.select().from(workflowRuns).where(eq(workflowRuns.id, id));
  return row;
}

/** A workflow that only records its name in `ran` when it runs. */
function recordingWorkflow(name: string, ran: string[]) {
  return defineWorkflow({
    name,
    event: `test/${name}`,
    input: z.object({}),
    concurrency: () => 2,
    retries: 0,
    async run() {
      ran.push(name);
    },
  });
}

describe('embedded runner', () => {
  it('runs steps once each: a retry after a failure replays stored results', async () => {
    const calls: string[] = [];
    let failNext = true;
    const wf = defineWorkflow({
      name: 'retry-once',
      event: 'test/retry-once',
      input: z.object({ n: z.number() }),
      concurrency: () => 1,
      retries: 2,
      async run({ n }, step) {
        const a = await step.run('a', async () => {
          calls.push('a');
          return { doubled: n * 2 };
        });
        return step.run('b', async () => {
          calls.push('b');
          if (failNext) {
            failNext = false;
            throw new Error('transient');
          }
          return a.doubled + 1;
        });
      },
    });
    const clock = manualClock();
    const runner = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    const id = await enqueueWorkflow(app.db, wf, { n: 20 }, clock.now());
    await runner.drain();
    let row = await runRow(id);
    expect(row).toMatchObject({ status: 'queued', attempt: 1, lastError: 'transient' });
    expect(row.nextRunAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(1));

    clock.advance(retryDelayMs(1));
    await runner.drain();
    row = await runRow(id);
    expect(row.status).toBe('completed');
    expect(calls).toEqual(['a', 'b', 'b']);
    const steps = await app.db.select().from(workflowSteps).where(eq(workflowSteps.runId, id));
    expect(Object.fromEntries(steps.map((s) => [s.stepId, s.output.value]))).toEqual({ a: { doubled: 40 }, b: 41 });
  });

  it('sleeps durably: the run waits in the table until the clock reaches its timer', async () => {
    const seen: string[] = [];
    const wf = defineWorkflow({
      name: 'sleeper',
      event: 'test/sleeper',
      input: z.object({}),
      concurrency: () => 1,
      retries: 0,
      async run(_input, step) {
        await step.run('before', async () => seen.push('before'));
        await step.sleep('wait-a-minute', 60_000);
        await step.run('after', async () => seen.push('after'));
      },
    });
    const clock = manualClock();
    const id = await enqueueWorkflow(app.db, wf, {}, clock.now());
    const first = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    await first.drain();
    let row = await runRow(id);
    expect(row.status).toBe('queued');
    expect(row.nextRunAt.toISOString()).toBe(new Date(clock.now().getTime() + 60_000).toISOString());

    // A different runner (as after a restart) picks it up once the time has come, and not before.
    const second = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    clock.advance(59_000);
    await second.drain();
    expect((await runRow(id)).status).toBe('queued');
    clock.advance(1_000);
    await second.drain();
    row = await runRow(id);
    expect(row.status).toBe('completed');
    expect(seen).toEqual(['before', 'after']);
  });

  it('resumes a run whose process died: completed steps are not repeated', async () => {
    const calls: string[] = [];
    const wf = defineWorkflow({
      name: 'resumable',
      event: 'test/resumable',
      input: z.object({}),
      concurrency: () => 1,
      retries: 2,
      async run(_input, step) {
        await step.run('download', async () => calls.push('download'));
        await step.run('convert', async () => calls.push('convert'));
      },
    });
    const clock = manualClock();
    const id = await enqueueWorkflow(app.db, wf, {}, clock.now());
    // The state a crash leaves: claimed by a runner that is gone, first step stored, lease still valid.
    await app.db
      .update(workflowRuns)
      .set({ status: 'running', leaseOwner: 'runner_dead', leaseExpiresAt: new Date(clock.now().getTime() + 60_000) })
      .where(eq(workflowRuns.id, id));
    await app.db.insert(workflowSteps).values({ runId: id, stepId: 'download', output: { value: 1 } });

    const shared = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    await shared.drain();
    expect((await runRow(id)).status).toBe('running'); // another process may still own it

    clock.advance(60_001); // the lease runs out
    await shared.drain();
    expect(await runRow(id)).toMatchObject({ status: 'completed', attempt: 1 });
    expect(calls).toEqual(['convert']);
  });

  it('an exclusive runner (embedded database) reclaims a dead run at start, without waiting for the lease', async () => {
    const calls: string[] = [];
    const wf = defineWorkflow({
      name: 'exclusive-resume',
      event: 'test/exclusive',
      input: z.object({}),
      concurrency: () => 1,
      retries: 2,
      async run(_input, step) {
        await step.run('only', async () => calls.push('only'));
      },
    });
    const clock = manualClock();
    const id = await enqueueWorkflow(app.db, wf, {}, clock.now());
    await app.db
      .update(workflowRuns)
      .set({ status: 'running', leaseOwner: 'runner_dead', leaseExpiresAt: new Date(clock.now().getTime() + 3_600_000) })
      .where(eq(workflowRuns.id, id));
    const runner = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now, exclusive: true, pollMs: 60_000 });
    await runner.start();
    await runner.drain();
    await runner.stop();
    expect((await runRow(id)).status).toBe('completed');
    expect(calls).toEqual(['only']);
  });

  it('keeps to the concurrency limit', async () => {
    let running = 0;
    let peak = 0;
    const wf = defineWorkflow({
      name: 'bounded',
      event: 'test/bounded',
      input: z.object({ i: z.number() }),
      concurrency: () => 2,
      retries: 0,
      async run(_input, step) {
        await step.run('work', async () => {
          running += 1;
          peak = Math.max(peak, running);
          await new Promise((r) => setTimeout(r, 30));
          running -= 1;
        });
      },
    });
    const ids = [];
    for (let i = 0; i < 6; i++) ids.push(await enqueueWorkflow(app.db, wf, { i }));
    const runner = new EmbeddedRunner({ db: app.db, workflows: [wf] });
    await runner.drain();
    expect(peak).toBe(2);
    for (const id of ids) expect((await runRow(id)).status).toBe('completed');
  });

  it('keeps to the per-key limit: one key’s backlog does not hold up another key, or runs without one', async () => {
    const log: string[] = [];
    const running = new Map<string, number>();
    let peakPerKey = 0;
    let peakTotal = 0;
    const wf = defineWorkflow({
      name: 'keyed',
      event: 'test/keyed',
      input: z.object({ i: z.number(), tenant: z.string().optional() }),
      concurrency: () => 3,
      concurrencyKey: { field: 'tenant', limit: () => 1 },
      retries: 0,
      async run({ i, tenant }, step) {
        await step.run('work', async () => {
          const key = tenant ?? `none-${i}`;
          running.set(key, (running.get(key) ?? 0) + 1);
          peakPerKey = Math.max(peakPerKey, running.get(key)!);
          peakTotal = Math.max(peakTotal, [...running.values()].reduce((a, b) => a + b, 0));
          log.push(`start ${tenant ?? 'none'}`);
          await new Promise((r) => setTimeout(r, 100));
          log.push(`end ${tenant ?? 'none'}`);
          running.set(key, running.get(key)! - 1);
        });
      },
    });
    const clock = manualClock();
    // Tenant a's bulk upload is queued first; b's single run and a run without the field come after it.
    for (let i = 0; i < 4; i++) await enqueueWorkflow(app.db, wf, { i, tenant: 'a' }, clock.now());
    await enqueueWorkflow(app.db, wf, { i: 10, tenant: 'b' }, new Date(clock.now().getTime() + 1));
    await enqueueWorkflow(app.db, wf, { i: 11 }, new Date(clock.now().getTime() + 2));
    clock.advance(10);
    const runner = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    await runner.drain();

    expect(peakPerKey).toBe(1);
    expect(peakTotal).toBe(3);
    // b and the run without a key started while a's first run was still under way.
    const firstEnd = log.indexOf('end a');
    expect(log.indexOf('start b')).toBeLessThan(firstEnd);
    expect(log.indexOf('start none')).toBeLessThan(firstEnd);
    expect(log.filter((l) => l === 'end a')).toHaveLength(4);
    const runs = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'keyed'));
    expect(runs.map((r) => r.status)).toEqual(Array(6).fill('completed'));
  });

  it('calls onFailure once after the last attempt fails', async () => {
    const failures: string[] = [];
    const wf = defineWorkflow({
      name: 'always-fails',
      event: 'test/always-fails',
      input: z.object({ tag: z.string() }),
      concurrency: () => 1,
      retries: 1,
      async run() {
        throw new Error('broken for good');
      },
      async onFailure({ tag }, error) {
        failures.push(`${tag}: ${error.message}`);
      },
    });
    const clock = manualClock();
    const id = await enqueueWorkflow(app.db, wf, { tag: 'x' }, clock.now());
    const runner = new EmbeddedRunner({ db: app.db, workflows: [wf], now: clock.now });
    await runner.drain();
    clock.advance(retryDelayMs(1));
    await runner.drain();
    clock.advance(retryDelayMs(2));
    await runner.drain();
    expect(await runRow(id)).toMatchObject({ status: 'failed', attempt: 2, lastError: 'broken for good' });
    expect(failures).toEqual(['x: broken for good']);
  });

  it('sendEvent starts the triggered workflows once, even when its run is replayed', async () => {
    const received: number[] = [];
    const child = defineWorkflow({
      name: 'child',
      event: 'test/child.requested',
      input: z.object({ value: z.number() }),
      concurrency: () => 1,
      retries: 0,
      async run({ value }, step) {
        await step.run('record', async () => received.push(value));
      },
    });
    let attempts = 0;
    const parent = defineWorkflow({
      name: 'parent',
      event: 'test/parent',
      input: z.object({}),
      concurrency: () => 1,
      retries: 1,
      async run(_input, step) {
        await step.sendEvent('spawn', { name: 'test/child.requested', data: { value: 7 } });
        await step.run('maybe-fail', async () => {
          attempts += 1;
          if (attempts === 1) throw new Error('once');
        });
      },
    });
    const clock = manualClock();
    await enqueueWorkflow(app.db, parent, {}, clock.now());
    const runner = new EmbeddedRunner({ db: app.db, workflows: [parent, child], now: clock.now });
    await runner.drain();
    clock.advance(retryDelayMs(1));
    await runner.drain();
    expect(received).toEqual([7]);
  });

  it('a wake-up naming a workflow claims its runs at once; others wait for the poll', async () => {
    const ran: string[] = [];
    const make = (name: string) => recordingWorkflow(name, ran);
    const named = make('woken-by-name');
    const other = make('left-for-the-poll');
    const runner = new EmbeddedRunner({ db: app.db, workflows: [named, other], pollMs: 3_600_000 });
    await runner.start(); // the first poll finds nothing
    await new Promise((r) => setTimeout(r, 50));
    const a = await enqueueWorkflow(app.db, named, {});
    const b = await enqueueWorkflow(app.db, other, {});
    runner.notify([named.name]);
    for (let i = 0; i < 100 && (await runRow(a)).status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await runRow(a)).status).toBe('completed');
    expect((await runRow(b)).status).toBe('queued');
    runner.notify(); // no names: every workflow
    for (let i = 0; i < 100 && (await runRow(b)).status !== 'completed'; i++) await new Promise((r) => setTimeout(r, 20));
    expect((await runRow(b)).status).toBe('completed');
    expect(ran).toEqual(['woken-by-name', 'left-for-the-poll']);
    await runner.stop();
  });

  it('a poll claims only the workflows the table holds due runs of: an idle poll claims nothing', async () => {
    const ran: string[] = [];
    const make = (name: string) => recordingWorkflow(name, ran);
    const due = make('polled-due');
    const idle = make('polled-idle');
    const runner = new EmbeddedRunner({ db: app.db, workflows: [due, idle], pollMs: 3_600_000 });
    const updates = vi.spyOn(app.db, 'update');
    try {
      await runner.drain();
      runner.notify(['no-such-workflow']); // marks nothing: must not leave the runner stuck
      expect(updates).not.toHaveBeenCalled();
      // Enqueued without a wake-up, as another process would: the poll finds it.
      const id = await enqueueWorkflow(app.db, due, {});
      await runner.drain();
      expect((await runRow(id)).status).toBe('completed');
      expect(ran).toEqual(['polled-due']);
      const claims = updates.mock.calls.length;
      await runner.drain();
      expect(updates.mock.calls.length).toBe(claims);
    } finally {
      updates.mockRestore();
      await runner.stop();
    }
  });

  it('notifyWorkflows names the workflows enqueued since the last call, and stays quiet when there are none', async () => {
    const wf = defineWorkflow({ name: 'named-in-notify', event: 'test/named', input: z.object({}), concurrency: () => 1, retries: 0, async run() {} });
    notifyWorkflows(); // what earlier tests enqueued
    const calls: string[][] = [];
    setWorkflowNotifier((names) => calls.push(names));
    try {
      await enqueueWorkflow(app.db, wf, {});
      await enqueueWorkflow(app.db, wf, {});
      notifyWorkflows();
      notifyWorkflows();
      expect(calls).toEqual([['named-in-notify']]);
    } finally {
      setWorkflowNotifier(undefined);
    }
  });

  it('an event starts a workflow only when its `when` holds, checked in the event\'s transaction', async () => {
    const wf = defineWorkflow({
      name: 'conditional',
      event: 'test/conditional',
      input: z.object({ n: z.number() }),
      when: async (tx, { n }) => {
        const seen = await tx.select({ id: workflowRuns.id }).from(workflowRuns).limit(1);
        return Array.isArray(seen) && n > 1;
      },
      concurrency: () => 1,
      retries: 0,
      async run() {},
    });
    const skipped = await app.db.transaction((tx) => enqueueWorkflowsForEvent(tx, [wf], 'test/conditional', { n: 1 }));
    const started = await app.db.transaction((tx) => enqueueWorkflowsForEvent(tx, [wf], 'test/conditional', { n: 2 }));
    expect(skipped).toEqual([]);
    expect(started).toHaveLength(1);
    const runs = await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'conditional'));
    expect(runs.map((r) => r.input)).toEqual([{ n: 2 }]);
  });
});
