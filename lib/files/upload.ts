import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import busboy from 'busboy';
import { ApiError, isApiError } from '@/lib/errors';
import type { StagedObject, Storage } from '@/lib/storage';
import { cleanLabel, findUnsafeValue, unstorableTextReason } from '@/lib/text/clean';
import { UploadInspector } from './inspect';
import { MAX_METADATA_BYTES, MAX_UPLOAD_BYTES, type FileTypeEntry } from './types';

export const MAX_FILENAME_LENGTH = 255;
export const MAX_TAGS = 50;
export const MAX_TAG_LENGTH = 100;
/** After an error, at most this much of the remaining body is read and discarded so the client still gets the answer. */
const DRAIN_LIMIT = MAX_UPLOAD_BYTES + 16 * 1024 * 1024;

export interface ReceivedUpload {
  staged: StagedObject;
  filename: string;
  type: FileTypeEntry;
  size: number;
  sha256: string;
  metadata: Record<string, unknown>;
  tags: string[];
  /** The optional parts beyond the contract's (extract, knowledge_base_id, …), as sent. */
  extras: Record<string, string>;
}

/** Text parts an upload may carry besides metadata and tags; what they do is up to the caller. */
export const EXTRA_UPLOAD_PARTS = ['extract', 'knowledge_base_id', 'document_title', 'document_metadata', 'dedupe'] as const;

export function parseMetadataField(value: string | undefined): Record<string, unknown> {
  if (value === undefined || value.trim() === '') return {};
  if (Buffer.byteLength(value) > MAX_METADATA_BYTES) {
    throw new ApiError('INVALID_REQUEST', `metadata must be at most ${MAX_METADATA_BYTES / 1024} KB`, {
      field: 'metadata',
      reason: 'too large',
    });
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(value);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'metadata must be a JSON object', { field: 'metadata', reason: 'not valid JSON' });
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw new ApiError('INVALID_REQUEST', 'metadata must be a JSON object', { field: 'metadata', reason: 'not an object' });
  }
  const unsafe = findUnsafeValue(parsed, 'metadata');
  if (unsafe) throw new ApiError('INVALID_REQUEST', `Invalid metadata: ${unsafe.field}: ${unsafe.reason}`, { ...unsafe });
  return parsed as Record<string, unknown>;
}

export function parseTagsField(value: string | undefined): string[] {
  if (value === undefined) return [];
  const unstorable = unstorableTextReason(value);
  if (unstorable) throw new ApiError('INVALID_REQUEST', `tags ${unstorable}`, { field: 'tags', reason: unstorable });
  const tags = [...new Set(value.split(',').map(cleanLabel).filter((t) => t !== ''))];
  if (tags.length > MAX_TAGS) {
    throw new ApiError('INVALID_REQUEST', `At most ${MAX_TAGS} tags are allowed`, { field: 'tags', reason: 'too many' });
  }
  const long = tags.find((t) => t.length > MAX_TAG_LENGTH);
  if (long) {
    throw new ApiError('INVALID_REQUEST', `Each tag must be at most ${MAX_TAG_LENGTH} characters`, { field: 'tags', reason: 'too long' });
  }
  return tags;
}

/**
 * Browsers (and fetch's FormData) escape `"`, CR and LF in multipart filenames as %22, %0D and %0A
 * (WHATWG HTML, multipart/form-data encoding); undo exactly those.
 */
export function decodeFormFilename(name: string): string {
  return name.replace(/%22/g, '"').replace(/%0D/gi, '\r').replace(/%0A/gi, '\n');
}

/** Reads and throws away what is left of a request body, up to a limit. */
function drain(source: Readable): Promise<void> {
  if (source.readableEnded || source.destroyed) return Promise.resolve();
  return new Promise((resolve) => {
    let seen = 0;
    source.on('data', (chunk: Buffer) => {
      seen += chunk.length;
      if (seen > DRAIN_LIMIT) {
        source.destroy();
        resolve();
      }
    });
    source.once('end', resolve);
    source.once('close', resolve);
    source.once('error', () => resolve());
    source.resume();
  });
}

/**
 * Streams a multipart/form-data upload (parts: file, metadata, tags) into staging storage.
 * Memory use stays flat whatever the file size; the staged bytes are removed on any error.
 */
export async function receiveUpload(
  body: ReadableStream<Uint8Array> | null,
  contentType: string | null,
  storage: Storage,
): Promise<ReceivedUpload> {
  if (!contentType || !contentType.toLowerCase().startsWith('multipart/form-data')) {
    throw new ApiError('INVALID_FILE', 'Upload the file as multipart/form-data with a part named "file"', {
      field: 'file',
      reason: 'expected multipart/form-data',
    });
  }
  if (!body) throw new ApiError('INVALID_FILE', 'No file was uploaded: send a part named "file"', { field: 'file', reason: 'missing' });

  const source = Readable.fromWeb(body as import('node:stream/web').ReadableStream<Uint8Array>);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { 'content-type': contentType },
      defParamCharset: 'utf8',
      limits: { files: 1, fields: 20, parts: 40, fieldSize: MAX_METADATA_BYTES * 4, fieldNameSize: 200, fileSize: MAX_UPLOAD_BYTES + 1024 * 1024 },
    });
  } catch {
    throw new ApiError('INVALID_FILE', 'Malformed multipart/form-data request (missing boundary)', { field: 'file', reason: 'malformed' });
  }

  const fields: Record<string, string> = {};
  let filePart: { promise: Promise<{ staged: StagedObject; inspector: UploadInspector; filename: string }> } | undefined;

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      if (name === 'metadata' || name === 'tags' || (EXTRA_UPLOAD_PARTS as readonly string[]).includes(name)) fields[name] = value;
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file') {
        stream.resume();
        reject(new ApiError('INVALID_FILE', `Unexpected file part "${name}": send the file in a part named "file"`, { field: name, reason: 'unexpected' }));
        return;
      }
      const given = decodeFormFilename(info.filename ?? '');
      const unstorable = unstorableTextReason(given);
      if (unstorable) {
        stream.resume();
        reject(new ApiError('INVALID_FILE', `The filename ${unstorable}`, { field: 'file', reason: `filename ${unstorable}` }));
        return;
      }
      const filename = cleanLabel(given);
      if (filename.length > MAX_FILENAME_LENGTH) {
        stream.resume();
        reject(new ApiError('INVALID_FILE', `The filename must be at most ${MAX_FILENAME_LENGTH} characters`, { field: 'file', reason: 'filename too long' }));
        return;
      }
      const inspector = new UploadInspector(filename);
      // The inspector enforces each type's limit; busboy's own cap above it is only a backstop.
      stream.on('limit', () =>
        inspector.destroy(new ApiError('FILE_TOO_LARGE', `File too large: uploads may be at most ${MAX_UPLOAD_BYTES / 1024 / 1024} MB`)),
      );
      // Errors travel both ways between the part and the inspector; staging reports them.
      pipeline(stream, inspector).catch(() => undefined);
      const promise = storage.stage(inspector).then((staged) => ({ staged, inspector, filename }));
      promise.catch(reject);
      filePart = { promise };
    });
    parser.on('filesLimit', () => reject(new ApiError('INVALID_FILE', 'Send exactly one file per request', { field: 'file', reason: 'more than one file' })));
    parser.on('partsLimit', () => reject(new ApiError('INVALID_REQUEST', 'Too many parts in the multipart body')));
    parser.on('fieldsLimit', () => reject(new ApiError('INVALID_REQUEST', 'Too many fields in the multipart body')));
    parser.on('error', (err) =>
      reject(isApiError(err) ? err : new ApiError('INVALID_FILE', `Malformed multipart/form-data body: ${(err as Error).message}`, { field: 'file', reason: 'malformed' })),
    );
    parser.on('close', resolve);
    source.on('error', (err) => reject(new ApiError('INVALID_FILE', `The upload was interrupted: ${err.message}`, { field: 'file', reason: 'interrupted' })));
  });

  source.pipe(parser);
  let result: { staged: StagedObject; inspector: UploadInspector; filename: string } | undefined;
  try {
    await parsed;
    if (!filePart) throw new ApiError('INVALID_FILE', 'No file was uploaded: send a part named "file"', { field: 'file', reason: 'missing' });
    result = await filePart.promise;
    const metadata = parseMetadataField(fields.metadata);
    const tags = parseTagsField(fields.tags);
    const { staged, inspector, filename } = result;
    const extras = Object.fromEntries(EXTRA_UPLOAD_PARTS.filter((name) => fields[name] !== undefined).map((name) => [name, fields[name]]));
    return { staged, filename, type: inspector.type!, size: inspector.size, sha256: inspector.sha256, metadata, tags, extras };
  } catch (err) {
    source.unpipe(parser);
    await drain(source);
    if (result) await result.staged.discard();
    else if (filePart) await filePart.promise.then((r) => r.staged.discard(), () => undefined);
    throw err;
  }
}
