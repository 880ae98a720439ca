import { z } from 'zod';
import { getConfig } from '@/lib/config';
import type { DbOrTx } from '@/lib/db/client';
import { defineWorkflow } from '@/lib/workflows/types';
import { listRun, processBatch, removeBatch } from './engine';
import { awaitIndexing, failRun, runsAwaiting, settleRun, startRun } from './runs';

/** Far beyond any source: 10 items a round. */
const MAX_ROUNDS = 1_000_000;

/**
 * One sync of a source: list it, do each item (fetch what changed, store it as a file version,
 * index it in place), remove what is gone, then wait for its documents (settled by the workflows
 * below as each one ends). Every step is safe to run again, so a crash resumes where it stopped.
 */
export const sourceSyncWorkflow = defineWorkflow({
  name: 'sync-source',
  event: 'quarry/source.sync.requested',
  // Not run_id: Inngest's trigger events carry the workflow run's own id under that name.
  input: z.object({ source_run_id: z.string().min(1), source_id: z.string().min(1) }),
  concurrency: () => getConfig().sources.concurrency,
  // One source syncs once at a time (the one-active-run index guarantees it; this keeps slots fair).
  concurrencyKey: { field: 'source_id', limit: () => 1 },
  retries: 3,
  async run({ source_run_id: run_id }, step, { services: ctx }) {
    if (!(await step.run('start', () => startRun(ctx, run_id)))) return { status: 'skipped' };
    const listed = await step.run('list', () => listRun(ctx, run_id));
    if (listed !== 'listed') return { status: listed };
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const progress = await step.run(`items-${round}`, () => processBatch(ctx, run_id));
      if (progress === 'failed' || progress === 'gone') return { status: progress };
      if (progress === 'done') break;
    }
    for (let round = 0; round < MAX_ROUNDS; round++) {
      const progress = await step.run(`remove-${round}`, () => removeBatch(ctx, run_id));
      if (progress === 'gone') return { status: progress };
      if (progress === 'done') break;
    }
    await step.run('await-indexing', () => awaitIndexing(ctx, run_id));
    const settled = await step.run('settle', () => settleRun(ctx, run_id));
    return { status: settled ? 'completed' : 'indexing' };
  },
  async onFailure({ source_run_id: run_id }, error, ctx) {
    await failRun(ctx, run_id, 'SYNC_FAILED', `The sync stopped after several attempts: ${error.message}`);
  },
});

const documentEvent = z.object({ document_id: z.string().min(1) });

async function awaited(tx: DbOrTx, { document_id }: { document_id: string }): Promise<boolean> {
  return (await runsAwaiting(tx, document_id)).length > 0;
}

async function settleFor(ctx: Parameters<typeof settleRun>[0], documentId: string) {
  let completed = 0;
  for (const runId of await runsAwaiting(ctx.db, documentId)) if (await settleRun(ctx, runId)) completed++;
  return { completed };
}

/** Settles the syncs waiting for a document when it ends (`event`: indexed or index_failed). */
function settleOn(name: string, event: 'document.indexed' | 'document.index_failed') {
  return defineWorkflow({
    name,
    event,
    input: documentEvent,
    when: awaited,
    concurrency: () => 4,
    retries: 3,
    async run({ document_id }, step, { services }) {
      return step.run('settle', () => settleFor(services, document_id));
    },
  });
}

/** A sync waiting for its documents completes when the last of them is indexed, or fails. */
export const settleOnIndexedWorkflow = settleOn('settle-source-sync-indexed', 'document.indexed');
export const settleOnFailedWorkflow = settleOn('settle-source-sync-failed', 'document.index_failed');
