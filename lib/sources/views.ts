import { and, desc, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { sourceItems, sourceRunItems, sourceRuns, type SourceRow, type SourceRunRow } from '@/lib/db/schema';
import { configSchemaOf, sourceTypeOf, type SourceTypeName } from './registry';
import { countOutcomes, type RunCounts } from './runs';
import { describeSchedule, scheduleView } from './schedule';

/** Items found and done, per run (from its work list while it runs; the stored counts once it ended). */
async function progressOf(db: DbOrTx, runIds: string[]): Promise<Map<string, { total: number; done: number }>> {
  if (runIds.length === 0) return new Map();
  const rows = await db
    .select({
      runId: sourceRunItems.runId,
      total: sql<number>`count(*)::int`,
      done: sql<number>`count(${sourceRunItems.outcome})::int`,
    })
    .from(sourceRunItems)
    .where(inArray(sourceRunItems.runId, runIds))
    .groupBy(sourceRunItems.runId);
  return new Map(rows.map((r) => [r.runId, { total: Number(r.total), done: Number(r.done) }]));
}

function storedCounts(row: SourceRunRow): RunCounts {
  return { added: row.added, updated: row.updated, unchanged: row.unchanged, deleted: row.deleted, failed: row.failed, skipped: row.skipped };
}

const ended = (row: SourceRunRow) => row.status === 'completed' || row.status === 'failed';

export async function runViews(db: DbOrTx, rows: SourceRunRow[]) {
  const progress = await progressOf(db, rows.map((r) => r.id));
  const live = new Map<string, RunCounts>();
  for (const row of rows) if (!ended(row)) live.set(row.id, await countOutcomes(db, row.id));
  return rows.map((row) => {
    const p = progress.get(row.id) ?? { total: 0, done: 0 };
    return {
      id: row.id,
      source_id: row.sourceId,
      status: row.status,
      trigger: row.trigger,
      counts: live.get(row.id) ?? storedCounts(row),
      items_total: p.total,
      items_done: p.done,
      limit_reached: row.limitReached,
      error: row.errorCode ? { code: row.errorCode, message: row.errorMessage ?? '' } : null,
      created_at: row.createdAt.toISOString(),
      started_at: row.startedAt?.toISOString() ?? null,
      completed_at: row.completedAt?.toISOString() ?? null,
    };
  });
}

export type RunView = Awaited<ReturnType<typeof runViews>>[number];

/** The run with the items that failed and why. */
export async function runDetailView(db: DbOrTx, row: SourceRunRow) {
  const [view] = await runViews(db, [row]);
  const failures = await db
    .select({ key: sourceRunItems.key, url: sourceRunItems.url, reason: sourceRunItems.reason })
    .from(sourceRunItems)
    .where(and(eq(sourceRunItems.runId, row.id), eq(sourceRunItems.outcome, 'failed')))
    .orderBy(sourceRunItems.seq)
    .limit(200);
  return { ...view, failures: failures.map((f) => ({ key: f.key, url: f.url, reason: f.reason ?? 'unknown' })) };
}

/** Sources as the API shows them, with each one's newest run and item count. */
export async function sourceViews(db: DbOrTx, rows: SourceRow[]) {
  const ids = rows.map((r) => r.id);
  const latest = ids.length
    ? await db
        .selectDistinctOn([sourceRuns.sourceId])
        .from(sourceRuns)
        .where(inArray(sourceRuns.sourceId, ids))
        .orderBy(sourceRuns.sourceId, desc(sourceRuns.createdAt), desc(sourceRuns.id))
    : [];
  const runs = new Map((await runViews(db, latest)).map((v) => [v.source_id, v]));
  const counts = ids.length
    ? await db
        .select({ sourceId: sourceItems.sourceId, n: sql<number>`count(*)::int` })
        .from(sourceItems)
        .where(and(inArray(sourceItems.sourceId, ids), eq(sourceItems.state, 'present'), isNotNull(sourceItems.fileId)))
        .groupBy(sourceItems.sourceId)
    : [];
  const itemCounts = new Map(counts.map((c) => [c.sourceId, Number(c.n)]));
  return rows.map((row) => ({
    id: row.id,
    type: row.type as SourceTypeName,
    knowledge_base_id: row.kbId,
    name: row.name,
    config: configSchemaOf(sourceTypeOf(row.type)).parse(row.config) as Record<string, unknown>,
    has_credentials: row.credentialsCiphertext !== null,
    schedule: scheduleView(row.schedule),
    schedule_description: describeSchedule(row.schedule),
    next_sync_at: row.nextSyncAt?.toISOString() ?? null,
    extraction_mode: row.extractionMode,
    chunking: row.chunking,
    enabled: row.enabled,
    item_count: itemCounts.get(row.id) ?? 0,
    last_run: runs.get(row.id) ?? null,
    last_synced_at: row.lastSyncedAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  }));
}
