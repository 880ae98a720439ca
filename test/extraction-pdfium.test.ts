import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '@/lib/extraction/engine';
import { analyzeOperatorList } from '@/lib/extraction/pdf/read/graphics';
import { PdfiumDocument } from '@/lib/extraction/pdf/read/pdfium';
import { loadPdfium } from '@/lib/extraction/pdf/read/pdfium-module';
import { decimal, pdfjsViewport } from '@/lib/extraction/pdf/read/pdfium-numbers';
import { loadPdfjs, openDocument } from '@/lib/extraction/pdf/read/pdfjs';
import { textSimilarity } from '@/lib/extraction/quality';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';

// PDFium reads text layers first; pdf.js reads the pages it hands back and is the reference the
// PDFium reading is held to.
let tmp: string;
const generated: Record<string, string> = {};

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pdfium-'));
  generated.report = path.join(tmp, 'report.pdf');
  fs.writeFileSync(generated.report, buildStructuredReport().pdf);
  generated.text = path.join(tmp, 'text.pdf');
  fs.writeFileSync(generated.text, buildTextDocument(12));
});

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

afterEach(() => {
  delete process.env.QUARRY_PDF_TEXT;
});

const fixture = (rel: string) => path.join(FIXTURES_DIR, rel);

async function markdownWith(reader: 'pdfium' | 'pdfjs', file: string): Promise<string> {
  process.env.QUARRY_PDF_TEXT = reader;
  const result = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
  return result.markdown;
}

async function open(file: string): Promise<PdfiumDocument> {
  const doc = await PdfiumDocument.open(new Uint8Array(fs.readFileSync(file)));
  if (!doc) throw new Error(`PDFium could not open ${file}`);
  return doc;
}

describe('PDFium as the text-layer reader', () => {
  it.each([
    ['generated report (headings, lists, tables)', () => generated.report],
    ['generated 12-page text', () => generated.text],
    ['pdf/code_and_formula.pdf', () => fixture('pdf/code_and_formula.pdf')],
    ['pdf/picture_classification.pdf', () => fixture('pdf/picture_classification.pdf')],
    ['ocr-more/rotated-page-90.pdf', () => fixture('ocr-more/rotated-page-90.pdf')],
    ['bad/rotation.pdf', () => fixture('bad/rotation.pdf')],
  ])('gives the same Markdown as pdf.js: %s', async (_name, file) => {
    const viaPdfjs = await markdownWith('pdfjs', file());
    const viaPdfium = await markdownWith('pdfium', file());
    expect(viaPdfjs.length).toBeGreaterThan(0);
    expect(viaPdfium).toBe(viaPdfjs);
  });

  it('reads a two-column paper with the same text as pdf.js (similarity ≥ 0.98)', async () => {
    const viaPdfjs = await markdownWith('pdfjs', fixture('ocr-more/multi-column.pdf'));
    const viaPdfium = await markdownWith('pdfium', fixture('ocr-more/multi-column.pdf'));
    expect(textSimilarity(viaPdfium, viaPdfjs)).toBeGreaterThanOrEqual(0.98);
  });

  it('keeps the word spaces of Korean text that pdf.js loses', async () => {
    const file = fixture('ocr-more/korean-text-with-tables.pdf');
    expect(await markdownWith('pdfjs', file)).toContain('전월이용금액 40만원이상시제공');
    expect(await markdownWith('pdfium', file)).toContain('전월 이용금액 40만원 이상 시 제공');
  });

  it('hands right-to-left and vertical pages back to pdf.js, which reads them as before', async () => {
    const rtl = await open(fixture('pdf/right_to_left_01.pdf'));
    const vertical = await open(fixture('bad/vertical.pdf'));
    try {
      expect(rtl.readPage(1, () => false).unsupported).toBe('right-to-left text');
      expect(vertical.readPage(1, () => false).unsupported).toBe('vertical writing');
      expect(vertical.readPage(2, () => false).unsupported).toBeNull();
    } finally {
      rtl.close();
      vertical.close();
    }
    for (const rel of ['pdf/right_to_left_01.pdf', 'bad/vertical.pdf']) {
      expect(await markdownWith('pdfium', fixture(rel))).toBe(await markdownWith('pdfjs', fixture(rel)));
    }
  });

  it('groups characters into items as pdf.js does: words, in-flow spaces, whitespace items and ligatures', async () => {
    const { pdfjs, dir } = await loadPdfjs();
    const file = fixture('pdf/picture_classification.pdf');
    const task = openDocument(pdfjs, dir, new Uint8Array(fs.readFileSync(file)), { maxImageSize: 1 });
    const doc = await open(file);
    try {
      const page = await (await task.promise).getPage(1);
      const content = await page.getTextContent({ disableNormalization: true });
      const expected = (content.items as { str: string; transform: number[]; width: number }[]).filter((it) => it.str.length > 0);
      const actual = doc.readPage(1, () => false).items;
      expect(actual.length).toBeGreaterThan(10);
      // Same strings at the same baselines and sizes; positions and widths within half a point
      // (pdf.js adds word spacing of justified lines to an item's width, PDFium's boxes do not).
      const shape = (it: { str: string; transform: number[] }) => ({ str: it.str, y: it.transform[5].toFixed(1), size: Math.hypot(it.transform[2], it.transform[3]).toFixed(3) });
      expect(actual.map(shape)).toEqual(expected.map(shape));
      actual.forEach((it, i) => {
        expect(Math.abs(it.transform[4] - expected[i].transform[4]), it.str).toBeLessThan(0.5);
        expect(Math.abs(it.width - expected[i].width), it.str).toBeLessThan(0.5);
      });
    } finally {
      doc.close();
      await task.destroy();
    }
  });

  it('finds the same ruling lines and images as the pdf.js operator list', async () => {
    const { pdfjs, dir } = await loadPdfjs();
    for (const file of [generated.report, fixture('ocr-more/korean-text-with-tables.pdf'), fixture('pdf/picture_classification.pdf')]) {
      // Images kept (the extractor's own document skips them; the scan probe keeps them).
      const task = openDocument(pdfjs, dir, new Uint8Array(fs.readFileSync(file)), { maxImageSize: -1 });
      const doc = await open(file);
      try {
        const pdf = await task.promise;
        for (let n = 1; n <= pdf.numPages; n++) {
          const page = await pdf.getPage(n);
          const vp = page.getViewport({ scale: 1 });
          const ops = await page.getOperatorList();
          const want = analyzeOperatorList(ops, pdfjs.OPS as unknown as Record<string, number>, { transform: vp.transform, width: vp.width, height: vp.height });
          const got = doc.readPage(n, () => true).graphics!;
          const round = (g: typeof want) => ({
            h: g.hLines.map((l) => [l.y, l.x0, l.x1].map((v) => Math.round(v))).sort(),
            v: g.vLines.map((l) => [l.x, l.y0, l.y1].map((v) => Math.round(v))).sort(),
            images: g.images,
            largest: g.largestImage.toFixed(2),
          });
          expect(round(got), `${path.basename(file)} page ${n}`).toEqual(round(want));
        }
      } finally {
        doc.close();
        await task.destroy();
      }
    }
  });

  it('uses the view box and rotation pdf.js uses', async () => {
    const { pdfjs, dir } = await loadPdfjs();
    const task = openDocument(pdfjs, dir, new Uint8Array(fs.readFileSync(fixture('ocr-more/rotated-page-90.pdf'))), { maxImageSize: 1 });
    try {
      const page = await (await task.promise).getPage(1);
      const vp = page.getViewport({ scale: 1 });
      expect(pdfjsViewport(page.view, page.rotate)).toEqual({ transform: vp.transform, width: vp.width, height: vp.height });
      for (const rotation of [0, 180, 270]) {
        const other = page.getViewport({ scale: 1, rotation });
        expect(pdfjsViewport(page.view, rotation)).toEqual({ transform: other.transform, width: other.width, height: other.height });
      }
    } finally {
      await task.destroy();
    }
  });

  it('turns PDFium 32-bit values back into the decimals the document wrote', () => {
    expect(decimal(Math.fround(13.9691))).toBe(13.9691);
    expect(decimal(Math.fround(9.978))).toBe(9.978);
    expect(decimal(Math.fround(-0.1))).toBe(-0.1);
    expect(decimal(0)).toBe(0);
    // A value without a short decimal keeps its 32-bit value.
    expect(Math.fround(decimal(Math.fround(1 / 3)))).toBe(Math.fround(1 / 3));
  });

  it('falls back to pdf.js for the whole document when PDFium cannot open it, and is closed safely twice', async () => {
    expect(await PdfiumDocument.open(new TextEncoder().encode('not a pdf'))).toBeNull();
    const doc = await open(generated.text);
    expect(doc.numPages).toBe(12);
    doc.close();
    doc.close();
  });

  it('after a trap in the module, hands the rest of the document to pdf.js and starts a fresh module for the next', async () => {
    const before = await loadPdfium();
    const doc = await open(generated.text);
    const holder = doc as unknown as { x: Record<string, unknown> };
    // The exports object is frozen: give the document a copy whose page loader traps.
    const exports = holder.x;
    holder.x = Object.create(exports, {
      FPDF_LoadPage: {
        value: () => {
          throw new WebAssembly.RuntimeError('unreachable');
        },
      },
    });
    expect(() => doc.readPage(1, () => false)).toThrow(WebAssembly.RuntimeError);
    expect(() => doc.readPage(2, () => false)).toThrow(/stopped on an earlier page/);
    const after = await loadPdfium();
    expect(after).not.toBe(before);
    const next = await open(generated.text);
    expect(next.readPage(1, () => false).items.length).toBeGreaterThan(0);
    next.close();
  });
});
