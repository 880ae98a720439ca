// npm run bench:truth [-- --verbose] [-- --scanned] — Quarry's PDF tables against human-made truth: the EU half
// of the ICDAR 2013 Table Competition (fixtures/tables-icdar2013). Each PDF is extracted as the
// server does (the golden-file run: the extraction worker pool, the API's default options), two at
// a time; the tables of its document model are paired with the true tables and scored by the
// competition's cell-adjacency relations (scripts/bench-truth/). A document with an alternative
// truth (eu-009a: eu-009a and eu-009b) is scored against the one it matches better. With
// --scanned, the same documents are scored again as scans (every page rendered to pixels, the
// text layer gone): their tables come from OCR words and the ruling lines in the image.
//
// It measures: the exit code is 0 whether the goals are met or not, 1 only when an extraction fails.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { QuarryDocument, Table } from '@/lib/document/types';
import { loadPdfjs, openDocument } from '@/lib/extraction/pdf/read/pdfjs';
import { goldenCorpus } from '@/test/support/golden-corpus';
import { runGoldenCorpus } from '@/test/support/golden-run';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractPdf } from '@/lib/extraction/engine';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';
import { range, shipments } from '@/test/support/pdf-table-pages';
import { imageOnlyPdf, scanPages } from '@/test/support/scanned';
import { outputTables, type PageSize } from './bench-truth/match';
import { printDetails, printDocument, printFailure, printHeader, printTotal } from './bench-truth/report';
import { addCounts, bestVariant, prf, scoreDocument, type Counts } from './bench-truth/score';
import { readTruth, truthVariants, type TruthTable } from './bench-truth/truth';

const FOLDER = 'tables-icdar2013';
const CONCURRENCY = 2;
const EXAMPLES = 5;
const verbose = process.argv.includes('--verbose');
/** --scanned: the documents also as scans (image-only PDFs), their tables from OCR. */
const scanned = process.argv.includes('--scanned');
const SCAN_DPI = 150;
const dir = path.join(FIXTURES_DIR, FOLDER);

/** The shown size (/Rotate applied) of the pages asked for, where the document model gives none. */
async function pdfPageSizes(file: string, pages: readonly number[]): Promise<Map<number, PageSize>> {
  const { pdfjs, dir: pdfjsDir } = await loadPdfjs();
  const doc = await openDocument(pdfjs, pdfjsDir, new Uint8Array(fs.readFileSync(file)), { maxImageSize: 1 }).promise;
  try {
    const sizes = new Map<number, PageSize>();
    for (const n of pages) {
      if (n < 1 || n > doc.numPages) continue;
      const { width, height } = (await doc.getPage(n)).getViewport({ scale: 1 });
      sizes.set(n, { width, height });
    }
    return sizes;
  } finally {
    await doc.destroy();
  }
}

function readVariant(structure: string): TruthTable[] {
  const reg = path.join(dir, structure.replace(/-str\.xml$/, '-reg.xml'));
  return readTruth(fs.readFileSync(path.join(dir, structure), 'utf8'), fs.existsSync(reg) ? fs.readFileSync(reg, 'utf8') : undefined);
}

/**
 * The goal for tables continued over pages, on a generated two-page document whose table goes on
 * from page 1 to page 2 with its header repeated: one table, its rows citing both pages.
 */
async function tableOverPages(): Promise<string> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-pages-'));
  try {
    const file = path.join(tmp, 'table-over-pages.pdf');
    fs.writeFileSync(file, shipments({ parts: [range(0, 30), range(30, 40)], repeatHeader: true, after: 'All figures are before tax.' }));
    const { document } = await extractPdf(extractInput(file, PDF_TYPE, tmp), null);
    const tables = (document?.blocks ?? []).flatMap((b) => (b.type === 'section' ? b.content : [b])).filter((b): b is Table => b.type === 'table');
    const pages = [...new Set(tables.flatMap((t) => t.row_prov?.map((r) => r.page) ?? []))];
    const met = tables.length === 1 && pages.join() === '1,2';
    return `a table continued on page 2 of a generated document: ${tables.length} table(s), rows citing page(s) ${pages.join(', ')}: ${met ? 'met' : 'MISSED'}`;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/** A corpus document whose file is made on first use. */
type CorpusDocument = ReturnType<typeof goldenCorpus>[number];

/**
 * The document as a scan: every page rendered grey at SCAN_DPI by pdftoppm and put back as an
 * image-only PDF of the same page sizes, so that the tables must come from OCR words and the
 * ruling lines in the pixels.
 */
function scannedDocument(doc: CorpusDocument, tmp: string): CorpusDocument {
  let made: string | null = null;
  return {
    ...doc,
    path: () => {
      made ??= (() => {
        const target = path.join(tmp, `scanned-${path.basename(doc.name)}`);
        fs.writeFileSync(target, imageOnlyPdf(scanPages(fs.readFileSync(doc.path()), SCAN_DPI), SCAN_DPI));
        return target;
      })();
      return made;
    },
  };
}

/** Extracts `docs` in the worker pool and prints each one's score against the truth and the total; the number that failed. */
async function scoreRun(docs: CorpusDocument[], variants: Map<string, string[]>): Promise<{ failed: number; seconds: number }> {
  console.log(`Extracting ${docs.length} documents in the extraction worker pool, ${CONCURRENCY} at a time, with the API's default options…`);
  const started = performance.now();
  const outcomes = await runGoldenCorpus(docs, CONCURRENCY);
  const extractSeconds = (performance.now() - started) / 1000;
  console.log(`  extracted in ${extractSeconds.toFixed(1)} s\n`);

  printHeader();
  const scores: Counts[] = [];
  let failed = 0;
  for (const doc of docs) {
    const pdf = path.basename(doc.name);
    const name = pdf.replace(/\.pdf$/, '');
    const truths = variants.get(pdf)!.map((structure) => ({ structure, truth: readVariant(structure) }));
    const outcome = outcomes.get(doc.name);
    if (outcome?.kind !== 'extracted' || !outcome.document) {
      failed++;
      const message = outcome?.kind === 'failed' ? `${outcome.code}: ${outcome.message}` : outcome?.kind === 'skipped' ? `skipped: ${outcome.reason}` : 'no document model';
      printFailure(name, truths[0].truth.length, message);
      // Its true tables are all missed: their relations count against recall.
      scores.push(scoreDocument(truths[0].truth, [], new Map()));
      continue;
    }
    const { tables, pageSizes } = outputTables(outcome.document as QuarryDocument);
    const truthPages = [...new Set(truths.flatMap((t) => t.truth.flatMap((table) => table.regions.map((r) => r.page))))];
    const missing = truthPages.filter((p) => !pageSizes.has(p));
    if (missing.length) for (const [p, size] of await pdfPageSizes(doc.path(), missing)) pageSizes.set(p, size);
    const scored = truths.map((t) => ({ ...t, score: scoreDocument(t.truth, tables, pageSizes) }));
    const best = bestVariant(scored);
    const note =
      scored.length > 1
        ? `truth ${best.structure.replace(/-str\.xml$/, '')}, the better of ${scored.map((s) => `${s.structure.replace(/-str\.xml$/, '')} F1 ${prf(s.score).f1.toFixed(3)}`).join(', ')}`
        : '';
    printDocument(name, best.score, note);
    if (verbose) printDetails(best.score, EXAMPLES);
    scores.push(best.score);
  }
  printTotal(docs.length, failed, addCounts(scores));
  return { failed, seconds: (performance.now() - started) / 1000 };
}

async function main(): Promise<void> {
  const variants = truthVariants(fs.readdirSync(dir));
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-truth-'));
  try {
    const docs = goldenCorpus(tmp).filter((d) => d.name.startsWith(`${FOLDER}/`) && variants.has(path.basename(d.name)));
    console.log(`PDF tables against the ICDAR 2013 table competition's truth (EU half, ${docs.length} documents; cell-adjacency relations, micro-averaged)`);
    const born = await scoreRun(docs, variants);
    console.log(`  ${await tableOverPages()}`);
    let failed = born.failed;
    let seconds = born.seconds;
    if (scanned) {
      console.log(`\nThe same documents scanned: each page rendered grey at ${SCAN_DPI} dpi (pdftoppm) into an image-only PDF, read by OCR`);
      const run = await scoreRun(docs.map((d) => scannedDocument(d, tmp)), variants);
      failed += run.failed;
      seconds += run.seconds;
    }
    console.log(`\nTime: ${seconds.toFixed(1)} s extracting and scoring`);
    if (failed) process.exitCode = 1;
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

await main();
