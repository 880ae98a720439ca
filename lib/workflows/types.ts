import type { z } from 'zod';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';

/** What a workflow may do besides plain code: memoised steps, durable sleeps, and events. */
export interface StepTools {
  /** Runs `fn` once per run: on a retry or after a restart its stored result is returned instead. */
  run<T>(id: string, fn: () => Promise<T>): Promise<T>;
  /** Pauses the run durably (a restart during the wait neither loses nor repeats it). */
  sleep(id: string, durationMs: number): Promise<void>;
  /** Starts the workflows triggered by `name`, once per run. */
  sendEvent(id: string, event: { name: string; data: Record<string, unknown> }): Promise<void>;
}

export interface WorkflowContext {
  runId: string;
  /** 0 on the first attempt. */
  attempt: number;
  /** The service context of background work: the runner's database, storage, no request, no caller. */
  services: ServiceContext;
}

/**
 * A pipeline written once and run either by the embedded runner or by Inngest. Results of
 * `step.run` must be JSON-serialisable. Code outside steps runs again on every replay.
 */
export interface WorkflowDefinition<I extends Record<string, unknown> = Record<string, unknown>> {
  /** Function id (Inngest) and run kind (embedded). */
  name: string;
  /** The event that starts it. */
  event: string;
  /**
   * Also started on this cron schedule (UTC): by Inngest's cron trigger in Inngest mode, and by the
   * embedded runner's sweeper otherwise (scheduledRunsDue), once per schedule time.
   */
  cron?: string;
  input: z.ZodType<I>;
  /** Runs of this workflow at once, per process (embedded) or in total (Inngest). */
  concurrency: () => number;
  /**
   * Runs sharing one value of an input field (a knowledge base, a webhook endpoint) at once, within
   * `concurrency`: one tenant's burst cannot take every slot of the workflow. Runs whose input lacks
   * the field count only toward the total.
   */
  concurrencyKey?: ConcurrencyKey<I>;
  /**
   * Runs asked for within `periodSeconds` of each other become one (never held back longer than
   * `timeoutSeconds`): for work that takes whatever has piled up, so one run serves many requests.
   * Inngest debounces the events; the embedded runner's callers look for a queued run first.
   */
  debounce?: { periodSeconds: number; timeoutSeconds: number };
  /**
   * For a workflow started by a domain event: checked inside the transaction that records the
   * event, and the run is queued only when it resolves true (for a cron workflow in the embedded
   * runner: checked at each schedule time, with an empty input). A cheap query here spares a run that
   * would find nothing to do (about ten statements on the embedded database).
   */
  when?(tx: DbOrTx, input: I): Promise<boolean>;
  /** Retries after the first attempt when a step throws. */
  retries: number;
  run(input: I, step: StepTools, ctx: WorkflowContext): Promise<unknown>;
  /** Called once when every attempt has failed. */
  onFailure?(input: I, error: Error, services: ServiceContext): Promise<void>;
}

export interface ConcurrencyKey<I> {
  /** The input field whose value groups runs; Inngest's key is `event.data.<field>`. */
  field: keyof I & string;
  /** Runs per value at once (at most the workflow's `concurrency`). */
  limit: () => number;
}

/** The run's concurrency key: its value of the declared field, or null (no key declared, or none in the input). */
export function concurrencyKeyOf(def: WorkflowDefinition<any>, input: Record<string, unknown>): string | null {
  if (!def.concurrencyKey) return null;
  const value = input[def.concurrencyKey.field];
  return value === undefined || value === null ? null : String(value);
}

/** Runs per key value at once: the declared limit, never above the workflow's total. */
export function perKeyLimit(def: WorkflowDefinition<any>): number {
  return def.concurrencyKey ? Math.max(1, Math.min(def.concurrencyKey.limit(), def.concurrency())) : def.concurrency();
}

export function defineWorkflow<I extends Record<string, unknown>>(def: WorkflowDefinition<I>): WorkflowDefinition<I> {
  return def;
}
