import type { DbOrTx } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import type { WorkflowDefinition } from './types';

/**
 * Records a run of `def` to start now. Call it inside the transaction that makes the change the
 * workflow reacts to: the run exists exactly when the change does (a transactional outbox).
 * After the transaction commits, call notifyWorkflows() so this process picks it up at once.
 */
export async function enqueueWorkflow<I extends Record<string, unknown>>(
  tx: DbOrTx,
  def: WorkflowDefinition<I>,
  input: I,
  now = new Date(),
): Promise<string> {
  const id = newId('run');
  await tx.insert(workflowRuns).values({
    id,
    workflow: def.name,
    input,
    status: 'queued',
    attempt: 0,
    maxAttempts: def.retries + 1,
    nextRunAt: now,
    createdAt: now,
    updatedAt: now,
  });
  return id;
}

/** Starts every workflow triggered by event `name`. */
export async function enqueueWorkflowsForEvent(
  tx: DbOrTx,
  defs: WorkflowDefinition<any>[],
  name: string,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<string[]> {
  const ids: string[] = [];
  for (const def of defs) if (def.event === name) ids.push(await enqueueWorkflow(tx, def, def.input.parse(data), now));
  return ids;
}

const globalForNotify = globalThis as unknown as { __quarryWorkflowNotify?: () => void };

export function setWorkflowNotifier(fn: (() => void) | undefined): void {
  globalForNotify.__quarryWorkflowNotify = fn;
}

/** Wakes the local runner (or Inngest relay) after a commit that enqueued runs. */
export function notifyWorkflows(): void {
  globalForNotify.__quarryWorkflowNotify?.();
}
