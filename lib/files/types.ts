import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '@/lib/errors';

/** How a type is recognised when its content has no signature of its own. */
export type Recognition =
  /** By its signature (magic bytes), whatever the name says. */
  | 'signature'
  /** By extension; the content must be UTF-8 text without NUL bytes. */
  | 'text'
  /** By extension (.eml); the content must look like a message (any charset, even UTF-16). */
  | 'email';

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

type Row = [extension: string, mime: string, description: string, maxMb: number, recognition?: Recognition, container?: 'zip' | 'cfb'];

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

const ROWS: Row[] = [
  ['.pdf', 'application/pdf', 'PDF document', 100],
  ['.docx', `${OOXML}.wordprocessingml.document`, 'Microsoft Word document', 100, 'signature', 'zip'],
  ['.xlsx', `${OOXML}.spreadsheetml.sheet`, 'Microsoft Excel workbook', 100, 'signature', 'zip'],
  ['.pptx', `${OOXML}.presentationml.presentation`, 'Microsoft PowerPoint presentation', 100, 'signature', 'zip'],
  ['.odt', `${ODF}.text`, 'OpenDocument text', 100, 'signature', 'zip'],
  ['.ods', `${ODF}.spreadsheet`, 'OpenDocument spreadsheet', 100, 'signature', 'zip'],
  ['.odp', `${ODF}.presentation`, 'OpenDocument presentation', 100, 'signature', 'zip'],
  ['.epub', 'application/epub+zip', 'EPUB e-book', 100, 'signature', 'zip'],
  ['.doc', 'application/msword', 'Microsoft Word 97-2003 document', 100, 'signature', 'cfb'],
  ['.xls', 'application/vnd.ms-excel', 'Microsoft Excel 97-2003 workbook (read with LibreOffice)', 100, 'signature', 'cfb'],
  ['.ppt', 'application/vnd.ms-powerpoint', 'Microsoft PowerPoint 97-2003 presentation (read with LibreOffice)', 100, 'signature', 'cfb'],
  ['.msg', 'application/vnd.ms-outlook', 'Outlook message', 100, 'signature', 'cfb'],
  ['.rtf', 'application/rtf', 'Rich Text Format document', 50],
  ['.eml', 'message/rfc822', 'Email message (MIME)', 50, 'email'],
  ['.png', 'image/png', 'PNG image', 20],
  ['.jpg', 'image/jpeg', 'JPEG image', 20],
  ['.jpeg', 'image/jpeg', 'JPEG image', 20],
  ['.tiff', 'image/tiff', 'TIFF image', 20],
  ['.tif', 'image/tiff', 'TIFF image', 20],
  ['.webp', 'image/webp', 'WebP image', 20],
  ['.bmp', 'image/bmp', 'BMP image', 20],
  ['.gif', 'image/gif', 'GIF image', 20],
  ['.heic', 'image/heic', 'HEIC photo', 20],
  ['.heif', 'image/heif', 'HEIF image', 20],
  ['.txt', 'text/plain', 'Plain text (UTF-8)', 20, 'text'],
  ['.md', 'text/markdown', 'Markdown (UTF-8)', 20, 'text'],
  ['.rst', 'text/x-rst', 'reStructuredText (UTF-8)', 20, 'text'],
  ['.org', 'text/x-org', 'Org mode text (UTF-8)', 20, 'text'],
  ['.html', 'text/html', 'HTML page (UTF-8)', 20, 'text'],
  ['.htm', 'text/html', 'HTML page (UTF-8)', 20, 'text'],
  ['.xml', 'application/xml', 'XML document (UTF-8)', 20, 'text'],
  ['.json', 'application/json', 'JSON document (UTF-8)', 20, 'text'],
  ['.csv', 'text/csv', 'Comma-separated values (UTF-8)', 20, 'text'],
  ['.tsv', 'text/tab-separated-values', 'Tab-separated values (UTF-8)', 20, 'text'],
];

export const FILE_TYPES: readonly FileTypeEntry[] = ROWS.map(([extension, mime_type, description, max_size_mb, recognition = 'signature', container]) => ({
  extension,
  mime_type,
  description,
  max_size_mb,
  text: recognition === 'text',
  recognition,
  ...(container ? { container } : {}),
}));

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
