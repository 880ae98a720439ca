import { and, asc, eq, inArray, lte } from 'drizzle-orm';
import type { Db } from '@/lib/db/client';
import { workflowRuns } from '@/lib/db/schema';
import { retryDelayMs } from '@/lib/workflows/embedded';
import { concurrencyKeyOf, type WorkflowDefinition } from '@/lib/workflows/types';
import { inngest } from './client';

const BATCH = 50;

/**
 * The trigger event's data: the run's input and id. A run queued before its workflow declared a
 * concurrency key lacks the field; its own id stands in, so Inngest's key expression always has a
 * value and the run counts only toward the total (as in the embedded runner).
 */
export function eventData(def: WorkflowDefinition<any>, runId: string, input: Record<string, unknown>): Record<string, unknown> {
  const data: Record<string, unknown> = { ...input, run_id: runId };
  const field = def.concurrencyKey?.field;
  if (field && concurrencyKeyOf(def, input) === null) data[field] = runId;
  return data;
}

/**
 * In Inngest mode the runs table stays the outbox: this relay sends each queued run to Inngest as
 * its trigger event (the run id is the event id, so Inngest drops a duplicate send) and marks it
 * dispatched. A send that fails is retried with backoff.
 */
export class InngestRelay {
  private poller: NodeJS.Timeout | undefined;
  private busy: Promise<void> | null = null;
  private again = false;

  constructor(
    private readonly db: Db,
    private readonly defs: WorkflowDefinition<any>[],
    private readonly pollMs = 1000,
  ) {}

  async start(): Promise<void> {
    this.poller = setInterval(() => this.notify(), this.pollMs);
    this.poller.unref();
    this.notify();
  }

  async stop(): Promise<void> {
    clearInterval(this.poller);
    await this.busy;
  }

  notify(): void {
    if (this.busy) {
      this.again = true;
      return;
    }
    this.busy = this.forward()
      .catch((err) => console.error('inngest relay: forwarding failed', err))
      .finally(() => {
        this.busy = null;
        if (this.again) {
          this.again = false;
          this.notify();
        }
      });
  }

  private async forward(): Promise<void> {
    const byName = new Map(this.defs.map((d) => [d.name, d]));
    for (;;) {
      const now = new Date();
      const due = await this.db
        .select()
        .from(workflowRuns)
        .where(and(eq(workflowRuns.status, 'queued'), lte(workflowRuns.nextRunAt, now), inArray(workflowRuns.workflow, [...byName.keys()])))
        .orderBy(asc(workflowRuns.nextRunAt))
        .limit(BATCH);
      if (due.length === 0) return;
      for (const run of due) {
        const def = byName.get(run.workflow)!;
        try {
          await inngest.send({ id: run.id, name: def.event, data: eventData(def, run.id, run.input) });
          await this.db.update(workflowRuns).set({ status: 'dispatched', updatedAt: new Date() }).where(eq(workflowRuns.id, run.id));
        } catch (err) {
          const attempt = run.attempt + 1;
          await this.db
            .update(workflowRuns)
            .set({ attempt, nextRunAt: new Date(Date.now() + retryDelayMs(attempt)), lastError: `sending to Inngest failed: ${(err as Error).message}` })
            .where(eq(workflowRuns.id, run.id));
        }
      }
      if (due.length < BATCH) return;
    }
  }
}
