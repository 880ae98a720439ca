import { and, eq, isNotNull, lte, sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/lib/db/client';
import { sourceRuns, sources } from '@/lib/db/schema';
import { defineWorkflow } from '@/lib/workflows/types';
import { enqueueDueSyncs, settleWaitingRuns } from './sync';

/** Whether any source's schedule is due, or any sync waits for its documents (a missed ending is settled). */
async function anythingDue(db: DbOrTx): Promise<boolean> {
  const [row] = await db
    .select({ one: sql`1` })
    .from(sources)
    .where(and(eq(sources.enabled, true), isNotNull(sources.nextSyncAt), lte(sources.nextSyncAt, new Date())))
    .limit(1);
  if (row) return true;
  const [waiting] = await db.select({ one: sql`1` }).from(sourceRuns).where(eq(sourceRuns.status, 'indexing')).limit(1);
  return waiting !== undefined;
}

/**
 * Every minute: starts the syncs whose schedule is due (a cron expression read by croner, or an
 * interval), and completes syncs whose documents have all ended in case their ending was missed.
 * Inngest runs it by its cron trigger; the embedded runner's sweeper queues it when `when` holds.
 */
export const sourceSchedulesWorkflow = defineWorkflow({
  name: 'start-scheduled-syncs',
  event: 'quarry/source.schedules.due',
  cron: '* * * * *',
  input: z.object({}),
  when: (tx) => anythingDue(tx),
  concurrency: () => 1,
  retries: 1,
  async run(_input, step, { services }) {
    const started = await step.run('start-due', () => enqueueDueSyncs(services));
    const settled = await step.run('settle', () => settleWaitingRuns(services));
    return { started, settled };
  },
});
