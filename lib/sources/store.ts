import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { and, eq, sql } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { files, kbDocuments, sourceItems, sourceRunItems, type FileRow, type SourceItemRow, type SourceRow } from '@/lib/db/schema';
import { isApiError } from '@/lib/errors';
import { checkExtractable, insertExtraction } from '@/lib/extraction/service';
import { UploadInspector } from '@/lib/files/inspect';
import { insertFile } from '@/lib/files/service';
import type { FileTypeEntry } from '@/lib/files/types';
import { forgetFileRow } from '@/lib/files/row-cache';
import { newId } from '@/lib/ids';
import { retryDocument } from '@/lib/ingestion/retry';
import { documentConflict, insertDocument } from '@/lib/knowledge-bases/add-document';
import type { StagedObject } from '@/lib/storage';
import { cleanLabel } from '@/lib/text/clean';
import { notifyWorkflows } from '@/lib/workflows/dispatch';
import { ItemError, knownFields, type Fingerprint, type ItemRef } from './types';

/*
 * Storing what a sync fetched: a new item becomes a file (version 1), its extraction and a
 * knowledge-base document waiting for it; a changed item becomes the next version of the same
 * file, and its document is indexed again in place (its current chunks answer searches until
 * the new ones replace them in one transaction). Each item's outcome is written in the same
 * transaction as what it changed, so a resumed sync neither loses nor repeats an item.
 */

const EXTRACTION_OPTIONS = { ocr_provider: 'default', extract_tables: true, preserve_layout: false } as const;

export interface RunItemRef {
  runId: string;
  key: string;
}

/** Records a run item's outcome (and what it stored). */
export async function markDone(
  db: DbOrTx,
  item: RunItemRef,
  outcome: 'added' | 'updated' | 'unchanged' | 'deleted' | 'failed' | 'skipped',
  extra: { reason?: string; fileId?: string | null; documentId?: string | null; fileVersion?: number | null } = {},
): Promise<void> {
  await db
    .update(sourceRunItems)
    .set({
      outcome,
      reason: extra.reason?.slice(0, 2000) ?? null,
      fileId: extra.fileId ?? null,
      documentId: extra.documentId ?? null,
      fileVersion: extra.fileVersion ?? null,
      doneAt: new Date(),
    })
    .where(and(eq(sourceRunItems.runId, item.runId), eq(sourceRunItems.key, item.key)));
}

/**
 * The item is as stored: its fingerprint and links are brought up to date, nothing is fetched or
 * extracted. Its document is put right if it is not as the source says: one whose extraction or
 * indexing failed goes through its pipeline again, and one removed from the knowledge base is
 * added back; the run then waits for it like for a changed item (see settleRun).
 */
export async function markUnchanged(ctx: ServiceContext, kbId: string, run: RunItemRef, stored: SourceItemRow, fingerprint: Fingerprint, links: string[] | undefined) {
  const documentId = stored.fileId ? await putDocumentRight(ctx, kbId, stored.fileId) : null;
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(sourceItems)
      .set({ fingerprint: { ...stored.fingerprint, ...knownFields(fingerprint) }, links: links ?? stored.links, state: 'present', lastRunId: run.runId, seenAt: new Date() })
      .where(eq(sourceItems.id, stored.id));
    await markDone(tx, run, 'unchanged', { fileId: stored.fileId, documentId });
  });
}

/** Retries a failed document of the file, or adds the file back to the knowledge base; the document's id when it did either. */
async function putDocumentRight(ctx: ServiceContext, kbId: string, fileId: string): Promise<string | null> {
  const [document] = await ctx.db
    .select({ id: kbDocuments.id, status: kbDocuments.status })
    .from(kbDocuments)
    .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.fileId, fileId)));
  try {
    if (document?.status === 'failed') {
      await retryDocument(ctx, kbId, document.id);
      return document.id;
    }
    if (document) return null;
    const [file] = await ctx.db.select().from(files).where(eq(files.id, fileId));
    if (!file) return null;
    const added = await ctx.db.transaction((tx) => insertDocument(tx, ctx, kbId, file, { file_id: fileId }));
    notifyWorkflows();
    return added.id;
  } catch (err) {
    // The document changed meanwhile (busy, deleted, or the same content added): left as it is.
    if (isApiError(err)) return null;
    throw err;
  }
}

interface Staged {
  staged: StagedObject;
  filename: string;
  type: FileTypeEntry;
  size: number;
  sha256: string;
}

/** Streams fetched bytes into staging, deciding their type and hash as an upload's are. */
async function stageBody(ctx: ServiceContext, body: Readable, filename: string): Promise<Staged> {
  const name = cleanLabel(filename).slice(0, 255) || 'item';
  const inspector = new UploadInspector(name);
  pipeline(body, inspector).catch(() => undefined);
  let staged: StagedObject;
  try {
    staged = await ctx.storage.stage(inspector);
  } catch (err) {
    body.destroy();
    if (isApiError(err) || err instanceof ItemError) throw new ItemError(err.message, err.code);
    throw err;
  }
  return { staged, filename: name, type: inspector.type!, size: inspector.size, sha256: inspector.sha256 };
}

export interface StoreInput {
  source: SourceRow;
  run: RunItemRef;
  item: ItemRef;
  stored: SourceItemRow | undefined;
  body: Readable;
  filename: string;
  fingerprint: Fingerprint;
  links: string[];
}

/** The file a stored item is kept as, if it still exists. */
async function storedFile(db: DbOrTx, stored: SourceItemRow | undefined): Promise<FileRow | undefined> {
  if (!stored?.fileId) return undefined;
  const [row] = await db.select().from(files).where(eq(files.id, stored.fileId));
  return row;
}

/** Stores fetched content as a new file or a new version; returns the outcome written. */
export async function storeContent(ctx: ServiceContext, input: StoreInput): Promise<'added' | 'updated' | 'unchanged'> {
  const staged = await stageBody(ctx, input.body, input.filename);
  const fingerprint = { ...knownFields(input.fingerprint), sha256: staged.sha256 };
  const file = await storedFile(ctx.db, input.stored);
  if (file && file.sha256 === staged.sha256) {
    // Touched but not changed (a new ETag or time on the same bytes).
    await staged.staged.discard();
    await markUnchanged(ctx, input.source.kbId, input.run, input.stored!, fingerprint, input.links);
    return 'unchanged';
  }
  const extract = { mode: input.source.extractionMode, options: { ...EXTRACTION_OPTIONS } };
  try {
    checkExtractable({ contentType: staged.type.mime_type }, extract);
  } catch (err) {
    await staged.staged.discard();
    throw new ItemError(isApiError(err) ? err.message : String(err), isApiError(err) ? err.code : 'UNSUPPORTED_FORMAT');
  }
  return file ? storeVersion(ctx, input, staged, file, fingerprint, extract) : storeNew(ctx, input, staged, fingerprint, extract);
}

type Extract = { mode: SourceRow['extractionMode']; options: typeof EXTRACTION_OPTIONS };

/** Writes the source item row (new, or the one a deleted file left) for what was just stored. */
async function saveItem(tx: DbOrTx, input: StoreInput, itemId: string, fileId: string, fingerprint: Fingerprint): Promise<void> {
  const now = new Date();
  const values = { fileId, fingerprint, links: input.links, state: 'present' as const, lastRunId: input.run.runId, changedAt: now, seenAt: now };
  await tx
    .insert(sourceItems)
    .values({ id: itemId, sourceId: input.source.id, key: input.item.key, url: input.item.url, createdAt: now, ...values })
    .onConflictDoUpdate({ target: [sourceItems.sourceId, sourceItems.key], set: values });
}

async function storeNew(ctx: ServiceContext, input: StoreInput, staged: Staged, fingerprint: Fingerprint, extract: Extract): Promise<'added'> {
  const fileId = newId('file');
  const itemId = input.stored?.id ?? newId('sourceItem');
  await staged.staged.commit(fileId);
  try {
    await ctx.db.transaction(async (tx) => {
      const file = await insertFile(
        tx,
        ctx,
        {
          filename: staged.filename,
          type: staged.type,
          size: staged.size,
          sha256: staged.sha256,
          metadata: {},
          tags: [],
          source: { source_id: input.source.id, item_id: itemId, key: input.item.key, url: input.item.url },
          createdByKey: input.source.createdByKey,
        },
        fileId,
      );
      await saveItem(tx, input, itemId, fileId, fingerprint);
      await insertExtraction(tx, ctx, fileId, extract);
      const document = await insertDocument(tx, ctx, input.source.kbId, file, { file_id: fileId });
      await markDone(tx, input.run, 'added', { fileId, documentId: document.id, fileVersion: 1 });
    });
  } catch (err) {
    await ctx.storage.delete(fileId).catch(() => undefined);
    const mapped = await documentConflict(ctx, err, input.source.kbId, fileId);
    if (isApiError(mapped)) throw new ItemError(mapped.message, mapped.code);
    throw mapped;
  }
  notifyWorkflows();
  return 'added';
}

async function storeVersion(
  ctx: ServiceContext,
  input: StoreInput,
  staged: Staged,
  file: FileRow,
  fingerprint: Fingerprint,
  extract: Extract,
): Promise<'updated'> {
  const version = file.version + 1;
  const storageKey = `${file.id}-v${version}`;
  await staged.staged.commit(storageKey);
  forgetFileRow(file.id);
  try {
    await ctx.db.transaction(async (tx) => {
      const now = new Date();
      const [updated] = await tx
        .update(files)
        .set({ filename: staged.filename, contentType: staged.type.mime_type, extension: staged.type.extension, size: staged.size, sha256: staged.sha256, storageKey, version, updatedAt: now })
        .where(and(eq(files.id, file.id), eq(files.version, file.version)))
        .returning();
      if (!updated) throw new Error(`File ${file.id} changed while a sync stored its next version`);
      await saveItem(tx, input, input.stored!.id, file.id, fingerprint);
      const extraction = await insertExtraction(tx, ctx, file.id, extract);
      const [document] = await tx
        .select()
        .from(kbDocuments)
        .where(and(eq(kbDocuments.kbId, input.source.kbId), eq(kbDocuments.fileId, file.id)))
        .for('update');
      let documentId: string;
      if (document) {
        // Its chunks keep answering searches until indexing replaces them (see indexing.ts).
        await tx
          .update(kbDocuments)
          .set({ extractionId: extraction.id, status: 'pending', awaitingExtraction: true, errorCode: null, errorMessage: null, updatedAt: now })
          .where(eq(kbDocuments.id, document.id));
        documentId = document.id;
      } else {
        documentId = (await insertDocument(tx, ctx, input.source.kbId, updated, { file_id: file.id })).id;
      }
      await markDone(tx, input.run, 'updated', { fileId: file.id, documentId, fileVersion: version });
    });
  } catch (err) {
    await ctx.storage.delete(storageKey).catch(() => undefined);
    forgetFileRow(file.id);
    if (isApiError(err)) throw new ItemError(err.message, err.code);
    throw err;
  }
  forgetFileRow(file.id);
  notifyWorkflows();
  // Only the newest version's bytes are kept; its older extractions keep their text.
  await ctx.storage.delete(file.storageKey).catch(() => undefined);
  return 'updated';
}

/** The number of a run's items (what its page limit counts). */
export async function runItemCount(db: DbOrTx, runId: string): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(sourceRunItems).where(eq(sourceRunItems.runId, runId));
  return Number(row?.n ?? 0);
}
