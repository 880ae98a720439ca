import fs from 'node:fs';
import { builtinModules } from 'node:module';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureWorkerBundle, pdfThreadBundlePath, workerBundlePath } from '@/lib/extraction/worker-bundle';

/*
 * What the extraction process and its PDF page threads load. Each page thread is a V8 isolate of
 * its own, so everything its entry imports is loaded once more per thread; a package imported at
 * the top of a bundle is loaded whatever the document's format. Threads used to start from the
 * worker's bundle with every format's packages (about 50 MB per thread: a 619-page PDF read by
 * four threads went past 512 MB), and the worker loaded ExcelJS, mammoth and the mail readers for
 * a PDF too (about 25 MB and a third of a second at every start).
 */

const builtin = new Set(builtinModules);
const isPackage = (spec: string) => !spec.startsWith('node:') && !builtin.has(spec) && !spec.startsWith('.') && !spec.startsWith('/');

function importsOf(file: string): { loaded: string[]; onDemand: string[] } {
  const source = fs.readFileSync(file, 'utf8');
  const loaded = new Set<string>();
  const onDemand = new Set<string>();
  for (const m of source.matchAll(/(?:^|\n)(?:import|export)\s[^'";]*?from\s*["']([^"']+)["']|(?:^|\n)import\s*["']([^"']+)["']/g)) loaded.add(m[1] ?? m[2]);
  for (const m of source.matchAll(/import\(\s*["']([^"']+)["']\s*\)/g)) onDemand.add(m[1]);
  return { loaded: [...loaded].filter(isPackage).sort(), onDemand: [...onDemand].filter(isPackage).sort() };
}

beforeAll(async () => {
  await ensureWorkerBundle();
});

describe('extraction bundles', () => {
  it('PDF page threads start from a bundle of their own that imports the PDF readers (PDFium, pdf.js) and nothing else', () => {
    const thread = importsOf(pdfThreadBundlePath());
    expect(thread.loaded).toEqual([]);
    expect(thread.onDemand.sort()).toEqual(['@embedpdf/pdfium', 'pdfjs-dist/legacy/build/pdf.mjs']);
  });

  it('the extraction process imports the heavy packages of single formats only when such a document comes', () => {
    const worker = importsOf(workerBundlePath());
    const heavy = ['exceljs', 'mammoth', '@kenjiuno/msgreader', '@kenjiuno/decompressrtf', 'postal-mime', 'word-extractor', 'tesseract.js', 'pdfjs-dist/legacy/build/pdf.mjs', '@embedpdf/pdfium'];
    expect(worker.onDemand).toEqual(expect.arrayContaining(heavy));
    expect(worker.loaded.filter((spec) => heavy.includes(spec))).toEqual([]);
  });
});
