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
  enqueuedSinceNotify().add(def.name);
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

/** Starts every workflow triggered by event `name` (whose `when`, if any, holds). */
export async function enqueueWorkflowsForEvent(
  tx: DbOrTx,
  defs: WorkflowDefinition<any>[],
  name: string,
  data: Record<string, unknown>,
  now = new Date(),
): Promise<string[]> {
  const ids: string[] = [];
  for (const def of defs) {
    if (def.event !== name) continue;
    const input = def.input.parse(data);
    if (def.when && !(await def.when(tx, input))) continue;
    ids.push(await enqueueWorkflow(tx, def, input, now));
  }
  return ids;
}

const globalForNotify = globalThis as unknown as {
  __quarryWorkflowNotify?: (workflows: string[]) => void;
  __quarryWorkflowsEnqueued?: Set<string>;
};

/** Workflows this process has enqueued runs of since the last notifyWorkflows(). */
function enqueuedSinceNotify(): Set<string> {
  return (globalForNotify.__quarryWorkflowsEnqueued ??= new Set());
}

export function setWorkflowNotifier(fn: ((workflows: string[]) => void) | undefined): void {
  globalForNotify.__quarryWorkflowNotify = fn;
}

/**
 * Wakes the local runner (or Inngest relay) after a commit that enqueued runs, naming the
 * workflows enqueued since the last call: the runner looks for due runs of those only.
 */
export function notifyWorkflows(): void {
  const names = enqueuedSinceNotify();
  if (names.size === 0) return;
  const workflows = [...names];
  names.clear();
  globalForNotify.__quarryWorkflowNotify?.(workflows);
}
