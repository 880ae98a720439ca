import { and, eq, inArray, isNotNull, lte } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { sourceRuns, sources, type SourceRow, type SourceRunRow, type SourceRunTrigger } from '@/lib/db/schema';
import { ApiError } from '@/lib/errors';
import { newId } from '@/lib/ids';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { runsIndexing, settleRun } from './runs';
import { nextSyncTime } from './schedule';
import { sourceSyncWorkflow } from './sync-workflow';

/** The run of `sourceId` that has not ended, if any. */
export async function activeRun(db: DbOrTx, sourceId: string): Promise<SourceRunRow | undefined> {
  const [row] = await db
    .select()
    .from(sourceRuns)
    .where(and(eq(sourceRuns.sourceId, sourceId), inArray(sourceRuns.status, ['queued', 'running', 'indexing'])))
    .limit(1);
  return row;
}

function busy(run: SourceRunRow): ApiError {
  return new ApiError('SOURCE_BUSY', `Source ${run.sourceId} is syncing already (run ${run.id} is ${run.status}); wait for it to end`, {
    source_id: run.sourceId,
    run_id: run.id,
    status: run.status,
  });
}

/**
 * Queues a sync of a source inside the caller's transaction, with the source row locked: two
 * syncs of one source never run at once (and the one-active-run index would refuse a second).
 * Throws SOURCE_BUSY when one has not ended; call notifyWorkflows() after the commit.
 */
export async function queueSync(tx: DbOrTx, source: SourceRow, trigger: SourceRunTrigger, createdByKey: string | null): Promise<SourceRunRow> {
  await tx.select({ id: sources.id }).from(sources).where(eq(sources.id, source.id)).for('update');
  const active = await activeRun(tx, source.id);
  if (active) throw busy(active);
  const now = new Date();
  const [run] = await tx
    .insert(sourceRuns)
    .values({ id: newId('sourceRun'), sourceId: source.id, status: 'queued', trigger, createdByKey, createdAt: now, updatedAt: now })
    .returning();
  await enqueueWorkflow(tx, sourceSyncWorkflow, { source_run_id: run.id, source_id: source.id }, now);
  if (trigger === 'schedule' || source.schedule) {
    // The next scheduled sync counts from this one's start.
    await tx
      .update(sources)
      .set({ nextSyncAt: source.enabled ? nextSyncTime(source.schedule, now) : null, lastRunId: run.id })
      .where(eq(sources.id, source.id));
  } else {
    await tx.update(sources).set({ lastRunId: run.id }).where(eq(sources.id, source.id));
  }
  return run;
}

/** Starts a sync now (POST /v1/sources/{id}/sync). */
export async function requestSync(ctx: ServiceContext, source: SourceRow, trigger: SourceRunTrigger = 'manual'): Promise<SourceRunRow> {
  let run: SourceRunRow;
  try {
    run = await ctx.db.transaction((tx) => queueSync(tx, source, trigger, ctx.principal?.keyId ?? null));
  } catch (err) {
    if (isUniqueViolation(err)) {
      const active = await activeRun(ctx.db, source.id);
      if (active) throw busy(active);
    }
    throw err;
  }
  notifyWorkflows();
  return run;
}

/**
 * Starts the syncs whose schedule is due (the sweeper calls it every minute, on every replica: the
 * row lock and the one-active-run rule make each due sync start once). A source still syncing
 * from before waits for its next time. Returns how many started.
 */
export async function enqueueDueSyncs(ctx: ServiceContext, now = new Date()): Promise<number> {
  const due = await ctx.db
    .select()
    .from(sources)
    .where(and(eq(sources.enabled, true), isNotNull(sources.nextSyncAt), lte(sources.nextSyncAt, now)))
    .limit(100);
  let started = 0;
  for (const source of due) {
    const queued = await ctx.db.transaction(async (tx) => {
      const [locked] = await tx.select().from(sources).where(eq(sources.id, source.id)).for('update');
      if (!locked || !locked.enabled || !locked.nextSyncAt || locked.nextSyncAt > now) return false;
      if (await activeRun(tx, locked.id)) {
        await tx.update(sources).set({ nextSyncAt: nextSyncTime(locked.schedule, now) }).where(eq(sources.id, locked.id));
        return false;
      }
      await queueSync(tx, locked, 'schedule', null);
      return true;
    });
    if (queued) started++;
  }
  if (started > 0) notifyWorkflows();
  return started;
}

/** Completes runs waiting for documents that have all ended (a backstop for a missed ending). */
export async function settleWaitingRuns(ctx: ServiceContext): Promise<number> {
  let settled = 0;
  for (const runId of await runsIndexing(ctx.db)) if (await settleRun(ctx, runId)) settled++;
  return settled;
}
