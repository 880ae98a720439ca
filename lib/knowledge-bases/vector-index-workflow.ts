import { and, eq, inArray } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import { indexVectorBacklog, pendingVectorCount } from '@/lib/search/vector-backlog';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { defineWorkflow } from '@/lib/workflows/types';

/** Time one step of the backlog takes at most (each step is recorded, so a restart goes on from there). */
const STEP_BUDGET_MS = 10_000;

/** Puts chunks written since into their HNSW index (lib/search/vector-backlog.ts), until none are left. */
export const vectorIndexWorkflow = defineWorkflow({
  name: 'index-vectors',
  event: 'quarry/vectors.pending',
  input: z.object({}),
  concurrency: () => 1,
  debounce: { periodSeconds: 2, timeoutSeconds: 30 },
  retries: 5,
  async run(_input, step, { services }) {
    let indexed = 0;
    for (let round = 0; ; round++) {
      const pass = await step.run(`mark-${round}`, () => indexVectorBacklog(services.db, STEP_BUDGET_MS));
      indexed += pass.indexed;
      if (!pass.more) return { indexed };
    }
  },
});

async function runsIn(db: DbOrTx, statuses: Array<'queued' | 'running'>): Promise<boolean> {
  const found = await db
    .select({ id: workflowRuns.id })
    .from(workflowRuns)
    .where(and(eq(workflowRuns.workflow, vectorIndexWorkflow.name), inArray(workflowRuns.status, statuses)))
    .limit(1);
  return found.length > 0;
}

/**
 * Queues a run of the backlog unless one is queued already (a run under way may have looked
 * before these chunks, so it does not count). Call it in the transaction that writes unmarked
 * chunks. A queued run can still start and finish before a long transaction commits, missing its
 * chunks: sweepVectorBacklog, every minute, queues another then. Nothing is locked here: a lock
 * on the queued run would hold up the Inngest relay's update of it for the whole transaction.
 */
export async function requestVectorIndexing(tx: DbOrTx): Promise<void> {
  if (!(await runsIn(tx, ['queued']))) await enqueueWorkflow(tx, vectorIndexWorkflow, {});
}

/** Queues a run when chunks wait for the index and no run is queued or under way; returns whether it did. */
export async function sweepVectorBacklog(db: DbOrTx): Promise<boolean> {
  if ((await pendingVectorCount(db, 1)) === 0 || (await runsIn(db, ['queued', 'running']))) return false;
  await enqueueWorkflow(db, vectorIndexWorkflow, {});
  notifyWorkflows();
  return true;
}
