import { and, arrayContains, asc, desc, eq, ilike, inArray, sql, type SQL } from 'drizzle-orm';
import { filesInReach, refuseLimitedKey } from '@/lib/auth/reach';
import { ApiError, notFound } from '@/lib/errors';
import type { ServiceContext } from '@/lib/context';
import { soleUser, type DbOrTx } from '@/lib/db/client';
import { paginate, type Page } from '@/lib/db/paginate';
import { extractions, files, type ExtractionMode, type ExtractionStatus, type FileRow, type FileSourceValue } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { newId } from '@/lib/ids';
import type { Readable } from 'node:stream';
import { StorageNotFoundError, type ByteRange } from '@/lib/storage';
import { requestedRange } from './range';
import { cachedFileRow, fileRowGeneration, rememberFileRow } from './row-cache';
import type { ReceivedUpload } from './upload';
import { parseTagsField } from './upload';

export interface FileView {
  id: string;
  filename: string;
  content_type: string;
  size: number;
  sha256: string;
  metadata: Record<string, unknown>;
  tags: string[];
  /** 1 for an upload; each change a source syncs makes the next version. */
  version: number;
  /** The source item the file is kept in step with, or null for an upload. */
  source_item: { id: string; source_id: string; key: string; url: string } | null;
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
    sha256: row.sha256,
    metadata: row.metadata,
    tags: row.tags,
    version: row.version,
    source_item: row.source ? { id: row.source.item_id, source_id: row.source.source_id, key: row.source.key, url: row.source.url } : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

function toListItem(row: FileRow): FileListItem {
  const { metadata: _m, updated_at: _u, ...item } = toFileView(row);
  return item;
}

/** What a new file row is made of: an upload's parts, or an item a source fetched (with where it came from). */
export type NewFile = Pick<ReceivedUpload, 'filename' | 'type' | 'size' | 'sha256' | 'metadata' | 'tags'> & {
  source?: FileSourceValue;
  /** Who stored it, when not the caller (a source's creator, for files its syncs store). */
  createdByKey?: string | null;
};

/** Records a file (already committed to storage under `id`) and its file.uploaded event, in the caller's transaction. */
export async function insertFile(tx: DbOrTx, ctx: ServiceContext, upload: NewFile, id: string): Promise<FileRow> {
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
      version: 1,
      source: upload.source ?? null,
      createdByKey: upload.createdByKey !== undefined ? upload.createdByKey : (ctx.principal?.keyId ?? null),
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
      ...(upload.source ? { source_id: upload.source.source_id } : {}),
    },
    ctx.requestId,
  );
  return inserted;
}

/** The oldest stored file with this content the caller can reach, if any (uploads with dedupe=true return it). */
export async function findFileBySha256(ctx: ServiceContext, sha256: string): Promise<FileRow | undefined> {
  const [row] = await ctx.db
    .select()
    .from(files)
    .where(and(eq(files.sha256, sha256), filesInReach(ctx.principal, files.id)))
    .orderBy(asc(files.createdAt), asc(files.id))
    .limit(1);
  return row;
}

export async function createFile(ctx: ServiceContext, upload: ReceivedUpload): Promise<FileView> {
  try {
    refuseLimitedKey(ctx.principal, 'store a file outside its knowledge bases');
  } catch (err) {
    await upload.staged.discard();
    throw err;
  }
  const id = newId('file');
  await upload.staged.commit(id);
  try {
    const row = await ctx.db.transaction((tx) => insertFile(tx, ctx, upload, id));
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
  /** Part of the filename, any case. */
  q?: string;
}

export async function listFiles(ctx: ServiceContext, input: ListFilesInput): Promise<Page<FileListItem & { latest_extraction: LatestExtraction | null }>> {
  const filters: SQL[] = [];
  const reach = filesInReach(ctx.principal, files.id);
  if (reach) filters.push(reach);
  const tags = parseTagsField(input.tags);
  if (tags.length > 0) filters.push(arrayContains(files.tags, tags));
  if (input.content_type) filters.push(eq(files.contentType, input.content_type.trim().toLowerCase()));
  // LIKE's own wildcards in the text match themselves.
  if (input.q) filters.push(ilike(files.filename, `%${input.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`));
  const dir = input.order === 'asc' ? asc : desc;
  const page = await paginate(
    ctx.db,
    {
      from: files,
      where: filters.length > 0 ? and(...filters) : undefined,
      orderBy: [dir(FILE_SORT_COLUMNS[input.sort_by]), dir(files.id)],
      limit: input.limit,
      offset: input.offset,
    },
    toListItem,
  );
  const latest = await latestExtractions(ctx, page.items.map((f) => f.id));
  return { ...page, items: page.items.map((item) => ({ ...item, latest_extraction: latest.get(item.id) ?? null })) };
}

export interface LatestExtraction {
  id: string;
  status: ExtractionStatus;
  mode: ExtractionMode;
  progress: number;
}

/** The newest extraction of each of these files (for the list's "text" column). */
async function latestExtractions(ctx: ServiceContext, fileIds: string[]): Promise<Map<string, LatestExtraction>> {
  if (fileIds.length === 0) return new Map();
  const rows = await ctx.db
    .selectDistinctOn([extractions.fileId], {
      fileId: extractions.fileId,
      id: extractions.id,
      status: extractions.status,
      mode: extractions.mode,
      progress: extractions.progress,
    })
    .from(extractions)
    .where(inArray(extractions.fileId, fileIds))
    .orderBy(extractions.fileId, desc(extractions.createdAt), desc(extractions.id));
  return new Map(rows.map(({ fileId, ...rest }) => [fileId, rest]));
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

/**
 * The file `id` as the caller may see it: every request path reads files through here, so a file
 * that is no document of a limited key's knowledge bases answers 404 as if it did not exist. With
 * the embedded database the rows of files read by id are kept in memory (row-cache.ts); the row is
 * frozen then.
 */
export async function getFileRow(ctx: ServiceContext, id: string): Promise<FileRow> {
  const reach = filesInReach(ctx.principal, files.id);
  if (reach) {
    const [row] = await ctx.db.select().from(files).where(and(eq(files.id, id), reach)).limit(1);
    if (!row) throw notFound('FILE_NOT_FOUND', 'File', id);
    return row;
  }
  const keep = soleUser(ctx.db);
  const cached = keep ? cachedFileRow(id) : undefined;
  if (cached) return cached;
  const generation = fileRowGeneration();
  const [row] = await fileById(ctx.db).execute({ id });
  if (!row) throw notFound('FILE_NOT_FOUND', 'File', id);
  if (keep) rememberFileRow(row, generation);
  return row;
}

function prepareFileById(db: DbOrTx) {
  return db.select().from(files).where(eq(files.id, sql.placeholder('id'))).limit(1).prepare('file_by_id');
}

const preparedFileById = new WeakMap<DbOrTx, ReturnType<typeof prepareFileById>>();

/** The most frequent read of the API, built once per database handle instead of on every request. */
function fileById(db: DbOrTx): ReturnType<typeof prepareFileById> {
  let query = preparedFileById.get(db);
  if (!query) {
    query = prepareFileById(db);
    preparedFileById.set(db, query);
  }
  return query;
}

export async function getFile(ctx: ServiceContext, id: string): Promise<FileView> {
  return toFileView(await getFileRow(ctx, id));
}

export interface FileDownload {
  file: FileView;
  stream: Readable;
  /** The whole file's size. */
  size: number;
  /** The part sent (206) when the request asked for a range. */
  range: ByteRange | null;
  /** Strong entity tag: the content's SHA-256, so a resumed download can prove it is the same file. */
  etag: string;
}

/** Opens a file's bytes, or the byte range `rangeHeader` asks for (honouring If-Range). */
export async function openFileDownload(
  ctx: ServiceContext,
  id: string,
  request: { range?: string | null; ifRange?: string | null } = {},
): Promise<FileDownload> {
  const row = await getFileRow(ctx, id);
  const etag = `"${row.sha256}"`;
  const range = requestedRange(request.range ?? null, row.size, request.ifRange ?? null, etag);
  try {
    const { stream, size } = await ctx.storage.read(row.storageKey, range ?? undefined);
    return { file: toFileView(row), stream, size, range, etag };
  } catch (err) {
    if (err instanceof StorageNotFoundError) throw notFound('FILE_NOT_FOUND', 'File content of', id);
    throw err;
  }
}

