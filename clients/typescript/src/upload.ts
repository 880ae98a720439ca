// A streaming multipart/form-data body for POST /v1/files: the file is read as the request is
// sent (never held in memory), and every byte handed to the connection is counted for progress.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import type { ExtractionMode, ExtractionOptions } from './types.js';

/** What can be uploaded: a path on disk, a Node or web stream, a Blob/File, or bytes. */
export type UploadSource = string | URL | Readable | ReadableStream<Uint8Array> | Blob | Uint8Array;

export interface UploadOptions {
  /** The name stored with the file. Defaults to the path's base name (or a File's name); required for streams and bytes. */
  filename?: string;
  /** Sent as the part's Content-Type; the server decides the type by the content anyway. */
  contentType?: string;
  tags?: string[] | string;
  metadata?: Record<string, unknown>;
  /** Start an extraction in the same request: a mode, or `{mode, options}`. `true` means `normal`. */
  extract?: true | ExtractionMode | { mode?: ExtractionMode; options?: ExtractionOptions };
  /** Also add the file to this knowledge base, indexed when its extraction completes. */
  knowledgeBaseId?: string;
  documentTitle?: string;
  documentMetadata?: Record<string, unknown>;
  /** Answer with the stored file of the same content (200, `deduplicated: true`) instead of storing a copy. */
  dedupe?: boolean;
  idempotencyKey?: string;
  /** Called as the file's bytes are sent; `total` is known for paths, Blobs and bytes. */
  onProgress?: (sent: number, total: number | undefined) => void;
  signal?: AbortSignal;
}

interface FileContent {
  filename: string;
  size: number | undefined;
  stream: () => AsyncIterable<Uint8Array>;
}

async function fileContent(source: UploadSource, filename: string | undefined): Promise<FileContent> {
  const need = (what: string) => {
    if (!filename) throw new TypeError(`uploadFile: give options.filename when uploading ${what}`);
    return filename;
  };
  if (typeof source === 'string' || source instanceof URL) {
    const stat = await fs.promises.stat(source);
    if (!stat.isFile()) throw new TypeError(`uploadFile: ${String(source)} is not a file`);
    const base = path.basename(typeof source === 'string' ? source : decodeURIComponent(source.pathname));
    return { filename: filename ?? base, size: stat.size, stream: () => fs.createReadStream(source) };
  }
  if (source instanceof Uint8Array) {
    return { filename: need('bytes'), size: source.byteLength, stream: () => (async function* () { yield source; })() };
  }
  if (typeof Blob !== 'undefined' && source instanceof Blob) {
    const named = (source as Blob & { name?: string }).name;
    const name = filename ?? (named || need('a Blob'));
    return { filename: name, size: source.size, stream: () => Readable.fromWeb(source.stream() as import('node:stream/web').ReadableStream<Uint8Array>) };
  }
  if (source instanceof Readable) {
    // fs.createReadStream(path) knows its path: use its name when none was given.
    const streamPath = (source as Readable & { path?: unknown }).path;
    const name = filename ?? (typeof streamPath === 'string' ? path.basename(streamPath) : need('a stream'));
    return { filename: name, size: undefined, stream: () => source };
  }
  if (source && typeof (source as ReadableStream).getReader === 'function') {
    const web = source as ReadableStream<Uint8Array>;
    return { filename: need('a stream'), size: undefined, stream: () => Readable.fromWeb(web as import('node:stream/web').ReadableStream<Uint8Array>) };
  }
  throw new TypeError('uploadFile: the source must be a path, a stream, a Blob or bytes');
}

/** The text parts of the upload, in the order they are sent (before the file). */
export function uploadFields(options: UploadOptions): [string, string][] {
  const fields: [string, string][] = [];
  if (options.tags !== undefined) fields.push(['tags', Array.isArray(options.tags) ? options.tags.join(',') : options.tags]);
  if (options.metadata !== undefined) fields.push(['metadata', JSON.stringify(options.metadata)]);
  const { extract } = options;
  if (extract !== undefined) fields.push(['extract', extract === true ? 'normal' : typeof extract === 'string' ? extract : JSON.stringify(extract)]);
  if (options.knowledgeBaseId !== undefined) fields.push(['knowledge_base_id', options.knowledgeBaseId]);
  if (options.documentTitle !== undefined) fields.push(['document_title', options.documentTitle]);
  if (options.documentMetadata !== undefined) fields.push(['document_metadata', JSON.stringify(options.documentMetadata)]);
  if (options.dedupe !== undefined) fields.push(['dedupe', String(options.dedupe)]);
  return fields;
}

// As browsers write names in multipart headers: UTF-8, with " CR LF percent-escaped (the server undoes them).
const quoted = (name: string) => name.replace(/"/g, '%22').replace(/\r/g, '%0D').replace(/\n/g, '%0A');

export interface MultipartUpload {
  contentType: string;
  body: ReadableStream<Uint8Array>;
  /** The body's length in bytes when the file's size is known (sent as Content-Length; else chunked). */
  length: number | undefined;
  filename: string;
  size: number | undefined;
}

/** The multipart body of an upload, streamed from `source`. */
export async function multipartUpload(source: UploadSource, options: UploadOptions = {}): Promise<MultipartUpload> {
  const file = await fileContent(source, options.filename);
  const boundary = `----QuarryClient${randomBytes(16).toString('hex')}`;
  const encoder = new TextEncoder();
  let head = '';
  for (const [name, value] of uploadFields(options)) {
    head += `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  }
  head +=
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${quoted(file.filename)}"\r\n` +
    `Content-Type: ${options.contentType ?? 'application/octet-stream'}\r\n\r\n`;
  const tail = `\r\n--${boundary}--\r\n`;
  const { onProgress } = options;
  const headBytes = encoder.encode(head);
  const tailBytes = encoder.encode(tail);

  async function* parts(): AsyncGenerator<Uint8Array> {
    yield headBytes;
    let sent = 0;
    onProgress?.(0, file.size);
    for await (const chunk of file.stream()) {
      const bytes = typeof chunk === 'string' ? encoder.encode(chunk) : chunk;
      yield bytes;
      sent += bytes.byteLength;
      onProgress?.(sent, file.size);
    }
    yield tailBytes;
  }
  const iterator = parts();
  // A pull stream: the next chunk is read only when the connection takes the previous one.
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = await iterator.next();
      if (next.done) controller.close();
      else controller.enqueue(next.value);
    },
    async cancel() {
      await iterator.return(undefined);
    },
  });
  const length = file.size === undefined ? undefined : headBytes.byteLength + file.size + tailBytes.byteLength;
  return { contentType: `multipart/form-data; boundary=${boundary}`, body, length, filename: file.filename, size: file.size };
}
