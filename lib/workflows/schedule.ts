import { Cron } from 'croner';
import type { DbOrTx } from '@/lib/db/client';
import { enqueueWorkflow } from './dispatch';
import type { WorkflowDefinition } from './types';

/*
 * Cron-started workflows for the embedded runner: the sweeper calls this every minute and each
 * workflow whose schedule had a time since the previous call gets one run (Inngest runs them by
 * its own cron trigger instead). A sweep that was missed (the process was down) starts one run,
 * not one per missed time; a workflow whose `when` says there is nothing to do gets none.
 */

const holder = globalThis as unknown as { __quarryCronChecked?: Date };

/** Queues one run of each cron workflow due since the previous check; returns their names. */
export async function enqueueScheduledRuns(db: DbOrTx, defs: WorkflowDefinition<any>[], now = new Date()): Promise<string[]> {
  const since = holder.__quarryCronChecked ?? new Date(now.getTime() - 60_000);
  holder.__quarryCronChecked = now;
  const due: string[] = [];
  for (const def of defs) {
    if (!def.cron) continue;
    const next = new Cron(def.cron, { timezone: 'UTC', paused: true }).nextRun(since);
    if (!next || next > now) continue;
    // A run that would find nothing to do is not queued (no row a minute for an idle schedule).
    if (def.when && !(await def.when(db, {}))) continue;
    await enqueueWorkflow(db, def, {}, now);
    due.push(def.name);
  }
  return due;
}
