import { cron, eventType } from 'inngest';
import { backgroundContext, WORKFLOWS } from '@/lib/ops/workflows';
import { perKeyLimit, type StepTools, type WorkflowDefinition } from '@/lib/workflows/types';
import { inngest } from './client';

type InngestStep = {
  run: (id: string, fn: () => Promise<unknown>) => Promise<unknown>;
  sleep: (id: string, duration: number) => Promise<void>;
  sendEvent: (id: string, payload: { name: string; data: Record<string, unknown> }) => Promise<unknown>;
};

/** Inngest's step tools already satisfy the workflow step interface; this only narrows the types. */
export function adaptStep(step: InngestStep): StepTools {
  return {
    run: <T>(id: string, fn: () => Promise<T>) => step.run(id, fn) as Promise<T>,
    sleep: (id, durationMs) => step.sleep(id, durationMs),
    sendEvent: async (id, event) => {
      await step.sendEvent(id, event);
    },
  };
}

type Concurrency = { limit: number; key?: string };

/**
 * Inngest's concurrency for a workflow: its total and, when it declares a key, a limit per value of
 * that event field. Each workflow is its own function and Inngest's limits are per function by
 * default, so extraction or indexing never takes the slots of webhook deliveries.
 */
export function inngestConcurrency(def: WorkflowDefinition<any>): Concurrency | [Concurrency, Concurrency] {
  const total = { limit: def.concurrency() };
  if (!def.concurrencyKey) return total;
  return [total, { key: `event.data.${def.concurrencyKey.field}`, limit: perKeyLimit(def) }];
}

/** The Inngest function wrapping one workflow: same code, Inngest's durable execution. */
export function toInngestFunction(def: WorkflowDefinition<any>) {
  return inngest.createFunction(
    {
      id: def.name,
      triggers: def.cron ? [eventType(def.event), cron(def.cron)] : [eventType(def.event)],
      concurrency: inngestConcurrency(def),
      ...(def.debounce ? { debounce: { period: `${def.debounce.periodSeconds}s` as const, timeout: `${def.debounce.timeoutSeconds}s` as const } } : {}),
      retries: Math.min(def.retries, 20) as 0,
      onFailure: async ({ event, error }) => {
        const original = (event.data as { event?: { data?: unknown } }).event?.data;
        const parsed = def.input.safeParse(original);
        if (parsed.success) await def.onFailure?.(parsed.data, error, await backgroundContext());
      },
    },
    async ({ event, step, runId, attempt }) =>
      // A cron trigger's event carries no input of ours: the workflow's input is then empty.
      def.run(def.input.parse(def.cron && event.name === 'inngest/scheduled.timer' ? {} : event.data), adaptStep(step as unknown as InngestStep), {
        runId,
        attempt,
        services: await backgroundContext(),
      }),
  );
}

export const functions = WORKFLOWS.map(toInngestFunction);
