import fs from 'node:fs/promises';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type WordExtractor from 'word-extractor';
import { extractionRefusal, findSoffice, LIBREOFFICE_TYPES } from '../formats';
import { runProgram } from '../programs';
import { DOCUMENT_VERSION, type Block } from '@/lib/document/types';
import { ExtractionError, throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { corrupt, parsing, readInputFile } from './common';
import { readPptx } from './pptx';
import { readXlsx } from './xlsx';

/*
 * Office 97-2003 binaries.
 *
 * - .doc: word-extractor (pure JavaScript, reads the OLE container and the piece table itself):
 *   the body's paragraphs, then text boxes and footnotes. It gives text only, so there are no
 *   headings or tables; a paragraph of tab-separated cells (Word's table rows) is kept as one line.
 * - .xls, .ppt: there is no maintained pure-JavaScript reader on npm (SheetJS left npm at the
 *   vulnerable 0.18.5; its fixed builds are published elsewhere), so LibreOffice converts them to
 *   XLSX / PPTX (`soffice --headless --convert-to`), which the OOXML extractors then read: sheets
 *   and slides become sections with page markers, as for XLSX and PPTX. soffice runs through
 *   runProgram (the task's memory and time limits, its own process group) with a profile
 *   directory of its own in the task's scratch directory, so concurrent conversions never share
 *   (or lock) a profile. Without LibreOffice, the extraction is refused up front (415, see
 *   formats.ts) and, should it be removed meanwhile, fails with UNSUPPORTED_FORMAT naming what
 *   to install.
 */

/** word-extractor, imported on first use (only .doc extractions pay for it). */
async function loadExtractor(): Promise<typeof WordExtractor> {
  const loaded = (await import('word-extractor')).default;
  return (loaded as unknown as { default?: typeof WordExtractor }).default ?? loaded;
}

function paragraphs(text: string): string[] {
  return text
    .replace(/\r\n?/g, '\n')
    .split(/\n+/)
    .map((line) => line.replace(/[\t\u0007]+/g, ' ').replace(/\s+/g, ' ').trim())
    .filter(Boolean);
}

export async function readDoc(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const bytes = await readInputFile(input);
  const Extractor = await loadExtractor();
  const doc = await parsing('Word 97-2003', () => new Extractor().extract(bytes));
  const body = paragraphs(doc.getBody());
  const boxes = paragraphs(doc.getTextboxes({ includeHeadersAndFooters: false, includeBody: true }));
  const notes = [...paragraphs(doc.getFootnotes()), ...paragraphs(doc.getEndnotes())];
  const blocks = [...body, ...boxes.filter((box) => !body.includes(box)), ...notes].map((text): Block => ({ type: 'paragraph', content: [{ type: 'text', text }] }));
  input.onProgress(1, 1);
  return { document: { version: DOCUMENT_VERSION, metadata: {}, blocks }, totalPages: 1 };
}

const CONVERTED_TYPES = {
  xlsx: { mime: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', read: readXlsx },
  pptx: { mime: 'application/vnd.openxmlformats-officedocument.presentationml.presentation', read: readPptx },
} as const;

export async function readWithLibreOffice(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const legacy = LIBREOFFICE_TYPES.get(input.mimeType);
  if (!legacy) throw new ExtractionError('UNSUPPORTED_FORMAT', `Documents of type ${input.mimeType} cannot be extracted`);
  if (!findSoffice()) throw new ExtractionError('UNSUPPORTED_FORMAT', extractionRefusal(input.mimeType) ?? 'LibreOffice is not installed');

  const work = await fs.mkdtemp(path.join(input.tmpDir, 'soffice-'));
  const profile = path.join(work, 'profile');
  const outDir = path.join(work, 'out');
  // A copy under a plain name: soffice names its output after the input, and reads options from odd names.
  const source = path.join(work, `source${input.extension}`);
  await fs.copyFile(input.path, source);
  const result = await runProgram(
    'soffice',
    [
      '--headless', '--norestore', '--nolockcheck', '--nodefault', '--nologo',
      `-env:UserInstallation=${pathToFileURL(profile).href}`,
      '--convert-to', legacy.target, '--outdir', outDir, source,
    ],
    { signal: input.signal, env: { ...process.env, HOME: work } },
  );
  const converted = path.join(outDir, `source.${legacy.target}`);
  const exists = await fs.stat(converted).then((s) => s.size > 0, () => false);
  if (!exists) {
    const why = result.stderr.replace(/\s+/g, ' ').trim().slice(0, 200);
    throw corrupt(`LibreOffice could not read the ${input.extension} file${why ? `: ${why}` : ''}`);
  }
  const target = CONVERTED_TYPES[legacy.target];
  return target.read({ ...input, path: converted, mimeType: target.mime, extension: `.${legacy.target}` });
}
