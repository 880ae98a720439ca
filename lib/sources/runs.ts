import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { kbDocuments, sourceRunItems, sourceRuns, sources, type SourceItemOutcome, type SourceRunRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { endSession } from './session';

/*
 * A sync's life: queued → running (listing, then its items, then removing what is gone) →
 * indexing (its new and changed documents are being extracted and indexed) → completed; or
 * failed, when the source as a whole could not be read (nothing is removed then). Counts are
 * taken from the run's items when it ends, so a resumed run counts each item once.
 */

export type RunCounts = Record<SourceItemOutcome, number>;

const ZERO: RunCounts = { added: 0, updated: 0, unchanged: 0, deleted: 0, failed: 0, skipped: 0 };

/** Runs of a source that keep their item-by-item record (older ones keep their counts only). */
export const RUNS_WITH_ITEMS = 20;

/** Forgets the item lists of a source's runs beyond the newest RUNS_WITH_ITEMS (their counts stay). */
async function pruneRunItems(tx: DbOrTx, sourceId: string): Promise<void> {
  await tx.execute(sql`
    delete from ${sourceRunItems} where run_id in (
      select id from ${sourceRuns} where source_id = ${sourceId}
       order by created_at desc, id desc offset ${RUNS_WITH_ITEMS})`);
}

/** How many of the run's items had each outcome. */
export async function countOutcomes(db: DbOrTx, runId: string): Promise<RunCounts> {
  const rows = await db
    .select({ outcome: sourceRunItems.outcome, n: sql<number>`count(*)::int` })
    .from(sourceRunItems)
    .where(and(eq(sourceRunItems.runId, runId), isNotNull(sourceRunItems.outcome)))
    .groupBy(sourceRunItems.outcome);
  const counts = { ...ZERO };
  for (const row of rows) counts[row.outcome!] = Number(row.n);
  return counts;
}

export async function loadRun(db: DbOrTx, runId: string): Promise<SourceRunRow | undefined> {
  const [row] = await db.select().from(sourceRuns).where(eq(sourceRuns.id, runId));
  return row;
}

/** queued → running. False when the run is already over (or gone with its source). */
export async function startRun(ctx: ServiceContext, runId: string): Promise<boolean> {
  const now = new Date();
  await ctx.db
    .update(sourceRuns)
    .set({ status: 'running', startedAt: now, updatedAt: now })
    .where(and(eq(sourceRuns.id, runId), eq(sourceRuns.status, 'queued')));
  const run = await loadRun(ctx.db, runId);
  return run !== undefined && run.status === 'running';
}

async function sourceOfRun(tx: DbOrTx, run: SourceRunRow) {
  const [source] = await tx.select({ id: sources.id, kbId: sources.kbId }).from(sources).where(eq(sources.id, run.sourceId));
  return source;
}

function countsView(counts: RunCounts) {
  return { ...counts };
}

/** Ends a run as failed (unless it ended already) with its source.sync.failed event. */
export async function failRun(ctx: ServiceContext, runId: string, code: string, message: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const now = new Date();
    const counts = await countOutcomes(tx, runId);
    const [run] = await tx
      .update(sourceRuns)
      .set({ status: 'failed', errorCode: code, errorMessage: message.slice(0, 2000), ...counts, completedAt: now, updatedAt: now })
      .where(and(eq(sourceRuns.id, runId), inArray(sourceRuns.status, ['queued', 'running', 'indexing'])))
      .returning();
    if (!run) return;
    const source = await sourceOfRun(tx, run);
    if (!source) return;
    await tx.update(sources).set({ lastRunId: run.id, updatedAt: now }).where(eq(sources.id, source.id));
    await pruneRunItems(tx, source.id);
    await recordEvent(
      tx,
      'source.sync.failed',
      { source_id: source.id, kb_id: source.kbId, run_id: run.id, status: 'failed', counts: countsView(counts), error: { code, message: run.errorMessage } },
      ctx.requestId,
    );
  });
  endSession(runId);
}

/** Documents this run added, changed, retried or added back that are still being extracted or indexed. */
async function documentsInFlight(db: DbOrTx, runId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(sourceRunItems)
    .innerJoin(kbDocuments, eq(kbDocuments.id, sourceRunItems.documentId))
    .where(and(eq(sourceRunItems.runId, runId), inArray(sourceRunItems.outcome, ['added', 'updated', 'unchanged']), inArray(kbDocuments.status, ['pending', 'indexing'])));
  return Number(row?.n ?? 0);
}

/** running → indexing: every item is done and what is gone is removed; the run waits for its documents. */
export async function awaitIndexing(ctx: ServiceContext, runId: string): Promise<void> {
  await ctx.db
    .update(sourceRuns)
    .set({ status: 'indexing', updatedAt: new Date() })
    .where(and(eq(sourceRuns.id, runId), eq(sourceRuns.status, 'running')));
  endSession(runId);
}

/**
 * Completes a run that waits for its documents once none is pending or indexing: an item whose
 * document failed becomes a failure with the document's reason, the counts are written and
 * source.sync.completed is recorded. Returns whether it completed.
 */
export async function settleRun(ctx: ServiceContext, runId: string): Promise<boolean> {
  return ctx.db.transaction(async (tx) => {
    // Locked so that two settlings (two documents ending at once) complete it once.
    const [run] = await tx.select().from(sourceRuns).where(eq(sourceRuns.id, runId)).for('update');
    if (!run || run.status !== 'indexing') return false;
    if ((await documentsInFlight(tx, runId)) > 0) return false;
    await tx.execute(sql`
      update ${sourceRunItems} as i
         set outcome = 'failed',
             reason = 'The document could not be indexed: ' || coalesce(d.error_message, d.error_code, 'unknown error')
        from ${kbDocuments} as d
       where i.run_id = ${runId} and i.document_id = d.id and i.outcome in ('added', 'updated', 'unchanged') and d.status = 'failed'`);
    const counts = await countOutcomes(tx, runId);
    const now = new Date();
    await tx
      .update(sourceRuns)
      .set({ status: 'completed', ...counts, completedAt: now, updatedAt: now })
      .where(eq(sourceRuns.id, runId));
    const source = await sourceOfRun(tx, run);
    if (!source) return true;
    await tx.update(sources).set({ lastRunId: run.id, lastSyncedAt: now, updatedAt: now }).where(eq(sources.id, source.id));
    await pruneRunItems(tx, source.id);
    await recordEvent(
      tx,
      'source.sync.completed',
      { source_id: source.id, kb_id: source.kbId, run_id: run.id, status: 'completed', counts: countsView(counts), limit_reached: run.limitReached },
      ctx.requestId,
    );
    return true;
  });
}

/** The runs waiting for `documentId` (at most one, since a source runs one sync at a time). */
export async function runsAwaiting(db: DbOrTx, documentId: string): Promise<string[]> {
  const rows = await db
    .select({ runId: sourceRunItems.runId })
    .from(sourceRunItems)
    .innerJoin(sourceRuns, eq(sourceRuns.id, sourceRunItems.runId))
    .where(and(eq(sourceRunItems.documentId, documentId), eq(sourceRuns.status, 'indexing')))
    // Taken with a share lock: a run moving to indexing now is seen once it has (see awaitIndexing).
    .for('share', { of: sourceRuns });
  return [...new Set(rows.map((r) => r.runId))];
}

/** Runs waiting for documents (the sweeper settles them in case an ending was missed). */
export async function runsIndexing(db: DbOrTx): Promise<string[]> {
  const rows = await db.select({ id: sourceRuns.id }).from(sourceRuns).where(eq(sourceRuns.status, 'indexing'));
  return rows.map((r) => r.id);
}
