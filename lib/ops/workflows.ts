import { getConfig } from '@/lib/config';
import { backgroundServices, type ServiceContext } from '@/lib/context';
import type { DatabaseHandle } from '@/lib/db/client';
import { sweepStaleExtractions } from '@/lib/extraction/task';
import { extractionWorkflow } from '@/lib/extraction/workflow';
import { indexingWorkflow } from '@/lib/knowledge-bases/indexing-workflow';
import { reindexWorkflow } from '@/lib/knowledge-bases/reindex-workflow';
import { sweepVectorBacklog, vectorIndexWorkflow } from '@/lib/knowledge-bases/vector-index-workflow';
import { failWaitingDocumentsWorkflow, releaseWaitingDocumentsWorkflow } from '@/lib/knowledge-bases/waiting-workflow';
import { sourceSchedulesWorkflow } from '@/lib/sources/schedule-workflow';
import { settleOnFailedWorkflow, settleOnIndexedWorkflow, sourceSyncWorkflow } from '@/lib/sources/sync-workflow';
import { webhookDeliveryWorkflow } from '@/lib/webhooks/delivery-workflow';
import { notifyWorkflows, setWorkflowNotifier } from '@/lib/workflows/dispatch';
import { enqueueScheduledRuns } from '@/lib/workflows/schedule';
import { EmbeddedRunner } from '@/lib/workflows/embedded';
import { registerWorkflows } from '@/lib/workflows/triggers';
import type { WorkflowDefinition } from '@/lib/workflows/types';
import { ensureReady } from './startup';

/**
 * Every workflow Quarry runs, by the embedded runner or as Inngest functions. Each is defined
 * beside its domain; the machinery in lib/workflows knows none of them.
 */
export const WORKFLOWS: WorkflowDefinition<any>[] = [
  extractionWorkflow,
  indexingWorkflow,
  reindexWorkflow,
  webhookDeliveryWorkflow,
  releaseWaitingDocumentsWorkflow,
  failWaitingDocumentsWorkflow,
  vectorIndexWorkflow,
  sourceSyncWorkflow,
  settleOnIndexedWorkflow,
  settleOnFailedWorkflow,
  sourceSchedulesWorkflow,
];

// Domain events start the workflows subscribed to them (lib/workflows/triggers.ts).
registerWorkflows(WORKFLOWS);

/** The service context of background work outside a run: no request, no caller. */
export async function backgroundContext(): Promise<ServiceContext> {
  const { db } = await ensureReady();
  return backgroundServices(db);
}

export type WorkflowMode = 'inngest' | 'embedded';

/** Inngest runs the pipelines when it is configured; otherwise they run in this process. */
export function workflowMode(env: Record<string, string | undefined> = process.env): WorkflowMode {
  return env.INNGEST_EVENT_KEY || env.INNGEST_BASE_URL || env.INNGEST_DEV ? 'inngest' : 'embedded';
}

interface Engine {
  mode: WorkflowMode;
  stop(): Promise<void>;
}

const globalForEngine = globalThis as unknown as { __quarryWorkflowEngine?: Promise<Engine> };

const SWEEP_MS = 60_000;

/**
 * Every minute, ends tasks whose runner is gone for good (see sweepStaleExtractions), queues a
 * run for chunks left waiting for the vector index (see sweepVectorBacklog), and (embedded mode)
 * queues the cron workflows whose time came, such as the one starting scheduled source syncs.
 */
function startSweeper(mode: WorkflowMode): () => void {
  const timer = setInterval(() => {
    backgroundContext()
      .then(async (ctx) => {
        await sweepStaleExtractions(ctx);
        await sweepVectorBacklog(ctx.db);
        // Inngest starts cron workflows by its own trigger.
        if (mode === 'embedded' && (await enqueueScheduledRuns(ctx.db, WORKFLOWS)).length > 0) notifyWorkflows();
      })
      .catch((err) => console.error('background sweep failed', err));
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Starts the embedded runner or (Inngest mode) the relay, and the stale-task sweeper, once per
 * process. In Inngest mode the embedded runner does not run: Inngest calls /api/inngest instead.
 */
export function startWorkflowEngine(handle: DatabaseHandle): Promise<Engine> {
  globalForEngine.__quarryWorkflowEngine ??= (async () => {
    const mode = workflowMode();
    if (mode === 'inngest') {
      const { missingInngestSettings } = await import('@/inngest/client');
      const missing = missingInngestSettings();
      if (missing.length > 0) {
        throw new Error(
          `Inngest is configured but ${missing.join(', ')} ${missing.length > 1 ? 'are' : 'is'} not set. Outside INNGEST_DEV=1, ` +
            'Quarry needs INNGEST_EVENT_KEY to send runs, INNGEST_SIGNING_KEY to serve /api/inngest, and INNGEST_SERVE_ORIGIN ' +
            '(the URL Inngest reaches the replicas at, e.g. https://quarry.example.com) to register there',
        );
      }
      const { InngestRelay } = await import('@/inngest/relay');
      const relay = new InngestRelay(handle.db, WORKFLOWS);
      const stopSweeper = startSweeper(mode);
      await relay.start();
      setWorkflowNotifier(() => relay.notify());
      return { mode, stop: () => (stopSweeper(), relay.stop()) };
    }
    const stopSweeper = startSweeper(mode);
    const runner = new EmbeddedRunner({
      db: handle.db,
      workflows: WORKFLOWS,
      exclusive: handle.kind === 'pglite',
      leaseMs: getConfig().workflowLeaseMs,
    });
    await runner.start();
    setWorkflowNotifier((workflows) => runner.notify(workflows));
    return { mode, stop: () => (stopSweeper(), runner.stop()) };
  })();
  const engine = globalForEngine.__quarryWorkflowEngine;
  // A failed start is not kept: stopWorkflowEngine has nothing to stop, and a later call tries again.
  engine.catch(() => {
    if (globalForEngine.__quarryWorkflowEngine === engine) globalForEngine.__quarryWorkflowEngine = undefined;
  });
  return engine;
}

export async function stopWorkflowEngine(): Promise<void> {
  const engine = globalForEngine.__quarryWorkflowEngine;
  globalForEngine.__quarryWorkflowEngine = undefined;
  setWorkflowNotifier(undefined);
  if (engine) await (await engine).stop();
}
