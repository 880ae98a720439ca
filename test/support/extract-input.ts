import type { ExtractInput } from '@/lib/extraction/types';

/**
 * An extraction input for tests and benchmarks: the defaults the API gives (`normal` mode, tables
 * on, layout off), no progress reporting, a signal that never aborts; `overrides` change any field.
 */
export function extractInput(path: string, type: { mime_type: string; extension: string }, tmpDir: string, overrides: Partial<ExtractInput> = {}): ExtractInput {
  return {
    path,
    mimeType: type.mime_type,
    extension: type.extension,
    mode: 'normal',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => {},
    signal: new AbortController().signal,
    maxPages: 10_000,
    tmpDir,
    ...overrides,
  };
}

export const PDF_TYPE = { mime_type: 'application/pdf', extension: '.pdf' } as const;
