import { readFile } from 'node:fs/promises';
import { ExtractionError, type ExtractInput } from '../types';

/**
 * Limits shared by the Office and text extractors. They bound memory and time for hostile files:
 * a zip bomb or a sheet with millions of cells ends as CORRUPT_DOCUMENT or as a truncated table
 * with a note, never as an out-of-memory crash.
 */
export const LIMITS = {
  /** Largest decompressed size of one zip entry. */
  zipEntryBytes: 100 * 1024 * 1024,
  /** Largest decompressed size of all the zip entries an extractor reads. */
  zipTotalBytes: 200 * 1024 * 1024,
  /** Most entries a zip may list. */
  zipEntries: 20_000,
  /** Cells rendered per sheet (XLSX) or per file (CSV); the rest is cut with a note line. */
  cellsPerSheet: 100_000,
  /** Cells rendered for a whole workbook. */
  cellsPerWorkbook: 1_000_000,
  /** Widest table rendered (columns beyond are cut). */
  tableColumns: 1_000,
  /**
   * Most cells of one rendered table, empty padding included (rows beyond are cut with a note):
   * sparse or span-expanded tables can be far larger than the cells they were built from.
   */
  tableCells: 400_000,
} as const;

export type OfficeFormat =
  | 'DOCX' | 'XLSX' | 'PPTX' | 'CSV' | 'HTML' | 'text'
  | 'ODF' | 'EPUB' | 'RTF' | 'email' | 'Outlook message' | 'Word 97-2003' | 'XML' | 'JSON';

export function corrupt(message: string): ExtractionError {
  return new ExtractionError('CORRUPT_DOCUMENT', message);
}

/** Reads the stored file. A missing or unreadable file is our fault, not the document's. */
export async function readInputFile(input: ExtractInput): Promise<Buffer> {
  try {
    return await readFile(input.path);
  } catch (err) {
    throw new ExtractionError('INTERNAL_ERROR', `The stored file could not be read (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
  }
}

/** Short, single-line description of an unknown error for a human-readable message. */
export function describeError(err: unknown): string {
  if (err instanceof RangeError && /call stack/i.test(err.message)) return 'the document is nested too deeply';
  const message = err instanceof Error ? err.message : String(err);
  const line = message.replace(/\s+/g, ' ').trim();
  return line.length > 200 ? `${line.slice(0, 197)}...` : line || 'unknown error';
}

/**
 * Runs a parsing step: ExtractionErrors pass through, anything else (a library choking on a
 * malformed file, a stack overflow on absurd nesting) becomes CORRUPT_DOCUMENT.
 */
export async function parsing<T>(format: OfficeFormat, step: () => T | Promise<T>): Promise<T> {
  try {
    return await step();
  } catch (err) {
    if (err instanceof ExtractionError) throw err;
    throw corrupt(`The ${format} file could not be read: ${describeError(err)}`);
  }
}

export function refuseTooManyPages(total: number, maxPages: number, unit: string): void {
  if (total > maxPages) {
    throw new ExtractionError('TOO_MANY_PAGES', `The document has ${total} ${unit}, more than the limit of ${maxPages}`);
  }
}

/** Decodes UTF-8 strictly (invalid bytes → CORRUPT_DOCUMENT), strips a BOM, normalises line ends. */
export function decodeUtf8Text(bytes: Uint8Array, format: OfficeFormat): string {
  if (bytes.includes(0)) throw corrupt(`The ${format} file is not text: it contains NUL bytes`);
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(bytes);
  } catch {
    throw corrupt(`The ${format} file is not valid UTF-8 text`);
  }
  return normalizeNewlines(text.replace(/^\uFEFF/, ''));
}

export function normalizeNewlines(text: string): string {
  return text.replace(/\r\n?/g, '\n');
}

/** ISO 8601 for a date-like value (Date or string); undefined when it is not a valid date. */
export function isoDate(value: unknown): string | undefined {
  if (value == null || value === '') return undefined;
  const date = value instanceof Date ? value : new Date(String(value).trim());
  if (Number.isNaN(date.getTime())) return undefined;
  return date.toISOString();
}

/** Drops undefined / empty-string values so metadata only carries what the document has. */
export function compactMetadata<T extends Record<string, unknown>>(metadata: T): T {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (value === undefined || value === null) continue;
    if (typeof value === 'string' && value.trim() === '') continue;
    out[key] = typeof value === 'string' ? value.trim() : value;
  }
  return out as T;
}

/** Collapses runs of blank lines and trims; the final Markdown ends with one newline (or is empty). */
export function finishMarkdown(markdown: string): string {
  const trimmed = markdown
    .replace(/^[ \t]+$/gm, '')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
  return trimmed ? `${trimmed}\n` : '';
}
