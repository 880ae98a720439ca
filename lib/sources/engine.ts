import { and, asc, eq, inArray, isNull, notExists, sql } from 'drizzle-orm';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { sourceItems, sourceRunItems, sourceRuns, sources, type SourceItemRow, type SourceRow, type SourceRunItemRow } from '@/lib/db/schema';
import { isApiError } from '@/lib/errors';
import { deleteFile } from '@/lib/ingestion/delete-file';
import { BlockedAddressError } from '@/lib/webhooks/ssrf';
import { loadedSource } from './registry';
import { failRun, loadRun } from './runs';
import { sessionOf } from './session';
import { markDone, markUnchanged, runItemCount, storeContent } from './store';
import { ItemError, sameVersion, SourceError, type ItemRef, type SourceCallContext } from './types';

/*
 * The steps of a sync, each safe to run again after a crash: listing writes the run's work list
 * (inserting what is already there does nothing), each item's outcome is written with what it
 * changed, and removal takes only items this run did not find. A source that cannot be listed
 * fails the run and removes nothing; a problem with one item fails that item only.
 */

/** Items one step takes: a crash repeats at most this many fetches. */
const BATCH = 10;
const REMOVE_BATCH = 20;
const INSERT_CHUNK = 500;
/** Links followed from one page at most (a page listing a million would otherwise be the whole sync). */
export const MAX_LINKS_PER_ITEM = 5000;

type Loaded = ReturnType<typeof loadedSource> & { row: SourceRow };

async function loadSource(ctx: ServiceContext, sourceId: string): Promise<Loaded | null> {
  const [row] = await ctx.db.select().from(sources).where(eq(sources.id, sourceId));
  return row ? { row, ...loadedSource(row) } : null;
}

function callContext(runId: string): SourceCallContext {
  return { allowPrivate: getConfig().sources.allowPrivate, session: sessionOf(runId) };
}

/** Adds items to the run's work list, up to the type's limit; returns false when the limit cut some off. */
async function addItems(ctx: ServiceContext, loaded: Loaded, runId: string, items: ItemRef[]): Promise<boolean> {
  if (items.length === 0) return true;
  const max = loaded.type.maxItems?.(loaded.config) ?? Infinity;
  const room = max === Infinity ? items.length : Math.max(0, max - (await runItemCount(ctx.db, runId)));
  // Items already on the list do not take room.
  const fresh = room >= items.length ? items : await notListed(ctx, runId, items);
  const taken = fresh.slice(0, room);
  for (let i = 0; i < taken.length; i += INSERT_CHUNK) {
    await ctx.db
      .insert(sourceRunItems)
      .values(taken.slice(i, i + INSERT_CHUNK).map((item) => ({ runId, key: item.key, url: item.url, depth: item.depth ?? 0, listed: item.listed ?? null })))
      .onConflictDoNothing();
  }
  if (fresh.length > taken.length) {
    await ctx.db.update(sourceRuns).set({ limitReached: true, updatedAt: new Date() }).where(eq(sourceRuns.id, runId));
    return false;
  }
  return true;
}

async function notListed(ctx: ServiceContext, runId: string, items: ItemRef[]): Promise<ItemRef[]> {
  const unique = [...new Map(items.map((i) => [i.key, i])).values()];
  const listed = new Set<string>();
  // A statement takes at most 65,535 parameters: a page linking to more is asked about in parts.
  for (let i = 0; i < unique.length; i += INSERT_CHUNK) {
    const keys = unique.slice(i, i + INSERT_CHUNK).map((item) => item.key);
    const rows = await ctx.db
      .select({ key: sourceRunItems.key })
      .from(sourceRunItems)
      .where(and(eq(sourceRunItems.runId, runId), inArray(sourceRunItems.key, keys)));
    for (const row of rows) listed.add(row.key);
  }
  return unique.filter((i) => !listed.has(i.key));
}

/** Lists the source into the run's work list. 'failed' when the source could not be listed (the run is failed). */
export async function listRun(ctx: ServiceContext, runId: string): Promise<'listed' | 'failed' | 'gone'> {
  const run = await loadRun(ctx.db, runId);
  if (!run || run.status !== 'running') return 'gone';
  if (run.listedAt) return 'listed';
  const loaded = await loadSource(ctx, run.sourceId);
  if (!loaded) return 'gone';
  const call = callContext(runId);
  let batch: ItemRef[] = [];
  try {
    for await (const item of loaded.type.list(loaded.config, loaded.credentials, call)) {
      batch.push(item);
      if (batch.length >= INSERT_CHUNK) {
        const fits = await addItems(ctx, loaded, runId, batch);
        batch = [];
        if (!fits) break;
      }
    }
    await addItems(ctx, loaded, runId, batch);
  } catch (err) {
    if (err instanceof SourceError) {
      await failRun(ctx, runId, err.code, err.message);
      return 'failed';
    }
    throw err;
  }
  await ctx.db.update(sourceRuns).set({ listedAt: new Date(), updatedAt: new Date() }).where(eq(sourceRuns.id, runId));
  return 'listed';
}

function reasonOf(err: unknown): string | null {
  if (err instanceof ItemError || err instanceof BlockedAddressError) return err.message;
  if (isApiError(err)) return err.message;
  return null;
}

/** Does the next items of the run's work list: 'more' while some remain. */
export async function processBatch(ctx: ServiceContext, runId: string): Promise<'more' | 'done' | 'failed' | 'gone'> {
  const run = await loadRun(ctx.db, runId);
  if (!run || run.status !== 'running') return run?.status === 'failed' ? 'failed' : 'gone';
  const loaded = await loadSource(ctx, run.sourceId);
  if (!loaded) return 'gone';
  const todo = await ctx.db
    .select()
    .from(sourceRunItems)
    .where(and(eq(sourceRunItems.runId, runId), isNull(sourceRunItems.outcome)))
    .orderBy(asc(sourceRunItems.depth), asc(sourceRunItems.seq))
    .limit(BATCH);
  if (todo.length === 0) return 'done';
  const call = callContext(runId);
  for (const item of todo) {
    try {
      await processItem(ctx, loaded, item, call);
    } catch (err) {
      if (err instanceof SourceError) {
        await failRun(ctx, runId, err.code, err.message);
        return 'failed';
      }
      const reason = reasonOf(err);
      if (reason === null) throw err;
      // Another item (or an upload) already put the same bytes in the knowledge base: not a failure.
      const duplicate = err instanceof ItemError && err.code === 'DOCUMENT_EXISTS';
      await markDone(ctx.db, { runId, key: item.key }, duplicate ? 'skipped' : 'failed', {
        reason: duplicate ? `The same content as a document already in the knowledge base: ${reason}` : reason,
      });
    }
  }
  return 'more';
}

async function storedItem(ctx: ServiceContext, sourceId: string, key: string): Promise<SourceItemRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(sourceItems)
    .where(and(eq(sourceItems.sourceId, sourceId), eq(sourceItems.key, key)));
  return row;
}

async function processItem(ctx: ServiceContext, loaded: Loaded, item: SourceRunItemRow, call: SourceCallContext): Promise<void> {
  const run = { runId: item.runId, key: item.key };
  const stored = await storedItem(ctx, loaded.row.id, item.key);
  const previous = stored?.fileId ? { fingerprint: stored.fingerprint, links: stored.links } : null;
  // What the listing says settles an unchanged item without a request of its own.
  if (previous && item.listed && sameVersion(item.listed, previous.fingerprint)) {
    await markUnchanged(ctx, loaded.row.kbId, run, stored!, item.listed, undefined);
    return;
  }
  const ref: ItemRef = { key: item.key, url: item.url, depth: item.depth, listed: item.listed ?? undefined };
  const result = await loaded.type.fetch(loaded.config, loaded.credentials, ref, previous, call);
  switch (result.kind) {
    case 'unchanged': {
      if (!stored) throw new ItemError('The source answered "not modified" to a request that asked for the whole item');
      const links = result.links?.slice(0, MAX_LINKS_PER_ITEM);
      await addItems(ctx, loaded, item.runId, links ?? []);
      await markUnchanged(ctx, loaded.row.kbId, run, stored, result.fingerprint, links?.map((l) => l.key));
      return;
    }
    case 'alias': {
      await addItems(ctx, loaded, item.runId, [result.canonical]);
      await markDone(ctx.db, run, 'skipped', { reason: `The same page as ${result.canonical.url}` });
      return;
    }
    case 'skipped':
      await markDone(ctx.db, run, 'skipped', { reason: result.reason });
      return;
    case 'gone':
      if (stored && stored.state === 'present') await removeItem(ctx, loaded, item.runId, stored, 'not found at the source');
      else await markDone(ctx.db, run, 'skipped', { reason: 'Not found at the source' });
      return;
    case 'content': {
      const links = (result.links ?? []).slice(0, MAX_LINKS_PER_ITEM);
      await addItems(ctx, loaded, item.runId, links);
      await storeContent(ctx, {
        source: loaded.row,
        run,
        item: ref,
        stored,
        body: result.body,
        filename: result.filename,
        fingerprint: result.fingerprint,
        links: links.map((l) => l.key),
      });
      return;
    }
  }
}

/**
 * Takes an item out of the knowledge base: its file (with its documents and their chunks) is
 * deleted, unless config.keep_deleted keeps it.
 */
async function removeItem(ctx: ServiceContext, loaded: Loaded, runId: string, stored: SourceItemRow, why: string): Promise<void> {
  // The item's entry in the run: already there when a fetch found it gone, new when the listing did not name it.
  const record = async (tx: DbOrTx, outcome: 'skipped' | 'deleted', reason: string) => {
    const done = { outcome, reason, fileId: stored.fileId, doneAt: new Date() };
    await tx
      .insert(sourceRunItems)
      .values({ runId, key: stored.key, url: stored.url, depth: 0, ...done })
      .onConflictDoUpdate({ target: [sourceRunItems.runId, sourceRunItems.key], set: done });
  };
  if (loaded.config.keep_deleted) {
    await ctx.db.transaction(async (tx) => {
      await tx.update(sourceItems).set({ state: 'gone', lastRunId: runId }).where(eq(sourceItems.id, stored.id));
      await record(tx, 'skipped', `Gone from the source (${why}); kept because keep_deleted is set`);
    });
    return;
  }
  if (stored.fileId) {
    try {
      await deleteFile(ctx, stored.fileId);
    } catch (err) {
      if (!(isApiError(err) && err.code === 'FILE_NOT_FOUND')) throw err;
    }
  }
  await ctx.db.transaction(async (tx) => {
    await tx.delete(sourceItems).where(eq(sourceItems.id, stored.id));
    await record(tx, 'deleted', why);
  });
}

/** Removes the next items this run did not find: 'more' while some remain. Nothing when the run stopped at its limit. */
export async function removeBatch(ctx: ServiceContext, runId: string): Promise<'more' | 'done' | 'gone'> {
  const run = await loadRun(ctx.db, runId);
  if (!run || run.status !== 'running') return 'gone';
  if (run.removedAt) return 'done';
  const loaded = await loadSource(ctx, run.sourceId);
  if (!loaded) return 'gone';
  const missing = run.limitReached
    ? []
    : await ctx.db
        .select()
        .from(sourceItems)
        .where(
          and(
            eq(sourceItems.sourceId, run.sourceId),
            eq(sourceItems.state, 'present'),
            notExists(
              ctx.db
                .select({ one: sql`1` })
                .from(sourceRunItems)
                .where(and(eq(sourceRunItems.runId, runId), eq(sourceRunItems.key, sourceItems.key))),
            ),
          ),
        )
        .limit(REMOVE_BATCH);
  if (missing.length === 0) {
    await ctx.db.update(sourceRuns).set({ removedAt: new Date(), updatedAt: new Date() }).where(eq(sourceRuns.id, runId));
    return 'done';
  }
  for (const stored of missing) await removeItem(ctx, loaded, runId, stored, 'no longer in the source');
  return 'more';
}
