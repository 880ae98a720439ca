/**
 * Schedules: a due source gets one scheduled sync and its next time; one still syncing waits for
 * its next time; the cron workflow that starts them is queued by the embedded sweeper only when
 * something is due, and is an Inngest cron function in Inngest mode.
 */
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as sourcesRoute from '@/app/v1/sources/route';
import { toInngestFunction } from '@/inngest/functions';
import { backgroundServices } from '@/lib/context';
import { sourceRunItems, sourceRuns, sources, workflowRuns } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { RUNS_WITH_ITEMS, settleRun } from '@/lib/sources/runs';
import { sourceSchedulesWorkflow } from '@/lib/sources/schedule-workflow';
import { enqueueDueSyncs } from '@/lib/sources/sync';
import { enqueueScheduledRuns } from '@/lib/workflows/schedule';
import { defineWorkflow } from '@/lib/workflows/types';
import { useTestApp } from './support/app';
import { createKb } from './support/knowledge-bases';

const app = useTestApp();

async function scheduledSource(schedule: Record<string, unknown>): Promise<string> {
  const kbId = await createKb(app);
  const res = await app.call(sourcesRoute.POST, {
    method: 'POST',
    path: '/v1/sources',
    body: { type: 'url', knowledge_base_id: kbId, config: { url: 'https://93.184.216.34/report.pdf' }, schedule, sync: false },
  });
  expect(res.status, res.text).toBe(201);
  return res.body.id;
}

describe('scheduled syncs', () => {
  it('start once when due, and the next time moves on by the interval', async () => {
    const id = await scheduledSource({ interval: '1h' });
    const now = new Date();
    await app.db.update(sources).set({ nextSyncAt: new Date(now.getTime() - 1000) }).where(eq(sources.id, id));
    expect(await enqueueDueSyncs(backgroundServices(app.db), now)).toBe(1);
    const runs = await app.db.select().from(sourceRuns).where(eq(sourceRuns.sourceId, id));
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', status: 'queued' });
    const [row] = await app.db.select().from(sources).where(eq(sources.id, id));
    expect(row.nextSyncAt!.getTime()).toBeGreaterThanOrEqual(now.getTime() + 3600_000 - 1000);
    // Not due any more: nothing more starts.
    expect(await enqueueDueSyncs(backgroundServices(app.db), now)).toBe(0);
  });

  it('wait for their next time while the source is still syncing', async () => {
    const id = await scheduledSource({ cron: '*/10 * * * *' });
    const now = new Date();
    await app.db.update(sources).set({ nextSyncAt: new Date(now.getTime() - 1000) }).where(eq(sources.id, id));
    expect(await enqueueDueSyncs(backgroundServices(app.db), now)).toBe(1);
    await app.db.update(sources).set({ nextSyncAt: new Date(now.getTime() - 500) }).where(eq(sources.id, id));
    expect(await enqueueDueSyncs(backgroundServices(app.db), now)).toBe(0);
    expect(await app.db.select().from(sourceRuns).where(eq(sourceRuns.sourceId, id))).toHaveLength(1);
    const [row] = await app.db.select().from(sources).where(eq(sources.id, id));
    expect(row.nextSyncAt!.getTime()).toBeGreaterThan(now.getTime());
    expect(row.nextSyncAt!.getUTCMinutes() % 10).toBe(0);
  });

  it('a disabled source does not sync on its schedule', async () => {
    const id = await scheduledSource({ interval: '30m' });
    await app.db.update(sources).set({ enabled: false, nextSyncAt: new Date(Date.now() - 1000) }).where(eq(sources.id, id));
    expect(await enqueueDueSyncs(backgroundServices(app.db))).toBe(0);
  });
});

describe('cron workflows', () => {
  it('are queued by the embedded sweeper once per schedule time, and only when their check finds work', async () => {
    let work = false;
    const probe = defineWorkflow({
      name: 'probe-cron',
      event: 'quarry/probe.cron',
      cron: '*/5 * * * *',
      input: z.object({}),
      when: async () => work,
      concurrency: () => 1,
      retries: 0,
      run: async () => null,
    });
    const at = (iso: string) => new Date(iso);
    const queued = async () => (await app.db.select().from(workflowRuns).where(eq(workflowRuns.workflow, 'probe-cron'))).length;
    await enqueueScheduledRuns(app.db, [probe], at('2026-12-08T10:04:00Z'));
    // 10:05 passed, but the check finds nothing to do.
    expect(await enqueueScheduledRuns(app.db, [probe], at('2026-12-08T10:05:30Z'))).toEqual([]);
    work = true;
    expect(await enqueueScheduledRuns(app.db, [probe], at('2026-12-08T10:06:00Z'))).toEqual([]);
    expect(await enqueueScheduledRuns(app.db, [probe], at('2026-12-08T10:10:01Z'))).toEqual(['probe-cron']);
    expect(await enqueueScheduledRuns(app.db, [probe], at('2026-12-08T10:11:00Z'))).toEqual([]);
    expect(await queued()).toBe(1);
  });

  it('the scheduled-sync workflow runs every minute: an Inngest cron function there, gated by due work here', async () => {
    const fn = toInngestFunction(sourceSchedulesWorkflow);
    expect(JSON.stringify(fn.opts.triggers)).toContain('"cron":"* * * * *"');
    await app.db.update(sources).set({ nextSyncAt: null });
    await app.db.delete(sourceRuns);
    expect(await sourceSchedulesWorkflow.when!(app.db, {})).toBe(false);
    const id = await scheduledSource({ interval: '1h' });
    await app.db.update(sources).set({ nextSyncAt: new Date(Date.now() - 1000) }).where(eq(sources.id, id));
    expect(await sourceSchedulesWorkflow.when!(app.db, {})).toBe(true);
  });
});

describe('run history', () => {
  it('keeps the item-by-item record of the newest 20 runs of a source, and the counts of all', async () => {
    const id = await scheduledSource({ interval: '1h' });
    const base = Date.now() - 3600_000;
    const ids: string[] = [];
    for (let i = 0; i < RUNS_WITH_ITEMS + 3; i++) {
      const runId = newId('sourceRun');
      ids.push(runId);
      const last = i === RUNS_WITH_ITEMS + 2;
      const at = new Date(base + i * 1000);
      await app.db.insert(sourceRuns).values({ id: runId, sourceId: id, status: last ? 'indexing' : 'completed', trigger: 'manual', unchanged: 1, createdAt: at, updatedAt: at });
      await app.db.insert(sourceRunItems).values({ runId, key: 'a', url: 'https://93.184.216.34/a', outcome: 'unchanged', doneAt: at });
    }
    expect(await settleRun(backgroundServices(app.db), ids.at(-1)!)).toBe(true);
    const kept = new Set((await app.db.select({ runId: sourceRunItems.runId }).from(sourceRunItems)).map((r) => r.runId));
    expect(ids.filter((r) => kept.has(r))).toEqual(ids.slice(-RUNS_WITH_ITEMS));
    const runs = await app.db.select().from(sourceRuns).where(eq(sourceRuns.sourceId, id));
    expect(runs).toHaveLength(RUNS_WITH_ITEMS + 3);
    expect(runs.every((r) => r.unchanged === 1)).toBe(true);
  });
});
