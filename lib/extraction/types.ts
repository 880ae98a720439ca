/**
 * The contract between the extraction orchestrator (which runs in a worker process) and the
 * format extractors (PDF, OCR, Office, text). Extractors are plain async functions over a file
 * on disk; they report progress per page and stop when `signal` aborts.
 */

// Written once beside the table that stores it (lib/db/schema/enums.ts, which imports nothing).
import type { ExtractionMode } from '@/lib/db/schema/enums';
import type { ExtractionLayout } from '@/lib/document/layout';
import type { DocumentMetadata, QuarryDocument } from '@/lib/document/types';
export type { DocumentMetadata } from '@/lib/document/types';
export { EXTRACTION_MODES, type ExtractionMode } from '@/lib/db/schema/enums';

export const OCR_LANGUAGES = ['zh', 'en', 'ja', 'ko'] as const;
export type OcrLanguage = (typeof OCR_LANGUAGES)[number];

export const OCR_PROVIDERS = ['default', 'tesseract', 'cloud'] as const;
export type OcrProvider = (typeof OCR_PROVIDERS)[number];

export interface ExtractionOptions {
  language?: OcrLanguage;
  ocr_provider: OcrProvider;
  extract_tables: boolean;
  preserve_layout: boolean;
  /** PDF: join a table continued on the next page into one table (absent: true; options stored before it existed). */
  merge_tables?: boolean;
}

export interface ExtractInput {
  /** Path of the stored file (read-only). */
  path: string;
  /** MIME type decided at upload (see lib/files/types.ts). */
  mimeType: string;
  /** Extension with the dot, lower case (".pdf"). */
  extension: string;
  mode: ExtractionMode;
  options: ExtractionOptions;
  /** Called after each page (or unit: sheet, slide) with pages done and the total. */
  onProgress: (done: number, total: number) => void;
  /** Aborted when the task is cancelled or times out; check it between pages. */
  signal: AbortSignal;
  /** Refuse documents with more pages than this (TOO_MANY_PAGES). */
  maxPages: number;
  /** A scratch directory for temporary files, removed by the caller afterwards. */
  tmpDir: string;
}

/**
 * What an extractor gives: the document model (its metadata included) and its page count. The
 * Markdown and the layout record are rendered from the model (lib/document/render.ts).
 */
export interface ExtractedDocument {
  document: QuarryDocument;
  totalPages: number;
  /** Markdown and text files: their own text, served as it is instead of the rendered model. */
  markdown?: string;
}

export interface ExtractResult {
  /**
   * The document as GitHub-flavoured Markdown. Paged formats start each page with a marker line
   * `<!-- page N -->` (1-based) so later stages can cite pages.
   */
  markdown: string;
  totalPages: number;
  metadata: DocumentMetadata;
  /**
   * Where the Markdown's text sits on the pages (lib/chunking/layout.ts), for formats that have
   * positions: PDFs (text layer and OCR) and images (OCR). Absent for the others.
   */
  layout?: ExtractionLayout;
  /** The document model the Markdown was rendered from (without source lines: lib/document/serve.ts). */
  document?: QuarryDocument;
}

export const EXTRACTION_ERROR_CODES = [
  'OCR_FAILED',
  'ENCRYPTED_DOCUMENT',
  'CORRUPT_DOCUMENT',
  'EXTRACTION_TIMEOUT',
  'TOO_MANY_PAGES',
  'RESOURCE_LIMIT_EXCEEDED',
  'UNSUPPORTED_FORMAT',
  'CANCELLED',
  /** The file became a newer version (a source synced it) before this extraction of the older one ran. */
  'FILE_CHANGED',
  'INTERNAL_ERROR',
] as const;
export type ExtractionErrorCode = (typeof EXTRACTION_ERROR_CODES)[number];

/** A failure that ends the task (no retry), with a message for people. */
export class ExtractionError extends Error {
  constructor(
    readonly code: ExtractionErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'ExtractionError';
  }
}

/** The error to throw once `signal` has aborted (CANCELLED unless the reason is coded). */
export function abortError(signal: AbortSignal): ExtractionError {
  const reason: unknown = signal.reason;
  if (reason instanceof ExtractionError) return reason;
  return new ExtractionError('CANCELLED', 'The extraction was cancelled');
}

/** Throws CANCELLED when the signal has aborted (call between pages). */
export function throwIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw abortError(signal);
}
