import type { DbOrTx } from '@/lib/db/client';
import { enqueueWorkflowsForEvent } from './dispatch';
import type { WorkflowDefinition } from './types';

/*
 * Workflows that start on a domain event (extraction.completed, …): the event log calls
 * startEventWorkflows inside the transaction that records the event, so the run exists exactly
 * when the event does. The list is set once per process by the entry point (lib/ops/workflows),
 * on globalThis because Next.js bundles a module once per route.
 */
const registry = globalThis as unknown as { __quarryWorkflows?: WorkflowDefinition<any>[] };

export function registerWorkflows(defs: WorkflowDefinition<any>[]): void {
  registry.__quarryWorkflows = defs;
}

/** Queues every registered workflow whose trigger is the event `type`; returns the run ids. */
export function startEventWorkflows(tx: DbOrTx, type: string, data: Record<string, unknown>, now = new Date()): Promise<string[]> {
  const defs = registry.__quarryWorkflows ?? [];
  if (!defs.some((def) => def.event === type)) return Promise.resolve([]);
  return enqueueWorkflowsForEvent(tx, defs, type, data, now);
}
