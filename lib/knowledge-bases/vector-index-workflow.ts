import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import { indexVectorBacklog } from '@/lib/search/vector-backlog';
import { enqueueWorkflow } from '@/lib/workflows/dispatch';
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

/**
 * Queues a run of the backlog unless one is queued already. Call it in the transaction that wrote
 * unmarked chunks. The queued run found is locked until that transaction ends, so it cannot start
 * (and finish) before the chunks are visible to it; a run already under way may have looked
 * before, so it does not count.
 */
export async function requestVectorIndexing(tx: DbOrTx): Promise<void> {
  const queued = await tx
    .select({ id: workflowRuns.id })
    .from(workflowRuns)
    .where(and(eq(workflowRuns.workflow, vectorIndexWorkflow.name), eq(workflowRuns.status, 'queued')))
    .limit(1)
    .for('share');
  if (queued.length === 0) await enqueueWorkflow(tx, vectorIndexWorkflow, {});
}
