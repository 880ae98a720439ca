import { and, desc, eq, inArray, isNotNull, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { checkKnowledgeBaseReach, knowledgeBasesInReach } from '@/lib/auth/reach';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { encryptSecret } from '@/lib/crypto/secret-box';
import type { DbOrTx } from '@/lib/db/client';
import { paginate } from '@/lib/db/paginate';
import { files, kbDocuments, sourceItems, sourceRuns, sources, type ChunkingStrategyValue, type ExtractionMode, type SourceRow } from '@/lib/db/schema';
import { ApiError, isApiError, notFound } from '@/lib/errors';
import { forgetFileRows } from '@/lib/files/row-cache';
import { deleteFile } from '@/lib/ingestion/delete-file';
import { newId } from '@/lib/ids';
import { findKnowledgeBase } from '@/lib/knowledge-bases/service';
import { checkStrategy, withStrategyDefaults, type ChunkingStrategy } from '@/lib/knowledge-bases/types';
import { cleanLabel } from '@/lib/text/clean';
import { indexingWorkflow } from '@/lib/knowledge-bases/indexing-workflow';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { configSchemaOf, sourceTypeOf } from './registry';
import { nextSyncTime, parseSchedule, type ScheduleInput } from './schedule';
import { queueSync, requestSync } from './sync';
import { SourceError, type SourceType } from './types';
import { runDetailView, runViews, sourceViews } from './views';

/*
 * The source resource: one knowledge base kept in step with a bucket prefix, a site or a URL.
 * A key limited to knowledge bases reaches only the sources of its own (any other is 404).
 */

export interface CreateSourceInput {
  type: string;
  knowledge_base_id: string;
  name?: string;
  config: Record<string, unknown>;
  credentials?: Record<string, unknown>;
  schedule?: ScheduleInput;
  extraction_mode?: ExtractionMode;
  chunking?: Partial<ChunkingStrategy> | null;
  enabled?: boolean;
  sync?: boolean;
}

export interface UpdateSourceInput {
  name?: string;
  config?: Record<string, unknown>;
  credentials?: Record<string, unknown> | null;
  schedule?: ScheduleInput;
  extraction_mode?: ExtractionMode;
  chunking?: Partial<ChunkingStrategy> | null;
  enabled?: boolean;
}

function invalid(field: string, reason: string): ApiError {
  return new ApiError('INVALID_REQUEST', `Invalid body: ${field}: ${reason}`, { field, reason });
}

function parseWith<T>(schema: z.ZodType<T>, value: unknown, field: string): T {
  const parsed = schema.safeParse(value);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = [field, ...issue.path.map(String)].join('.');
  throw invalid(path, issue.message);
}

/** The config (defaults filled in) and credentials of a type, checked, addresses included. */
export async function checkSourceSettings(type: SourceType<any, any>, config: unknown, credentials: unknown) {
  const parsed = parseWith(configSchemaOf(type), config, 'config') as Record<string, unknown>;
  let creds: unknown = null;
  if (credentials !== undefined && credentials !== null) {
    if (!type.credentialsSchema) throw invalid('credentials', `a ${type.type} source takes no credentials`);
    creds = parseWith(type.credentialsSchema, credentials, 'credentials');
  }
  try {
    await type.validate?.(parsed, { allowPrivate: getConfig().sources.allowPrivate });
  } catch (err) {
    if (err instanceof SourceError) throw new ApiError('INVALID_REQUEST', `Invalid body: config: ${err.message}`, { field: 'config', reason: err.message });
    throw err;
  }
  return { config: parsed, credentials: creds };
}

function checkedChunking(input: Partial<ChunkingStrategy> | null | undefined): ChunkingStrategyValue | null {
  if (input === undefined || input === null) return null;
  try {
    return checkStrategy(withStrategyDefaults(input));
  } catch (err) {
    if (isApiError(err)) throw new ApiError('INVALID_REQUEST', err.message.replace('chunking_strategy', 'chunking'), { ...err.details, field: String(err.details?.field ?? '').replace('chunking_strategy', 'chunking') });
    throw err;
  }
}

/** A name for people when none is given: the bucket and prefix, the site and path, the URL. */
function defaultName(type: string, config: Record<string, unknown>): string {
  if (type === 's3') return `s3://${config.bucket}/${config.prefix ?? ''}`;
  const url = String(config.start_url ?? config.sitemap_url ?? config.url ?? type);
  try {
    const u = new URL(url);
    return `${u.host}${u.pathname}`.slice(0, 200);
  } catch {
    return url.slice(0, 200);
  }
}

/** The source `id` as the caller may see it (for a limited key, only those of its knowledge bases; else 404). */
export async function findSource(db: DbOrTx, ctx: ServiceContext, id: string, opts: { forUpdate?: boolean } = {}): Promise<SourceRow> {
  const reach = knowledgeBasesInReach(ctx.principal, sources.kbId);
  const query = db.select().from(sources).where(reach ? and(eq(sources.id, id), reach) : eq(sources.id, id)).limit(1);
  const [row] = opts.forUpdate ? await query.for('update') : await query;
  if (!row) throw notFound('SOURCE_NOT_FOUND', 'Source', id);
  return row;
}

async function sourceView(db: DbOrTx, row: SourceRow) {
  return (await sourceViews(db, [row]))[0];
}

export async function createSource(ctx: ServiceContext, input: CreateSourceInput) {
  checkKnowledgeBaseReach(ctx.principal, input.knowledge_base_id);
  await findKnowledgeBase(ctx.db, ctx.principal, input.knowledge_base_id);
  const type = sourceTypeOf(input.type);
  const { config, credentials } = await checkSourceSettings(type, input.config, input.credentials);
  const schedule = parseSchedule(input.schedule ?? null);
  const chunking = checkedChunking(input.chunking);
  const enabled = input.enabled ?? true;
  const now = new Date();
  const row = await ctx.db.transaction(async (tx) => {
    // Locked so the knowledge base cannot be deleted while its source is added.
    await findKnowledgeBase(tx, ctx.principal, input.knowledge_base_id, { forUpdate: true });
    const [created] = await tx
      .insert(sources)
      .values({
        id: newId('source'),
        kbId: input.knowledge_base_id,
        name: cleanLabel(input.name ?? '') || defaultName(type.type, config),
        type: type.type,
        config,
        credentialsCiphertext: credentials ? encryptSecret(JSON.stringify(credentials)) : null,
        schedule,
        extractionMode: input.extraction_mode ?? 'normal',
        chunking,
        enabled,
        nextSyncAt: enabled ? nextSyncTime(schedule, now) : null,
        createdByKey: ctx.principal?.keyId ?? null,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    if (input.sync ?? true) await queueSync(tx, created, 'created', ctx.principal?.keyId ?? null);
    return created;
  });
  notifyWorkflows();
  return sourceView(ctx.db, (await ctx.db.select().from(sources).where(eq(sources.id, row.id)))[0]);
}

export async function listSources(ctx: ServiceContext, input: { limit: number; offset: number; knowledge_base_id?: string }) {
  const filters: SQL[] = [];
  const reach = knowledgeBasesInReach(ctx.principal, sources.kbId);
  if (reach) filters.push(reach);
  if (input.knowledge_base_id) filters.push(eq(sources.kbId, input.knowledge_base_id));
  const page = await paginate(
    ctx.db,
    { from: sources, where: filters.length ? and(...filters) : undefined, orderBy: [desc(sources.createdAt), desc(sources.id)], limit: input.limit, offset: input.offset },
    (row) => row,
  );
  return { ...page, items: await sourceViews(ctx.db, page.items) };
}

export async function getSource(ctx: ServiceContext, id: string) {
  return sourceView(ctx.db, await findSource(ctx.db, ctx, id));
}

export async function updateSource(ctx: ServiceContext, id: string, input: UpdateSourceInput) {
  const current = await findSource(ctx.db, ctx, id);
  const type = sourceTypeOf(current.type);
  const patch: Partial<SourceRow> = { updatedAt: new Date() };
  if (input.config !== undefined || input.credentials !== undefined) {
    const { config, credentials } = await checkSourceSettings(type, input.config ?? current.config, input.credentials ?? undefined);
    patch.config = config;
    if (input.credentials === null) patch.credentialsCiphertext = null;
    else if (input.credentials !== undefined) patch.credentialsCiphertext = encryptSecret(JSON.stringify(credentials));
  }
  if (input.name !== undefined) patch.name = cleanLabel(input.name) || current.name;
  if (input.extraction_mode !== undefined) patch.extractionMode = input.extraction_mode;
  if (input.chunking !== undefined) patch.chunking = checkedChunking(input.chunking);
  if (input.enabled !== undefined) patch.enabled = input.enabled;
  if (input.schedule !== undefined) patch.schedule = parseSchedule(input.schedule);
  if (input.schedule !== undefined || input.enabled !== undefined) {
    const schedule = patch.schedule !== undefined ? patch.schedule : current.schedule;
    const enabled = patch.enabled ?? current.enabled;
    patch.nextSyncAt = enabled ? nextSyncTime(schedule, new Date()) : null;
  }
  const rechunk = patch.chunking !== undefined && JSON.stringify(patch.chunking) !== JSON.stringify(current.chunking);
  const row = await ctx.db.transaction(async (tx) => {
    const [updated] = await tx.update(sources).set(patch).where(eq(sources.id, id)).returning();
    if (!updated) throw notFound('SOURCE_NOT_FOUND', 'Source', id);
    if (rechunk) await reindexDocumentsOf(tx, updated);
    return updated;
  });
  if (rechunk) notifyWorkflows();
  return sourceView(ctx.db, row);
}

/**
 * Sends a source's indexed documents through indexing again (its chunking changed); their chunks
 * answer searches until the new ones replace them.
 */
async function reindexDocumentsOf(tx: DbOrTx, source: SourceRow): Promise<void> {
  const now = new Date();
  const docs = await tx
    .update(kbDocuments)
    .set({ status: 'pending', updatedAt: now })
    .where(
      and(
        eq(kbDocuments.kbId, source.kbId),
        eq(kbDocuments.status, 'indexed'),
        inArray(kbDocuments.fileId, tx.select({ id: sourceItems.fileId }).from(sourceItems).where(and(eq(sourceItems.sourceId, source.id), isNotNull(sourceItems.fileId)))),
      ),
    )
    .returning({ id: kbDocuments.id });
  for (const doc of docs) await enqueueWorkflow(tx, indexingWorkflow, { document_id: doc.id, kb_id: source.kbId }, now);
}

/**
 * Deletes a source with its sync history. Its documents go with it (their files, chunks and
 * events), unless `keepDocuments`: then they stay as plain files that no sync changes.
 */
export async function deleteSource(ctx: ServiceContext, id: string, keepDocuments: boolean): Promise<void> {
  const source = await findSource(ctx.db, ctx, id);
  const fileIds = (await ctx.db.select({ fileId: sourceItems.fileId }).from(sourceItems).where(eq(sourceItems.sourceId, id)))
    .map((r) => r.fileId)
    .filter((f): f is string => f !== null);
  // The source row goes first: a sync still under way finds nothing more to store.
  await ctx.db.delete(sources).where(eq(sources.id, source.id));
  if (keepDocuments) {
    for (let i = 0; i < fileIds.length; i += 500) {
      await ctx.db.update(files).set({ source: null, updatedAt: new Date() }).where(inArray(files.id, fileIds.slice(i, i + 500)));
    }
    forgetFileRows();
    return;
  }
  for (const fileId of fileIds) {
    try {
      await deleteFile({ ...ctx, principal: null }, fileId);
    } catch (err) {
      if (!(isApiError(err) && err.code === 'FILE_NOT_FOUND')) throw err;
    }
  }
}

export async function syncSource(ctx: ServiceContext, id: string) {
  const source = await findSource(ctx.db, ctx, id);
  const run = await requestSync(ctx, source, 'manual');
  return (await runViews(ctx.db, [run]))[0];
}

export async function listRuns(ctx: ServiceContext, id: string, input: { limit: number; offset: number }) {
  await findSource(ctx.db, ctx, id);
  const page = await paginate(
    ctx.db,
    { from: sourceRuns, where: eq(sourceRuns.sourceId, id), orderBy: [desc(sourceRuns.createdAt), desc(sourceRuns.id)], limit: input.limit, offset: input.offset },
    (row) => row,
  );
  return { ...page, items: await runViews(ctx.db, page.items) };
}

export async function getRun(ctx: ServiceContext, id: string, runId: string) {
  await findSource(ctx.db, ctx, id);
  const [run] = await ctx.db
    .select()
    .from(sourceRuns)
    .where(and(eq(sourceRuns.id, runId), eq(sourceRuns.sourceId, id)));
  if (!run) throw notFound('SOURCE_RUN_NOT_FOUND', 'Sync run', runId);
  return runDetailView(ctx.db, run);
}
