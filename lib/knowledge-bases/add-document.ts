import { and, asc, desc, eq } from 'drizzle-orm';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { extractions, files, kbDocuments, type ExtractionStatus, type FileRow, type KbDocumentRow } from '@/lib/db/schema';
import { ApiError, notFound } from '@/lib/errors';
import { checkFileIdShape, getFileRow } from '@/lib/files/service';
import { newId } from '@/lib/ids';
import { cleanLabel } from '@/lib/text/clean';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { indexingWorkflow } from './indexing-workflow';
import { findKnowledgeBase } from './service';
import { toDocumentView } from './views';

/*
 * Putting a file into a knowledge base, and sending a document through indexing again: which
 * extraction is indexed, documents that wait for a running one, and content already present.
 */

export const MAX_TITLE_LENGTH = 500;

export interface AddDocumentInput {
  file_id: string;
  title?: string;
  metadata?: Record<string, unknown>;
  /** A completed extraction of the file to index instead of its latest completed one. */
  extraction_id?: string;
}

/**
 * Starts an extraction of `fileId` inside the transaction that adds the document (a caller that
 * may create extractions passes it): the document then waits for it.
 */
export type ExtractionStarter = (tx: DbOrTx, fileId: string) => Promise<string>;

type ExtractionChoice = { id: string; status: ExtractionStatus; metadata: Record<string, unknown> | null };

/**
 * Which extraction a new document is indexed from, read under a share lock on the file's
 * extractions so that none of them can end between this choice and the commit (an extraction
 * that completes meanwhile waits for the document to exist, then releases it).
 * - `extraction_id` given: that one, which must belong to the file and have completed.
 * - else the latest completed one, even while a newer one still runs;
 * - else the latest pending or processing one: the document waits for it;
 * - else a new one from `startExtraction`, when the caller asked for it; otherwise 409.
 */
async function chooseExtraction(
  tx: DbOrTx,
  fileId: string,
  pinned: string | undefined,
  startExtraction: ExtractionStarter | undefined,
): Promise<ExtractionChoice> {
  const rows = await tx
    .select({ id: extractions.id, fileId: extractions.fileId, status: extractions.status, metadata: extractions.metadata })
    .from(extractions)
    .where(pinned ? eq(extractions.id, pinned) : eq(extractions.fileId, fileId))
    .orderBy(desc(extractions.createdAt), desc(extractions.id))
    .for('share');
  if (pinned) {
    const [row] = rows;
    if (!row || row.fileId !== fileId) {
      throw new ApiError('INVALID_REQUEST', `Extraction ${pinned} is not an extraction of file ${fileId}`, {
        field: 'extraction_id',
        reason: 'not an extraction of this file',
      });
    }
    if (row.status !== 'completed') {
      throw new ApiError('EXTRACTION_NOT_COMPLETED', `Extraction ${pinned} is ${row.status}; only a completed extraction can be indexed`, {
        file_id: fileId,
        extraction_id: pinned,
        extraction_status: row.status,
      });
    }
    return row;
  }
  const completed = rows.find((r) => r.status === 'completed');
  if (completed) return completed;
  const running = rows.find((r) => r.status === 'pending' || r.status === 'processing');
  if (running) return running;
  if (startExtraction) return { id: await startExtraction(tx, fileId), status: 'pending', metadata: null };
  const [newest] = rows;
  throw new ApiError(
    'EXTRACTION_NOT_COMPLETED',
    newest
      ? `File ${fileId} has no completed extraction (the latest, ${newest.id}, is ${newest.status}); extract it again, or send "extract" to start one`
      : `File ${fileId} has not been extracted; send "extract" to start one now, or create one with POST /v1/extractions first`,
    { file_id: fileId, extraction_id: newest?.id ?? null, extraction_status: newest?.status ?? null },
  );
}

/** A document of the knowledge base whose file has the same content (SHA-256) as `file`, if any. */
async function sameContentDocument(tx: DbOrTx, kbId: string, file: FileRow): Promise<string | undefined> {
  const [row] = await tx
    .select({ id: kbDocuments.id })
    .from(kbDocuments)
    .innerJoin(files, eq(files.id, kbDocuments.fileId))
    .where(and(eq(kbDocuments.kbId, kbId), eq(files.sha256, file.sha256)))
    .limit(1);
  return row?.id;
}

function documentExists(fileId: string, kbId: string, documentId: string | null): ApiError {
  return new ApiError('DOCUMENT_EXISTS', `File ${fileId} (or a file with the same content) is already in knowledge base ${kbId}`, {
    file_id: fileId,
    document_id: documentId,
  });
}

/**
 * Inserts a pending document inside the caller's transaction (see addDocument), locking the
 * knowledge base; the caller calls notifyWorkflows() after the commit and maps constraint errors
 * with documentConflict().
 */
export async function insertDocument(
  tx: DbOrTx,
  ctx: ServiceContext,
  kbId: string,
  file: FileRow,
  input: AddDocumentInput,
  startExtraction?: ExtractionStarter,
): Promise<KbDocumentRow> {
  // The knowledge base may have been deleted since it was looked up: lock it while adding.
  await findKnowledgeBase(tx, ctx.principal, kbId, { forUpdate: true });
  const existing = await sameContentDocument(tx, kbId, file);
  if (existing) throw documentExists(file.id, kbId, existing);
  const chosen = await chooseExtraction(tx, file.id, input.extraction_id, startExtraction);
  const extractedTitle = typeof chosen.metadata?.title === 'string' ? chosen.metadata.title : '';
  // Titles from documents carry whatever their authors typed, control characters included.
  const given = cleanLabel(input.title ?? '') || cleanLabel(extractedTitle);
  const title = (given || cleanLabel(file.filename)).slice(0, MAX_TITLE_LENGTH);
  const now = new Date();
  const [created] = await tx
    .insert(kbDocuments)
    .values({
      id: newId('document'),
      kbId,
      fileId: file.id,
      extractionId: chosen.id,
      title,
      status: 'pending',
      awaitingExtraction: chosen.status !== 'completed',
      titleFromFilename: !given && chosen.status !== 'completed',
      metadata: input.metadata ?? {},
      createdByKey: ctx.principal?.keyId ?? null,
      createdAt: now,
      updatedAt: now,
    })
    .returning();
  if (chosen.status === 'completed') await enqueueWorkflow(tx, indexingWorkflow, { document_id: created.id, kb_id: kbId }, now);
  return created;
}

/** The API error for a constraint that failed while adding `fileId` (deleted file, document added meanwhile), or `err`. */
export async function documentConflict(ctx: ServiceContext, err: unknown, kbId: string, fileId: string): Promise<unknown> {
  // The file was deleted at the same moment.
  if (isForeignKeyViolation(err)) return notFound('FILE_NOT_FOUND', 'File', fileId);
  if (isUniqueViolation(err)) {
    const [existing] = await ctx.db
      .select({ id: kbDocuments.id })
      .from(kbDocuments)
      .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.fileId, fileId)));
    return documentExists(fileId, kbId, existing?.id ?? null);
  }
  return err;
}

/** The answer to adding a document: it is pending, indexed from (or waiting for) `extraction_id`. */
export function createdDocumentView(row: KbDocumentRow) {
  const { kb_id, file_id, id, title, metadata, created_at } = toDocumentView(row);
  return { id, kb_id, file_id, extraction_id: row.extractionId, title, status: 'pending' as const, metadata, created_at };
}

/**
 * Adds a file to a knowledge base as a pending document. With a completed extraction its
 * indexing starts now; with one still running the document waits and is indexed when it
 * completes (or fails with EXTRACTION_FAILED when it does not; see waiting-workflow.ts).
 * Content already in the knowledge base (the same SHA-256, whatever the file) is 409 DOCUMENT_EXISTS.
 */
export async function addDocument(ctx: ServiceContext, kbId: string, input: AddDocumentInput, startExtraction?: ExtractionStarter) {
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  checkFileIdShape(input.file_id);
  const file = await getFileRow(ctx, input.file_id);
  let row: KbDocumentRow;
  try {
    row = await ctx.db.transaction((tx) => insertDocument(tx, ctx, kbId, file, input, startExtraction));
  } catch (err) {
    throw await documentConflict(ctx, err, kbId, file.id);
  }
  notifyWorkflows();
  return createdDocumentView(row);
}

/**
 * Sends a document through indexing again (retry of a failed one, or re-indexing from another
 * extraction): the extraction is chosen as when adding it, the document becomes pending, and its
 * current chunks keep answering searches until the new ones replace them.
 */
export async function requeueDocument(
  ctx: ServiceContext,
  kbId: string,
  documentId: string,
  opts: { onlyFailed: boolean; extractionId?: string },
  startExtraction?: ExtractionStarter,
): Promise<KbDocumentRow> {
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  const row = await ctx.db.transaction(async (tx) => {
    const [doc] = await tx
      .select()
      .from(kbDocuments)
      .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.kbId, kbId)))
      .for('update');
    if (!doc) throw notFound('DOCUMENT_NOT_FOUND', 'Document', documentId);
    if (opts.onlyFailed && doc.status !== 'failed') {
      throw new ApiError('DOCUMENT_NOT_FAILED', `Document ${documentId} is ${doc.status}; only a failed document can be retried`, { status: doc.status });
    }
    if (doc.status === 'pending' || doc.status === 'indexing') {
      throw new ApiError('DOCUMENT_BUSY', `Document ${documentId} is ${doc.status} already`, { status: doc.status });
    }
    const chosen = await chooseExtraction(tx, doc.fileId, opts.extractionId, startExtraction);
    const now = new Date();
    const [updated] = await tx
      .update(kbDocuments)
      .set({ extractionId: chosen.id, status: 'pending', awaitingExtraction: chosen.status !== 'completed', errorCode: null, errorMessage: null, updatedAt: now })
      .where(eq(kbDocuments.id, documentId))
      .returning();
    if (chosen.status === 'completed') await enqueueWorkflow(tx, indexingWorkflow, { document_id: documentId, kb_id: kbId }, now);
    return updated;
  });
  notifyWorkflows();
  return row;
}

/** The failed documents of a knowledge base, oldest first (at most `limit`). */
export async function failedDocuments(ctx: ServiceContext, kbId: string, limit: number): Promise<KbDocumentRow[]> {
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  return ctx.db
    .select()
    .from(kbDocuments)
    .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.status, 'failed')))
    .orderBy(asc(kbDocuments.createdAt), asc(kbDocuments.id))
    .limit(limit);
}
