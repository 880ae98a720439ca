import { and, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/api/errors';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { isForeignKeyViolation, isUniqueViolation } from '@/lib/db/errors';
import { extractions, kbDocuments, knowledgeBases, type KbDocumentRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { checkFileIdShape, getFileRow } from '@/lib/files/service';
import { newId } from '@/lib/ids';
import { cleanLabel } from '@/lib/text/clean';
import { enqueueWorkflow, notifyWorkflows } from '@/lib/workflows/dispatch';
import { indexingWorkflow } from '@/lib/workflows/indexing';
import { findKnowledgeBase } from './service';
import { deleteChunks } from './store';
import type { DocumentStatus } from './types';
import { toDocumentListItem, toDocumentView } from './views';

const MAX_TITLE_LENGTH = 500;

export interface AddDocumentInput {
  file_id: string;
  title?: string;
  metadata?: Record<string, unknown>;
}

/**
 * Adds a file to a knowledge base as a pending document and starts its indexing. The Markdown of
 * the file's latest completed extraction is what gets indexed.
 */
export async function addDocument(ctx: ServiceContext, kbId: string, input: AddDocumentInput) {
  await findKnowledgeBase(ctx.db, kbId);
  checkFileIdShape(input.file_id);
  const file = await getFileRow(ctx, input.file_id);
  // The latest completed extraction is indexed, even while a newer one (say `advanced` after
  // `normal`) is still running; only a file with no completed extraction is refused.
  const [latest] = await ctx.db
    .select()
    .from(extractions)
    .where(and(eq(extractions.fileId, file.id), eq(extractions.status, 'completed')))
    .orderBy(desc(extractions.createdAt), desc(extractions.id))
    .limit(1);
  if (!latest) {
    const [newest] = await ctx.db
      .select({ id: extractions.id, status: extractions.status })
      .from(extractions)
      .where(eq(extractions.fileId, file.id))
      .orderBy(desc(extractions.createdAt), desc(extractions.id))
      .limit(1);
    throw new ApiError(
      'EXTRACTION_NOT_COMPLETED',
      newest
        ? `File ${file.id} has no completed extraction yet (the latest, ${newest.id}, is ${newest.status}); a document can be added once one has completed`
        : `File ${file.id} has not been extracted; create an extraction (POST /v1/extractions) and add the file once it has completed`,
      { file_id: file.id, extraction_id: newest?.id ?? null, extraction_status: newest?.status ?? null },
    );
  }
  const extractedTitle = typeof latest.metadata?.title === 'string' ? latest.metadata.title : '';
  // Titles from documents carry whatever their authors typed, control characters included.
  const title = (cleanLabel(input.title ?? '') || cleanLabel(extractedTitle) || cleanLabel(file.filename)).slice(0, MAX_TITLE_LENGTH);
  let row: KbDocumentRow;
  try {
    row = await ctx.db.transaction(async (tx) => {
      // The knowledge base may have been deleted since the check above: lock it while adding.
      await findKnowledgeBase(tx, kbId, { forUpdate: true });
      const now = new Date();
      const [created] = await tx
        .insert(kbDocuments)
        .values({
          id: newId('document'),
          kbId,
          fileId: file.id,
          extractionId: latest.id,
          title,
          status: 'pending',
          metadata: input.metadata ?? {},
          createdByKey: ctx.principal?.keyId ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await enqueueWorkflow(tx, indexingWorkflow, { document_id: created.id }, now);
      return created;
    });
  } catch (err) {
    // The file was deleted at the same moment.
    if (isForeignKeyViolation(err)) throw notFound('FILE_NOT_FOUND', 'File', file.id);
    if (isUniqueViolation(err)) {
      const [existing] = await ctx.db
        .select({ id: kbDocuments.id })
        .from(kbDocuments)
        .where(and(eq(kbDocuments.kbId, kbId), eq(kbDocuments.fileId, file.id)));
      throw new ApiError('DOCUMENT_EXISTS', `File ${file.id} is already in knowledge base ${kbId}`, {
        file_id: file.id,
        document_id: existing?.id ?? null,
      });
    }
    throw err;
  }
  notifyWorkflows();
  const { kb_id, file_id, id, title: t, status, metadata, created_at } = toDocumentView(row);
  return { id, kb_id, file_id, title: t, status, metadata, created_at };
}

export const DOCUMENT_SORT_COLUMNS = {
  created_at: kbDocuments.createdAt,
  title: kbDocuments.title,
  status: kbDocuments.status,
  chunk_count: kbDocuments.chunkCount,
} as const;

export interface ListDocumentsInput {
  limit: number;
  offset: number;
  sort_by: keyof typeof DOCUMENT_SORT_COLUMNS;
  order: 'asc' | 'desc';
  status?: DocumentStatus;
  file_id?: string;
}

export async function listDocuments(ctx: ServiceContext, kbId: string, input: ListDocumentsInput) {
  await findKnowledgeBase(ctx.db, kbId);
  const filters: SQL[] = [eq(kbDocuments.kbId, kbId)];
  if (input.status) filters.push(eq(kbDocuments.status, input.status));
  if (input.file_id) filters.push(eq(kbDocuments.fileId, input.file_id));
  const where = and(...filters);
  const dir = input.order === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(kbDocuments)
      .where(where)
      .orderBy(dir(DOCUMENT_SORT_COLUMNS[input.sort_by]), dir(kbDocuments.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db.select({ total: count() }).from(kbDocuments).where(where),
  ]);
  return { items: rows.map(toDocumentListItem), total: Number(total), limit: input.limit, offset: input.offset };
}

async function findDocument(db: DbOrTx, kbId: string, documentId: string): Promise<KbDocumentRow> {
  const [row] = await db
    .select()
    .from(kbDocuments)
    .where(and(eq(kbDocuments.id, documentId), eq(kbDocuments.kbId, kbId)))
    .limit(1);
  if (!row) throw notFound('DOCUMENT_NOT_FOUND', `Document`, documentId);
  return row;
}

export async function getDocument(ctx: ServiceContext, kbId: string, documentId: string) {
  await findKnowledgeBase(ctx.db, kbId);
  return toDocumentView(await findDocument(ctx.db, kbId, documentId));
}

/**
 * Removes a document with its chunks (every generation) and their share of the BM25 statistics,
 * and records document.deleted. The caller's transaction must hold the knowledge base's row lock.
 */
async function removeDocument(tx: DbOrTx, doc: KbDocumentRow, generations: number[], requestId: string | null, reason: string) {
  for (const generation of generations) await deleteChunks(tx, { kbId: doc.kbId, documentId: doc.id, generation });
  await tx.delete(kbDocuments).where(eq(kbDocuments.id, doc.id));
  await recordEvent(
    tx,
    'document.deleted',
    { document_id: doc.id, kb_id: doc.kbId, file_id: doc.fileId, chunk_count: doc.chunkCount, reason },
    requestId,
  );
}

function generationsOf(kb: { generation: number; pendingGeneration: number | null }): number[] {
  return kb.pendingGeneration === null ? [kb.generation] : [kb.generation, kb.pendingGeneration];
}

export async function deleteDocument(ctx: ServiceContext, kbId: string, documentId: string): Promise<void> {
  await ctx.db.transaction(async (tx) => {
    const kb = await findKnowledgeBase(tx, kbId, { forUpdate: true });
    const doc = await findDocument(tx, kbId, documentId);
    await removeDocument(tx, doc, generationsOf(kb), ctx.requestId, 'deleted');
  });
}

/** Takes a file out of every knowledge base holding it (inside the file's deletion transaction). */
export async function removeDocumentsOfFile(tx: DbOrTx, fileId: string, requestId: string | null): Promise<number> {
  const docs = await tx.select().from(kbDocuments).where(eq(kbDocuments.fileId, fileId)).orderBy(asc(kbDocuments.kbId));
  for (const doc of docs) {
    // Knowledge bases are locked in id order, as every path that locks several does.
    const [kb] = await tx.select().from(knowledgeBases).where(eq(knowledgeBases.id, doc.kbId)).for('update');
    if (kb) await removeDocument(tx, doc, generationsOf(kb), requestId, 'file_deleted');
  }
  return docs.length;
}
