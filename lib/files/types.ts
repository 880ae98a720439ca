import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '@/lib/errors';
import { FORMATS, type Recognition } from '@/lib/formats/registry';

export type { Recognition } from '@/lib/formats/registry';

export interface FileTypeEntry {
  extension: string;
  mime_type: string;
  description: string;
  max_size_mb: number;
  /** Text formats have no magic bytes: they are recognised by extension and must be valid UTF-8. */
  text: boolean;
  recognition: Recognition;
  /** Zip and OLE compound files are told apart by the entries they hold (see containers.ts). */
  container?: 'zip' | 'cfb';
}

const MB = 1024 * 1024;

/** One entry per extension, in the format registry's order (lib/formats/registry.ts). */
export const FILE_TYPES: readonly FileTypeEntry[] = FORMATS.flatMap((f) =>
  f.extensions.map((extension) => ({
    extension,
    mime_type: f.mime,
    description: f.description,
    max_size_mb: f.maxMb,
    text: f.recognition === 'text',
    recognition: f.recognition,
    ...(f.container ? { container: f.container } : {}),
  })),
);

/** Custom metadata (of files, knowledge bases, documents): a JSON object of at most this many bytes. */
export const MAX_METADATA_BYTES = 16 * 1024;

/** The largest size any type accepts: a hard ceiling while the type is not yet known. */
export const MAX_UPLOAD_BYTES = Math.max(...FILE_TYPES.map((t) => t.max_size_mb)) * MB;

/**
 * Bytes read before deciding the type. Signatures sit in the first bytes; zip and OLE containers
 * are decided later from their entries (containers.ts), so this need not cover a whole directory.
 */
export const SNIFF_BYTES = 64 * 1024;

export function maxBytes(type: FileTypeEntry): number {
  return type.max_size_mb * MB;
}

/** While a container's kind is pending, the largest limit among the types it may turn out to be. */
export function containerMaxBytes(kind: 'zip' | 'cfb'): number {
  return Math.max(...FILE_TYPES.filter((t) => t.container === kind).map(maxBytes));
}

export function extensionOf(filename: string): string {
  return path.extname(filename).toLowerCase();
}

const byExtension = new Map(FILE_TYPES.map((t) => [t.extension, t]));

export function typeByExtension(extension: string): FileTypeEntry | undefined {
  return byExtension.get(extension);
}

/** The entry for a MIME type, the claimed one when it has that type (.tif stays .tif, .jpeg stays .jpeg). */
export function typeByMime(mime: string, claimed?: FileTypeEntry): FileTypeEntry | undefined {
  if (claimed?.mime_type === mime) return claimed;
  return FILE_TYPES.find((t) => t.mime_type === mime);
}

/** What the first bytes tell: a decided type, or a container whose entries decide at the end. */
export type HeadVerdict = { type: FileTypeEntry } | { container: 'zip' | 'cfb' };

/**
 * A TIFF header (either byte order, classic or BigTIFF). Checked before file-type, which answers
 * nothing for a TIFF whose first directory lies beyond the bytes it was given (tiffcp writes it
 * after the image data), and may take image data at offset 8 for a camera-raw marker.
 */
function isTiff(head: Uint8Array): boolean {
  if (head.length < 8) return false;
  const le = head[0] === 0x49 && head[1] === 0x49 && (head[2] === 42 || head[2] === 43) && head[3] === 0;
  const be = head[0] === 0x4d && head[1] === 0x4d && head[2] === 0 && (head[3] === 42 || head[3] === 43);
  return le || be;
}

/** The first line of a MIME message is a header ("From: …", "Received: …") or an mbox "From " line. */
function looksLikeEmail(head: Uint8Array): boolean {
  const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head.length > 3 && head[1] === 0 && head[3] === 0 && head[0] !== 0);
  const text = Buffer.from(head.subarray(0, 4096)).toString(utf16 ? 'utf16le' : 'latin1').replace(/^\uFEFF/, '');
  const first = text.replace(/^[\r\n]+/, '').split(/\r?\n/, 1)[0] ?? '';
  return /^[!-9;-~]+:/.test(first) || first.startsWith('From ');
}

export function unsupported(message: string, details: Record<string, unknown>): ApiError {
  return new ApiError('UNSUPPORTED_FORMAT', message, { ...details, supported: 'GET /v1/files/types' });
}

/**
 * Decides a file's type from its first bytes. The content decides: a file whose content is
 * another supported format than its name says is stored as what it is (a DOCX named .doc, a PNG
 * named .pdf). The extension only chooses among formats without a signature (text, email).
 */
export async function sniffHead(head: Uint8Array, filename: string): Promise<HeadVerdict> {
  const ext = extensionOf(filename);
  const claimed = byExtension.get(ext);
  if (isTiff(head)) return { type: typeByMime('image/tiff', claimed)! };
  const sniffed = await fileTypeFromBuffer(head);

  if (sniffed?.mime === 'application/zip') return { container: 'zip' };
  if (sniffed?.mime === 'application/x-cfb') return { container: 'cfb' };
  // XML-looking HTML (<?xml …><html>) is still HTML when the name says so, as XML named .txt is text.
  if (sniffed && !(sniffed.ext === 'xml' && claimed?.text)) {
    const mime = sniffed.mime.replace(/-sequence$/, '');
    const type = typeByMime(mime, claimed);
    if (!type) {
      throw unsupported(`Unsupported file format: the content is ${sniffed.ext.toUpperCase()} (${sniffed.mime})`, {
        detected_type: sniffed.mime,
        ...(ext ? { extension: ext } : {}),
      });
    }
    return { type };
  }

  if (claimed?.recognition === 'text') return { type: claimed };
  if (claimed?.recognition === 'email' && looksLikeEmail(head)) return { type: claimed };
  throw unsupported(
    claimed
      ? `The file is named ${ext} but its content is not a ${claimed.description}`
      : `Unsupported file format${ext ? ` (${ext})` : ''}: the content was not recognised`,
    { extension: ext || null },
  );
}

export function listFileTypes(): Pick<FileTypeEntry, 'extension' | 'mime_type' | 'description' | 'max_size_mb'>[] {
  return FILE_TYPES.map(({ extension, mime_type, description, max_size_mb }) => ({ extension, mime_type, description, max_size_mb }));
}
