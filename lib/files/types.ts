import path from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { ApiError } from '@/lib/api/errors';

export interface FileTypeEntry {
  extension: string;
  mime_type: string;
  description: string;
  max_size_mb: number;
  /** Text formats have no magic bytes: they are recognised by extension and must be valid UTF-8. */
  text: boolean;
}

const MB = 1024 * 1024;

export const FILE_TYPES: readonly FileTypeEntry[] = [
  { extension: '.pdf', mime_type: 'application/pdf', description: 'PDF document', max_size_mb: 100, text: false },
  {
    extension: '.docx',
    mime_type: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
    description: 'Microsoft Word document',
    max_size_mb: 100,
    text: false,
  },
  {
    extension: '.xlsx',
    mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    description: 'Microsoft Excel workbook',
    max_size_mb: 100,
    text: false,
  },
  {
    extension: '.pptx',
    mime_type: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
    description: 'Microsoft PowerPoint presentation',
    max_size_mb: 100,
    text: false,
  },
  { extension: '.png', mime_type: 'image/png', description: 'PNG image', max_size_mb: 20, text: false },
  { extension: '.jpg', mime_type: 'image/jpeg', description: 'JPEG image', max_size_mb: 20, text: false },
  { extension: '.jpeg', mime_type: 'image/jpeg', description: 'JPEG image', max_size_mb: 20, text: false },
  { extension: '.tiff', mime_type: 'image/tiff', description: 'TIFF image', max_size_mb: 20, text: false },
  { extension: '.tif', mime_type: 'image/tiff', description: 'TIFF image', max_size_mb: 20, text: false },
  { extension: '.webp', mime_type: 'image/webp', description: 'WebP image', max_size_mb: 20, text: false },
  { extension: '.bmp', mime_type: 'image/bmp', description: 'BMP image', max_size_mb: 20, text: false },
  { extension: '.txt', mime_type: 'text/plain', description: 'Plain text (UTF-8)', max_size_mb: 20, text: true },
  { extension: '.md', mime_type: 'text/markdown', description: 'Markdown (UTF-8)', max_size_mb: 20, text: true },
  { extension: '.html', mime_type: 'text/html', description: 'HTML page (UTF-8)', max_size_mb: 20, text: true },
  { extension: '.htm', mime_type: 'text/html', description: 'HTML page (UTF-8)', max_size_mb: 20, text: true },
  { extension: '.csv', mime_type: 'text/csv', description: 'Comma-separated values (UTF-8)', max_size_mb: 20, text: true },
];

/** The largest size any type accepts: a hard ceiling while the type is not yet known. */
/** Custom metadata (of files, knowledge bases, documents): a JSON object of at most this many bytes. */
export const MAX_METADATA_BYTES = 16 * 1024;

export const MAX_UPLOAD_BYTES = Math.max(...FILE_TYPES.map((t) => t.max_size_mb)) * MB;

/** Bytes read before deciding the type (Office formats need to see their first zip entries). */
export const SNIFF_BYTES = 64 * 1024;

export function maxBytes(type: FileTypeEntry): number {
  return type.max_size_mb * MB;
}

export function extensionOf(filename: string): string {
  return path.extname(filename).toLowerCase();
}

const byExtension = new Map(FILE_TYPES.map((t) => [t.extension, t]));

/**
 * Decides a file's type from its first bytes. The content decides: the extension only chooses
 * between text formats (which have no signature) and must not contradict the content.
 */
export async function detectFileType(head: Uint8Array, filename: string): Promise<FileTypeEntry> {
  const ext = extensionOf(filename);
  const claimed = byExtension.get(ext);
  const sniffed = await fileTypeFromBuffer(head);

  // XML-looking HTML (<?xml …><html>) is still HTML when the name says so.
  if (sniffed && !(sniffed.ext === 'xml' && claimed?.text)) {
    const candidates = FILE_TYPES.filter((t) => t.mime_type === sniffed.mime);
    if (candidates.length === 0) {
      throw new ApiError('UNSUPPORTED_FORMAT', `Unsupported file format: the content is ${sniffed.ext.toUpperCase()} (${sniffed.mime})`, {
        detected_type: sniffed.mime,
        supported: 'GET /v1/files/types',
      });
    }
    if (claimed) {
      if (claimed.mime_type !== sniffed.mime) {
        throw new ApiError(
          'UNSUPPORTED_FORMAT',
          `The file is named ${ext} but its content is ${sniffed.ext.toUpperCase()} (${sniffed.mime})`,
          { extension: ext, detected_type: sniffed.mime },
        );
      }
      return claimed;
    }
    return candidates[0];
  }

  if (claimed?.text) return claimed;
  throw new ApiError(
    'UNSUPPORTED_FORMAT',
    claimed
      ? `The file is named ${ext} but its content is not a ${claimed.description}`
      : `Unsupported file format${ext ? ` (${ext})` : ''}: the content was not recognised`,
    { extension: ext || null, supported: 'GET /v1/files/types' },
  );
}

export function listFileTypes(): Omit<FileTypeEntry, 'text'>[] {
  return FILE_TYPES.map(({ text: _text, ...entry }) => entry);
}
