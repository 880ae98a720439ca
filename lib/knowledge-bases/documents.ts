import { and, asc, desc, eq, inArray, type SQL } from 'drizzle-orm';
import { notFound } from '@/lib/errors';
import type { ServiceContext } from '@/lib/context';
import type { DbOrTx } from '@/lib/db/client';
import { paginate } from '@/lib/db/paginate';
import { extractions, files, kbDocuments, kbIndexingProgress, knowledgeBases, type DocumentStatus, type KbDocumentRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { findKnowledgeBase } from './service';
import { deleteChunks } from './store';
import { toDocumentListItem, toDocumentView, type FileOrigin, type IndexingProgress } from './views';

/** The document as the API shows it, with what it waits for. */
export async function documentView(ctx: ServiceContext, row: KbDocumentRow) {
  const [waiting, writing, origins] = await Promise.all([waitingProgress(ctx.db, [row]), indexingProgress(ctx.db, [row]), fileOrigins(ctx.db, [row])]);
  return toDocumentView(row, waiting.get(row.id), writing.get(row.id), origins.get(row.fileId));
}

/** Each document's file: its version now and the source item it is kept in step with. */
async function fileOrigins(db: DbOrTx, docs: KbDocumentRow[]): Promise<Map<string, FileOrigin>> {
  if (docs.length === 0) return new Map();
  const rows = await db
    .select({ id: files.id, version: files.version, source: files.source })
    .from(files)
    .where(inArray(files.id, [...new Set(docs.map((d) => d.fileId))]));
  return new Map(rows.map((r) => [r.id, { version: r.version, source: r.source }]));
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
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  const filters: SQL[] = [eq(kbDocuments.kbId, kbId)];
  if (input.status) filters.push(eq(kbDocuments.status, input.status));
  if (input.file_id) filters.push(eq(kbDocuments.fileId, input.file_id));
  const dir = input.order === 'asc' ? asc : desc;
  const page = await paginate(
    ctx.db,
    {
      from: kbDocuments,
      where: and(...filters),
      orderBy: [dir(DOCUMENT_SORT_COLUMNS[input.sort_by]), dir(kbDocuments.id)],
      limit: input.limit,
      offset: input.offset,
    },
    (row) => row,
  );
  const [waiting, writing, origins] = await Promise.all([waitingProgress(ctx.db, page.items), indexingProgress(ctx.db, page.items), fileOrigins(ctx.db, page.items)]);
  return { ...page, items: page.items.map((row) => toDocumentListItem(row, waiting.get(row.id), writing.get(row.id), origins.get(row.fileId))) };
}

/**
 * Progress of the extraction each pending document still waits for (documents whose extraction
 * has completed are waiting for indexing, not for it, and are left out).
 */
async function waitingProgress(db: DbOrTx, docs: KbDocumentRow[]): Promise<Map<string, number>> {
  const pending = docs.filter((d) => d.status === 'pending' && d.awaitingExtraction);
  if (pending.length === 0) return new Map();
  const rows = await db
    .select({ id: extractions.id, status: extractions.status, progress: extractions.progress })
    .from(extractions)
    .where(inArray(extractions.id, [...new Set(pending.map((d) => d.extractionId))]));
  const running = new Map(rows.filter((r) => r.status === 'pending' || r.status === 'processing').map((r) => [r.id, r.progress ?? 0]));
  const out = new Map<string, number>();
  for (const doc of pending) {
    const progress = running.get(doc.extractionId);
    if (progress !== undefined) out.set(doc.id, progress);
  }
  return out;
}

/** How many chunks of each indexing document are written so far (recorded on PostgreSQL while they are written). */
async function indexingProgress(db: DbOrTx, docs: KbDocumentRow[]): Promise<Map<string, IndexingProgress>> {
  const indexing = docs.filter((d) => d.status === 'indexing').map((d) => d.id);
  if (indexing.length === 0) return new Map();
  const rows = await db.select().from(kbIndexingProgress).where(inArray(kbIndexingProgress.documentId, indexing));
  return new Map(rows.map((r) => [r.documentId, { chunks_written: r.chunksWritten, chunk_total: r.chunkTotal }]));
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
  await findKnowledgeBase(ctx.db, ctx.principal, kbId);
  return documentView(ctx, await findDocument(ctx.db, kbId, documentId));
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
    const kb = await findKnowledgeBase(tx, ctx.principal, kbId, { forUpdate: true });
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
