/**
 * Extraction of generated PDFs in tests: the text layer only (simple mode), in a scratch folder
 * removed after the file's tests, and the tables of the document model.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';
import type { Block, QuarryDocument, Table } from '@/lib/document/types';
import { extractPdf } from '@/lib/extraction/engine';
import type { ExtractionOptions } from '@/lib/extraction/types';
import { extractInput, PDF_TYPE } from './extract-input';

/** A function writing a PDF under `name` and extracting it with the API's options, `options` changing any. */
export function pdfExtractor(prefix: string) {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  return async (name: string, bytes: Uint8Array, options: Partial<ExtractionOptions> = {}) => {
    const file = path.join(tmp, name);
    fs.writeFileSync(file, bytes);
    const input = extractInput(file, PDF_TYPE, tmp, { mode: 'simple' });
    return extractPdf({ ...input, options: { ...input.options, ...options } }, null);
  };
}

function allBlocks(blocks: readonly Block[]): Block[] {
  return blocks.flatMap((b) => (b.type === 'section' || b.type === 'quote' ? [b, ...allBlocks(b.content)] : [b]));
}

/** Every table of a document, in order (inside sections and quotes too). */
export function documentTables(doc: QuarryDocument | undefined): Table[] {
  return allBlocks(doc?.blocks ?? []).filter((b): b is Table => b.type === 'table');
}
