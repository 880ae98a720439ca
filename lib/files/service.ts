import { and, arrayContains, asc, count, desc, eq, type SQL } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/api/errors';
import type { ServiceContext } from '@/lib/context';
import { files, type FileRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { newId } from '@/lib/ids';
import { removeDocumentsOfFile } from '@/lib/knowledge-bases/documents';
import type { Readable } from 'node:stream';
import { StorageNotFoundError } from '@/lib/storage';
import type { ReceivedUpload } from './upload';
import { parseTagsField } from './upload';

export interface FileView {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  metadata: Record<string, unknown>;
  tags: string[];
  created_at: string;
  updated_at: string;
}

export type FileListItem = Omit<FileView, 'metadata' | 'updated_at'>;

export function toFileView(row: FileRow): FileView {
  return {
    id: row.id,
    filename: row.filename,
    content_type: row.contentType,
    size: row.size,
    metadata: row.metadata,
    tags: row.tags,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toListItem(row: FileRow): FileListItem {
  const { metadata: _m, updated_at: _u, ...item } = toFileView(row);
  return item;
}

/** Commits a received upload: bytes become visible, the row and its file.uploaded event are written together. */
export async function createFile(ctx: ServiceContext, upload: ReceivedUpload): Promise<FileView> {
  const id = newId('file');
  await upload.staged.commit(id);
  try {
    const row = await ctx.db.transaction(async (tx) => {
      const now = new Date();
      const [inserted] = await tx
        .insert(files)
        .values({
          id,
          filename: upload.filename,
          contentType: upload.type.mime_type,
          extension: upload.type.extension,
          size: upload.size,
          sha256: upload.sha256,
          storageKey: id,
          metadata: upload.metadata,
          tags: upload.tags,
          createdByKey: ctx.principal?.keyId ?? null,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
      await recordEvent(
        tx,
        'file.uploaded',
        {
          file_id: id,
          filename: inserted.filename,
          content_type: inserted.contentType,
          size: inserted.size,
          tags: inserted.tags,
        },
        ctx.requestId,
      );
      return inserted;
    });
    return toFileView(row);
  } catch (err) {
    await ctx.storage.delete(id);
    throw err;
  }
}

export const FILE_SORT_COLUMNS = { created_at: files.createdAt, filename: files.filename, size: files.size } as const;

export interface ListFilesInput {
  limit: number;
  offset: number;
  sort_by: keyof typeof FILE_SORT_COLUMNS;
  order: 'asc' | 'desc';
  tags?: string;
  content_type?: string;
}

export async function listFiles(ctx: ServiceContext, input: ListFilesInput): Promise<{ items: FileListItem[]; total: number }> {
  const filters: SQL[] = [];
  const tags = parseTagsField(input.tags);
  if (tags.length > 0) filters.push(arrayContains(files.tags, tags));
  if (input.content_type) filters.push(eq(files.contentType, input.content_type.trim().toLowerCase()));
  const where = filters.length > 0 ? and(...filters) : undefined;
  const dir = input.order === 'asc' ? asc : desc;
  const [rows, [{ total }]] = await Promise.all([
    ctx.db
      .select()
      .from(files)
      .where(where)
      .orderBy(dir(FILE_SORT_COLUMNS[input.sort_by]), dir(files.id))
      .limit(input.limit)
      .offset(input.offset),
    ctx.db.select({ total: count() }).from(files).where(where),
  ]);
  return { items: rows.map(toListItem), total };
}

/** `file_` followed by letters and digits: anything else cannot name a file. */
const FILE_ID_SHAPE = /^file_[A-Za-z0-9]{1,64}$/;

/** Refuses a value that cannot be a file id with 400 INVALID_FILE_ID (request bodies naming a file). */
export function checkFileIdShape(value: string): void {
  if (!FILE_ID_SHAPE.test(value)) {
    throw new ApiError('INVALID_FILE_ID', `"${value.slice(0, 100)}" is not a file id (file ids look like file_01j…)`, {
      field: 'file_id',
      reason: 'not a file id',
    });
  }
}

export async function getFileRow(ctx: ServiceContext, id: string): Promise<FileRow> {
  const [row] = await ctx.db.select().from(files).where(eq(files.id, id)).limit(1);
  if (!row) throw notFound('FILE_NOT_FOUND', 'File', id);
  return row;
}

export async function getFile(ctx: ServiceContext, id: string): Promise<FileView> {
  return toFileView(await getFileRow(ctx, id));
}

export interface FileDownload {
  file: FileView;
  stream: Readable;
  size: number;
}

export async function openFileDownload(ctx: ServiceContext, id: string): Promise<FileDownload> {
  const row = await getFileRow(ctx, id);
  try {
    const { stream, size } = await ctx.storage.read(row.storageKey);
    return { file: toFileView(row), stream, size };
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw notFound('FILE_NOT_FOUND', 'File content of', id);
    throw err;
  }
}

/**
 * Deletes a file and then its bytes. Rows derived from a file (extractions, knowledge-base
 * documents and their chunks) reference it with ON DELETE CASCADE, so they go in the same transaction.
 */
export async function deleteFile(ctx: ServiceContext, id: string): Promise<void> {
  const row = await ctx.db.transaction(async (tx) => {
    const [existing] = await tx.select({ id: files.id }).from(files).where(eq(files.id, id));
    if (!existing) throw notFound('FILE_NOT_FOUND', 'File', id);
    // Knowledge-base documents go first, with their chunks, statistics and document.deleted events.
    await removeDocumentsOfFile(tx, id, ctx.requestId);
    const [deleted] = await tx.delete(files).where(eq(files.id, id)).returning();
    if (!deleted) throw notFound('FILE_NOT_FOUND', 'File', id);
    await recordEvent(tx, 'file.deleted', { file_id: id, filename: deleted.filename }, ctx.requestId);
    return deleted;
  });
  await ctx.storage.delete(row.storageKey);
}
