import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '@/lib/extraction/engine';
import { parsePdfDate } from '@/lib/extraction/pdf/read/metadata';
import { loadPdfjs } from '@/lib/extraction/pdf/read/pdfjs';
import { textLayerUsable } from '@/lib/extraction/pdf/ocr/decision';
import { mergeOcr, ocrBlocks } from '@/lib/extraction/pdf/ocr/merge';
import type { Block } from '@/lib/extraction/pdf/layout/blocks';
import type { OcrOutput, OcrService } from '@/lib/extraction/ocr/types';
import { textSimilarity } from '@/lib/extraction/quality';
import type { ExtractInput, ExtractionMode, ExtractionOptions, OcrLanguage } from '@/lib/extraction/types';
import { ExtractionError } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildPdf, buildTextDocument, paragraph, type PdfLine, type PdfPageSpec, type PdfText } from '@/test/support/pdf-fixture';

const PDF_DIR = path.join(FIXTURES_DIR, 'pdf');
const BAD_DIR = path.join(FIXTURES_DIR, 'bad');
let tmp: string;

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pdf-test-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface RunOptions {
  mode?: ExtractionMode;
  options?: Partial<ExtractionOptions>;
  maxPages?: number;
  signal?: AbortSignal;
  progress?: [number, number][];
}

function input(file: string, opts: RunOptions = {}): ExtractInput {
  return {
    path: file,
    mimeType: 'application/pdf',
    extension: '.pdf',
    mode: opts.mode ?? 'normal',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false, ...opts.options },
    onProgress: (done, total) => opts.progress?.push([done, total]),
    signal: opts.signal ?? new AbortController().signal,
    maxPages: opts.maxPages ?? 1000,
    tmpDir: tmp,
  };
}

function run(file: string, opts: RunOptions = {}, ocr: OcrService | null = null) {
  return extractPdf(input(file, opts), ocr);
}

function writePdf(name: string, pages: PdfPageSpec[], info?: Parameters<typeof buildPdf>[1]): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, buildPdf(pages, info));
  return file;
}

async function extractionError(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ExtractionError);
    return err as ExtractionError;
  }
  throw new Error('expected an ExtractionError');
}

/** An OcrService double that answers every page with `output(page)` and records its calls. */
class FakeOcr implements OcrService {
  readonly engine = 'fake';
  calls: { path: string; page: number; language: OcrLanguage | undefined }[] = [];
  constructor(private readonly output: (page: number) => OcrOutput | Error) {}
  async recognizeImage(): Promise<OcrOutput> {
    throw new Error('not used by the PDF extractor');
  }
  async recognizePdfPage(pdfPath: string, page: number, language: OcrLanguage | undefined, signal: AbortSignal): Promise<OcrOutput> {
    expect(signal).toBeInstanceOf(AbortSignal);
    this.calls.push({ path: pdfPath, page, language });
    const out = this.output(page);
    if (out instanceof Error) throw out;
    return out;
  }
  async close(): Promise<void> {}
}

const pageMarkers = (md: string) => md.match(/^<!-- page \d+ -->$/gm) ?? [];

const words = (tag: string, n: number) => Array.from({ length: n }, (_, i) => `${tag}${i}`).join(' ');

describe('loading pdf.js', () => {
  it("keeps Node's own Array.prototype.push, JSON.parse and JSON.stringify, and hides DecompressionStream", async () => {
    const { pdfjs } = await loadPdfjs();
    expect(typeof pdfjs.getDocument).toBe('function');
    // The legacy build's core-js replaces these with JavaScript versions several times slower.
    for (const fn of [Array.prototype.push, JSON.parse, JSON.stringify]) expect(Function.prototype.toString.call(fn)).toContain('[native code]');
    expect((globalThis as { DecompressionStream?: unknown }).DecompressionStream).toBeUndefined();
    // And the document still reads (pdf.js inflates its streams itself).
    const file = path.join(tmp, 'natives.pdf');
    fs.writeFileSync(file, buildTextDocument(3));
    const result = await run(file, { mode: 'simple' });
    expect(result.totalPages).toBe(3);
    expect(result.markdown.length).toBeGreaterThan(100);
  });
});

describe('born-digital fixtures', () => {
  const similarities: Record<string, number> = {};
  afterAll(() => {
    console.log('PDF text similarity vs reference Markdown:', similarities);
  });

  // Floors measured on these fixtures (code_and_formula 0.983, picture_classification 1.000,
  // right_to_left_01 1.000), rounded down a little.
  it.each([
    ['code_and_formula', 0.975, 2],
    ['picture_classification', 0.99, 2],
    ['right_to_left_01', 0.995, 1],
  ])('%s.pdf reaches similarity ≥ %s with its reference', async (name, floor, pages) => {
    const result = await run(path.join(PDF_DIR, `${name}.pdf`));
    const reference = fs.readFileSync(path.join(PDF_DIR, `${name}.md`), 'utf8');
    const sim = textSimilarity(result.markdown, reference);
    similarities[name] = Number(sim.toFixed(4));
    expect(sim).toBeGreaterThanOrEqual(floor);
    expect(result.totalPages).toBe(pages);
    expect(result.metadata.total_pages).toBe(pages);
    expect(pageMarkers(result.markdown)).toEqual(Array.from({ length: pages }, (_, i) => `<!-- page ${i + 1} -->`));
    expect(result.markdown.startsWith('<!-- page 1 -->')).toBe(true);
    // No spurious tables from ordinary paragraphs, code listings or captions.
    expect(result.markdown).not.toMatch(/^\|.*\|$/m);
  });

  it('finds headings, re-flows paragraphs, joins hyphenated words and keeps the code listing', async () => {
    const { markdown, metadata } = await run(path.join(PDF_DIR, 'code_and_formula.pdf'));
    expect(markdown).toMatch(/^## JavaScript Code Example$/m);
    expect(markdown).toMatch(/^## Formula$/m);
    expect(markdown).toContain('sed diam nonumy eirmod tempor'); // "eir-" + "mod" at a line end
    expect(markdown).toContain('sed diam voluptua.');
    expect(markdown).not.toMatch(/eir- ?mod|volup- ?tua/);
    expect(markdown).toMatch(/```\nfunction add \(a , b \) \{\n {4}return a +\+ b ;\n\}\n/);
    // Page numbers in the margin are dropped.
    expect(markdown).not.toMatch(/^1$/m);
    expect(metadata.created_date).toBe('2025-02-05T21:14:25.000Z');
    expect(metadata.title).toBeUndefined(); // empty / missing strings are omitted
  });

  it('reads right-to-left text in logical order with the metadata author', async () => {
    const { markdown, metadata } = await run(path.join(PDF_DIR, 'right_to_left_01.pdf'));
    expect(markdown).toMatch(/^## تحسين الإنتاجية/m);
    expect(markdown).toContain('تعتبر البرمجة بلغة R و Python من الأدوات القوية');
    expect(metadata).toMatchObject({ author: 'Ahmad Jaber T Algadeeb', created_date: '2024-11-01T12:36:20.000Z' });
  });

  it('reports progress after every page', async () => {
    const progress: [number, number][] = [];
    await run(path.join(PDF_DIR, 'picture_classification.pdf'), { progress });
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });
});

describe('scanned PDF and OCR', () => {
  const scan = path.join(PDF_DIR, 'ocr_test.pdf');
  const reference = () => fs.readFileSync(path.join(PDF_DIR, 'ocr_test.md'), 'utf8').trim();

  it('leaves a page without text layer empty when no OCR service is available', async () => {
    const result = await run(scan, { mode: 'normal' });
    expect(result.markdown.trim()).toBe('<!-- page 1 -->');
    expect(result.totalPages).toBe(1);
  });

  it('normal mode OCRs the image-only page and uses its paragraphs', async () => {
    const text = `Docling bundles PDF document conversion to\nJSON and Markdown in an easy self con-\ntained package`;
    const ocr = new FakeOcr(() => ({ text, meanConfidence: 91, words: 15 }));
    const result = await run(scan, { mode: 'normal', options: { language: 'en' } }, ocr);
    expect(ocr.calls).toEqual([{ path: scan, page: 1, language: 'en' }]);
    expect(result.markdown).toContain('JSON and Markdown in an easy self contained package');
    const sim = textSimilarity(result.markdown, reference());
    console.log('ocr_test.pdf similarity with the fake OCR text:', sim.toFixed(4));
    expect(sim).toBeGreaterThanOrEqual(0.99);
  });

  it('simple mode never calls OCR', async () => {
    const ocr = new FakeOcr(() => ({ text: 'should not appear', meanConfidence: 95, words: 3 }));
    const result = await run(scan, { mode: 'simple' }, ocr);
    expect(ocr.calls).toHaveLength(0);
    expect(result.markdown).not.toContain('should not appear');
  });

  it('normal mode does not OCR pages with a usable text layer', async () => {
    const ocr = new FakeOcr(() => ({ text: 'should not appear', meanConfidence: 95, words: 3 }));
    await run(path.join(PDF_DIR, 'code_and_formula.pdf'), { mode: 'normal' }, ocr);
    expect(ocr.calls).toHaveLength(0);
  });

  it('normal mode leaves blank pages alone (no image, nothing to recognise)', async () => {
    const file = writePdf('blank.pdf', [{ texts: [] }, { texts: [{ x: 72, y: 700, text: 'Only the second page has text on it.' }] }]);
    const ocr = new FakeOcr(() => ({ text: 'phantom', meanConfidence: 95, words: 1 }));
    const result = await run(file, { mode: 'normal' }, ocr);
    expect(ocr.calls).toHaveLength(0);
    expect(result.markdown).toContain('Only the second page has text on it.');
  });

  it('advanced mode OCRs every page, keeps the text layer and adds text found only by OCR', async () => {
    const file = writePdf('advanced.pdf', [
      { texts: [{ x: 72, y: 720, text: 'Invoice summary', size: 16, font: 'bold' }, ...paragraph('The total amount due is listed below.', { x: 72, y: 690, width: 400 }).texts] },
      { texts: [], image: { x: 0, y: 0, w: 612, h: 792 } },
    ]);
    const ocr = new FakeOcr((page) =>
      page === 1
        ? { text: 'Invoice summary\n\nThe total amount due is listed below.\n\nAPPROVED stamp by the finance department', meanConfidence: 88, words: 16 }
        : { text: 'Scanned appendix page\nwith a signature', meanConfidence: 80, words: 6 },
    );
    const result = await run(file, { mode: 'advanced' }, ocr);
    expect(ocr.calls.map((c) => c.page)).toEqual([1, 2]);
    const [page1, page2] = result.markdown.split('<!-- page 2 -->');
    expect(page1).toMatch(/^## Invoice summary$/m); // structure from the text layer
    expect(page1.match(/The total amount due/g)).toHaveLength(1); // not duplicated by OCR
    expect(page1).toContain('APPROVED stamp by the finance department'); // only in the image
    expect(page2).toContain('Scanned appendix page with a signature');
  });

  it("keeps a scan's unsure reading (nothing better is there), each OCR'd page's confidence in the metadata", async () => {
    const ocr = new FakeOcr(() => ({ text: 'Rec. 14 Mai', meanConfidence: 22, words: 3, languages: ['eng'] }));
    const result = await run(scan, { mode: 'normal' }, ocr);
    expect(result.markdown).toContain('Rec. 14 Mai');
    expect(result.document?.metadata.ocr).toEqual({ engine: 'fake', pages: [{ page: 1, confidence: 22, words: 3, languages: ['eng'] }] });
  });

  it('adds no unsure reading to a usable text layer, and gives a document no OCR metadata when no page was read', async () => {
    const file = writePdf('unsure-advanced.pdf', [{ texts: paragraph('The text layer of this page is complete and needs nothing from the scan.', { x: 72, y: 700, width: 400 }).texts }]);
    const unsure = new FakeOcr(() => ({ text: 'Stamp reading noise here and there', meanConfidence: 30, words: 6 }));
    const result = await run(file, { mode: 'advanced' }, unsure);
    expect(result.markdown).not.toContain('Stamp reading');
    expect(result.document?.metadata.ocr).toEqual({ engine: 'fake', pages: [{ page: 1, confidence: 30, words: 6 }] });
    const none = await run(file, { mode: 'normal' }, unsure);
    expect(none.document?.metadata.ocr).toBeUndefined();
  });

  it('fails with OCR_FAILED when OCR finds no words on any page', async () => {
    const ocr = new FakeOcr(() => ({ text: '', meanConfidence: 0, words: 0 }));
    expect((await extractionError(run(scan, { mode: 'advanced' }, ocr))).code).toBe('OCR_FAILED');
  });

  it('keeps going when OCR throws on a page (that page stays empty)', async () => {
    const file = writePdf('mixed-scan.pdf', [
      { texts: [], image: { x: 0, y: 0, w: 612, h: 792 } },
      { texts: [{ x: 72, y: 700, text: 'A born-digital page with real text.' }] },
    ]);
    const ocr = new FakeOcr(() => new Error('engine crashed'));
    const result = await run(file, { mode: 'normal' }, ocr);
    expect(ocr.calls.map((c) => c.page)).toEqual([1]);
    expect(result.markdown).toMatch(/<!-- page 1 -->\n\n<!-- page 2 -->\n\nA born-digital page with real text\./);
  });

  it('fails with OCR_FAILED when OCR throws on every page of a scan', async () => {
    const ocr = new FakeOcr(() => new Error('engine crashed'));
    expect((await extractionError(run(scan, { mode: 'normal' }, ocr))).code).toBe('OCR_FAILED');
  });
});

describe('OCR merge rules', () => {
  const text = (t: string): Block => ({ kind: 'text', spans: [{ text: t, bold: false }], lines: 1, size: 10, bold: false, chars: t.length });

  it('calls a text layer unusable when it is (almost) empty or mostly garbage', () => {
    expect(textLayerUsable({ chars: 0, garbage: 0 })).toBe(false);
    expect(textLayerUsable({ chars: 9, garbage: 0 })).toBe(false);
    expect(textLayerUsable({ chars: 120, garbage: 0 })).toBe(true);
    expect(textLayerUsable({ chars: 120, garbage: 60 })).toBe(false); // U+FFFD, controls, private use
    expect(textLayerUsable({ chars: 120, garbage: 10 })).toBe(true);
  });

  it('re-flows OCR lines into paragraphs (or keeps them in layout mode)', () => {
    const out = 'First para-\ngraph line two\n\n\nSecond paragraph';
    expect(ocrBlocks(out, false).map((b) => (b.kind === 'text' ? b.spans[0].text : ''))).toEqual(['First paragraph line two', 'Second paragraph']);
    expect(ocrBlocks(out, true)).toEqual([
      { kind: 'raw', text: 'First para-\ngraph line two' },
      { kind: 'raw', text: 'Second paragraph' },
    ]);
  });

  it('keeps the text layer and appends only paragraphs it lacks', () => {
    const layer = [text('Annual revenue grew by twelve percent in the last fiscal year.')];
    const ocr = {
      text: 'Annual revenue grew by twelve percent\nin the last fiscal year.\n\nSigned and approved by the board of directors\n\nok',
      meanConfidence: 85,
      words: 20,
    };
    const merged = mergeOcr(layer, true, ocr, false);
    expect(merged).toHaveLength(2);
    expect(merged[0]).toBe(layer[0]);
    expect(merged[1]).toMatchObject({ kind: 'text', spans: [{ text: 'Signed and approved by the board of directors' }] });
    // Unusable layer: the OCR text is the page; low confidence: OCR is ignored.
    expect(mergeOcr([text('x')], false, ocr, false)).toHaveLength(3);
    expect(mergeOcr(layer, true, { ...ocr, meanConfidence: 30 }, false)).toBe(layer);
    // An unusable layer takes even an unsure reading: nothing better is there.
    expect(mergeOcr([text('x')], false, { ...ocr, meanConfidence: 30 }, false)).toHaveLength(3);
  });

  it('compares CJK text by character pairs', () => {
    const layer = [text('宮澤賢治の詩集です')];
    const ocr = { text: '宮澤賢治の詩集です\n\n春と修羅の序文より', meanConfidence: 80, words: 4 };
    const merged = mergeOcr(layer, true, ocr, false);
    expect(merged).toHaveLength(2);
    expect(merged[1]).toMatchObject({ spans: [{ text: '春と修羅の序文より' }] });
  });
});

describe('layout', () => {
  const LEFT = `Alpha column begins here and keeps going with ordinary words. ${words('left', 70)} Left column ends.`;
  const RIGHT = `Beta column follows on the right side of the page. ${words('right', 70)} Right column ends.`;

  function twoColumnPage(): PdfPageSpec {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Two Column Study', size: 18, font: 'bold' }];
    texts.push(...paragraph(LEFT, { x: 72, y: 700, width: 220 }).texts);
    texts.push(...paragraph(RIGHT, { x: 320, y: 700, width: 220 }).texts);
    texts.push({ x: 300, y: 40, text: '7', size: 9 });
    return { texts };
  }

  it('reads a two-column page column by column', async () => {
    const file = writePdf('two-columns.pdf', [twoColumnPage()]);
    const { markdown } = await run(file);
    const body = markdown.trim().split('\n\n');
    expect(body).toContain('## Two Column Study');
    const left = body.find((p) => p.startsWith('Alpha column begins'));
    const right = body.find((p) => p.startsWith('Beta column follows'));
    expect(left).toBe(`Alpha column begins here and keeps going with ordinary words. ${words('left', 70)} Left column ends.`);
    expect(right).toBe(`Beta column follows on the right side of the page. ${words('right', 70)} Right column ends.`);
    expect(markdown.indexOf('Left column ends.')).toBeLessThan(markdown.indexOf('Beta column follows'));
    expect(markdown).not.toMatch(/^\|/m);
    expect(markdown).not.toMatch(/^7$/m);
  });

  it('handles full-width parts between two- and three-column parts', async () => {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Mixed layout', size: 18, font: 'bold' }];
    const l = paragraph(`Left ${words('la', 60)}`, { x: 72, y: 700, width: 220 });
    const r = paragraph(`Right ${words('ra', 60)}`, { x: 320, y: 700, width: 220 });
    const f = paragraph(`Fullwidth ${words('fw', 45)}`, { x: 72, y: Math.min(l.y, r.y) - 20, width: 468 });
    texts.push(...l.texts, ...r.texts, ...f.texts);
    for (let c = 0; c < 3; c++) texts.push(...paragraph(`Col${c} ${words(`c${c}x`, 30)}`, { x: 72 + c * 160, y: f.y - 20, width: 140 }).texts);
    const { markdown } = await run(writePdf('mixed.pdf', [{ texts }]));
    const order = ['Left la0', 'la59', 'Right ra0', 'ra59', 'Fullwidth fw0', 'fw44', 'Col0 c0x0', 'c0x29', 'Col1 c1x0', 'c1x29', 'Col2 c2x0', 'c2x29'];
    const positions = order.map((s) => markdown.indexOf(s));
    expect(positions.every((p) => p >= 0)).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(markdown).toContain(`Fullwidth ${words('fw', 45)}`); // its short last line stays in the paragraph
    expect(markdown).not.toMatch(/^\|/m);
  });

  it('keeps a picture\'s caption and the text under it out of the column beside it, on the same baselines', async () => {
    const right = paragraph(`Beside ${words('br', 150)} ends.`, { x: 306, y: 700, width: 234 });
    // Picture on the left from 490 to 700; its caption and a paragraph under it, on the right column's baselines.
    const caption = paragraph('Figure 1: The pump station seen from the river, about 1920, with the engine house.', { x: 72, y: 700 - 12 * 19, width: 220 });
    const under = paragraph(`Under ${words('un', 30)} ends.`, { x: 72, y: caption.y - 6, width: 220 });
    const file = writePdf('picture-beside.pdf', [{ texts: [...right.texts, ...caption.texts, ...under.texts], image: { x: 72, y: 490, w: 220, h: 210 } }]);
    const { markdown } = await run(file);
    const body = markdown.trim().split('\n\n');
    expect(body).toContain(`Beside ${words('br', 150)} ends.`);
    expect(body).toContain('Figure 1: The pump station seen from the river, about 1920, with the engine house.');
    expect(body).toContain(`Under ${words('un', 30)} ends.`);
    expect(body.indexOf(`Under ${words('un', 30)} ends.`) - body.indexOf('Figure 1: The pump station seen from the river, about 1920, with the engine house.')).toBe(1);
  });

  it('reads two columns followed at line spacing by a full-width bulleted list', async () => {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Findings', size: 16, font: 'bold' }];
    const l = paragraph(`Left ${words('lc', 40)} ends here.`, { x: 72, y: 712, width: 222, leading: 12, gapAfter: 0 });
    const r = paragraph(`Right ${words('rc', 30)} ends here.`, { x: 316, y: 712, width: 222, leading: 12, gapAfter: 0 });
    texts.push(...l.texts, ...r.texts);
    // The list starts one line below the longer column: no gap sets it apart.
    let y = Math.min(l.y, r.y);
    for (let i = 1; i <= 6; i++) {
      texts.push({ x: 81, y, text: '•' }, { x: 99, y, text: `Item ${i} of a list as wide as the page, with enough words to run from margin to margin` });
      y -= 12;
    }
    texts.push(...paragraph(`Closing ${words('cl', 30)}`, { x: 72, y: y - 6, width: 468 }).texts);
    const { markdown } = await run(writePdf('columns-then-list.pdf', [{ texts }]));
    const body = markdown.trim().split('\n\n');
    expect(body).toContain(`Left ${words('lc', 40)} ends here.`);
    expect(body).toContain(`Right ${words('rc', 30)} ends here.`);
    const items = Array.from({ length: 6 }, (_, i) => `- Item ${i + 1} of a list as wide as the page, with enough words to run from margin to margin`);
    expect(body).toContain(items.join('\n'));
    const order = ['## Findings', 'Left lc0', 'Right rc0', '- Item 1', '- Item 6', 'Closing cl0'].map((s) => markdown.indexOf(s));
    expect(order.every((p) => p >= 0)).toBe(true);
    expect(order).toEqual([...order].sort((a, b) => a - b));
  });

  it('keeps a rule drawn with characters apart from the text around it, at even line spacing', async () => {
    const lines = [
      'I would blame the weather for it, the loss of my favourite hat,',
      'or the long road, but I was certainly not myself that evening.',
      '---------',
      'Dear Ser Jon,',
      'Your letter came with the morning post and was read at once.',
      '* * *',
      'The end of the second letter.',
    ];
    const texts: PdfText[] = lines.map((text, i) => ({ x: text.length < 12 ? 280 : 72, y: 720 - i * 12, text }));
    const { markdown } = await run(writePdf('text-rules.pdf', [{ texts }]));
    const body = markdown.trim().split('\n\n').slice(1);
    expect(body).toEqual([
      'I would blame the weather for it, the loss of my favourite hat, or the long road, but I was certainly not myself that evening.',
      '\\---------',
      'Dear Ser Jon, Your letter came with the morning post and was read at once.',
      '\\* * *',
      'The end of the second letter.',
    ]);
  });

  it('preserve_layout keeps lines and places the columns side by side', async () => {
    const file = writePdf('two-columns-layout.pdf', [twoColumnPage()]);
    const { markdown } = await run(file, { options: { preserve_layout: true } });
    expect(markdown).not.toContain('```');
    const lines = markdown.split('\n');
    const first = lines.find((l) => l.startsWith('Alpha column begins'))!;
    expect(first).toMatch(/^Alpha column begins .+ {3,}Beta column follows/);
    const leftStart = first.indexOf('Beta');
    const next = lines[lines.indexOf(first) + 1];
    // The right column starts at about the same character position on the next line.
    expect(Math.abs(next.search(/\S+ \S+ \S+$/) - leftStart)).toBeLessThan(40);
    expect(next.indexOf('right')).toBeGreaterThan(leftStart - 5);
  });

  it('renders bullet, numbered and nested lists', async () => {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Shopping list', size: 14, font: 'bold' }];
    let y = 715;
    const item = (marker: string, text: string, x: number) => {
      const p = paragraph(text, { x: x + 14, y, width: 300 });
      texts.push({ x, y, text: marker }, ...p.texts);
      y = p.y + 4;
    };
    item('•', 'Apples from the market', 72);
    item('•', 'Bread, preferably whole grain and sliced thin for sandwiches and toast in the morning before work', 72);
    item('–', 'Rye bread', 90);
    item('•', 'Milk', 72);
    texts.push(...paragraph('Then follow these steps in order:', { x: 72, y: y - 10, width: 400 }).texts);
    y -= 30;
    for (const [i, step] of ['Preheat the oven', 'Mix the dough', 'Bake for twenty minutes'].entries()) item(`${i + 1}.`, step, 72);
    item('a)', 'optional: add seeds', 72);
    item('b)', 'optional: add salt', 72);
    const { markdown } = await run(writePdf('lists.pdf', [{ texts }]));
    expect(markdown).toContain(
      [
        '- Apples from the market',
        '- Bread, preferably whole grain and sliced thin for sandwiches and toast in the morning before work',
        '  - Rye bread',
        '- Milk',
      ].join('\n'),
    );
    expect(markdown).toContain('1. Preheat the oven\n2. Mix the dough\n3. Bake for twenty minutes');
    expect(markdown).toContain('- a) optional: add seeds\n- b) optional: add salt');
    expect(markdown).toMatch(/^### Shopping list$|^## Shopping list$/m);
  });

  it('turns bold lines at body size into headings and keeps inline bold', async () => {
    const texts: PdfText[] = [
      { x: 72, y: 720, text: 'Background', size: 10, font: 'bold' },
      ...paragraph(`${words('intro', 40)} closing words.`, { x: 72, y: 704, width: 468 }).texts,
      { x: 72, y: 640, text: 'Note:', size: 10, font: 'bold' },
      { x: 102, y: 640, text: 'the values are preliminary.', size: 10 },
    ];
    const { markdown } = await run(writePdf('bold.pdf', [{ texts }]));
    expect(markdown).toMatch(/^#{2,4} Background$/m);
    expect(markdown).toContain('**Note:** the values are preliminary.');
  });

  it('reads pages with /Rotate and vertical Japanese text', async () => {
    const rotated = await run(path.join(BAD_DIR, 'rotation.pdf'));
    expect(rotated.markdown).toContain('This is my first page with normal layout. This is the second line on the page.');
    expect(rotated.markdown).toContain('This is my second page. It will have a landscape layout. Second line here.');
    const vertical = await run(path.join(BAD_DIR, 'vertical.pdf'));
    expect(vertical.totalPages).toBe(3);
    expect(vertical.markdown).toContain('あいうえお');
    expect(vertical.markdown).toContain('日本語');
  });

  it('extracts Japanese text in a non-embedded CJK font (jo.pdf, needs the CMaps)', async () => {
    const { markdown, totalPages } = await run(path.join(BAD_DIR, 'jo.pdf'));
    expect(totalPages).toBe(1);
    expect(markdown).toContain('わたくしといふ現象は');
    expect(markdown).toContain('宮澤賢治');
    // Vertical columns are read right to left: the first line of the poem comes first.
    expect(markdown.indexOf('わたくしといふ現象は')).toBeLessThan(markdown.indexOf('すべてこれらの命題は'));
    const japanese = markdown.match(/[\u3040-\u30ff\u4e00-\u9fff]/g) ?? [];
    expect(japanese.length).toBeGreaterThan(500);
  });

  it('drops running headers that carry the page number and keeps table-of-contents lines apart', async () => {
    const toc: PdfText[] = [{ x: 72, y: 720, text: 'Contents', size: 16, font: 'bold' }];
    ['1 Introduction', '2 Methods', '3 Results'].forEach((t, i) => toc.push({ x: 72, y: 690 - i * 14, text: `${t} . . . . . . . . . . . . . . ${i * 4 + 2}` }));
    const pages: PdfPageSpec[] = [{ texts: toc }];
    for (let p = 2; p <= 5; p++) {
      pages.push({
        texts: [
          { x: 72, y: 760, text: `Chapter ${p - 1}: Topic ${p - 1}`, size: 9 },
          { x: 520, y: 760, text: String(p - 1), size: 9 },
          ...paragraph(`${words(`p${p}w`, 60)}.`, { x: 72, y: 720, width: 468 }).texts,
        ],
      });
    }
    const { markdown } = await run(writePdf('headers.pdf', pages));
    expect(markdown).not.toMatch(/Chapter \d: Topic/);
    expect(markdown).toContain('\n\n1 Introduction . . . . . . . . . . . . . . 2\n\n2 Methods . . . . . . . . . . . . . . 6\n\n');
    expect(markdown).not.toMatch(/^#+ \d (Introduction|Methods)/m);
    for (let p = 2; p <= 5; p++) expect(markdown).toContain(`p${p}w0 p${p}w1`);
  });

  it('drops running headers and footers that repeat on every page', async () => {
    const pages: PdfPageSpec[] = [1, 2, 3].map((p) => ({
      texts: [
        { x: 72, y: 760, text: 'ACME Annual Report 2023', size: 8 },
        { x: 72, y: 720, text: `Chapter ${p}`, size: 16, font: 'bold' },
        ...paragraph(`${words(`p${p}w`, 50)}.`, { x: 72, y: 690, width: 468 }).texts,
        { x: 280, y: 40, text: `Page ${p} of 3`, size: 8 },
      ],
    }));
    const { markdown } = await run(writePdf('furniture.pdf', pages));
    expect(markdown).not.toContain('ACME Annual Report');
    expect(markdown).not.toMatch(/Page \d of 3/);
    expect(markdown.match(/^## Chapter \d$/gm)).toEqual(['## Chapter 1', '## Chapter 2', '## Chapter 3']);
  });
});

describe('tables', () => {
  function tablePage(): PdfPageSpec {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Results', size: 16, font: 'bold' }];
    texts.push(...paragraph('The table below lists the measured values for each sample in the study.', { x: 72, y: 715, width: 468 }).texts);
    const cols = [72, 200, 330, 460];
    const rowsY = [690, 670, 650, 630, 610];
    const data = [
      ['Sample', 'Weight (g)', 'Length | cm', 'Grade'],
      ['A-1', '12.5', '30', 'good'],
      ['B-2', '13.1', '28', 'fair'],
      ['C-3', '9.8', '31', 'poor'],
    ];
    const lines: PdfLine[] = [];
    for (const y of rowsY) lines.push({ x1: 72, y1: y, x2: 540, y2: y });
    for (const x of [...cols, 540]) lines.push({ x1: x, y1: rowsY[0], x2: x, y2: rowsY[rowsY.length - 1] });
    data.forEach((row, ri) => row.forEach((cell, ci) => texts.push({ x: cols[ci] + 4, y: rowsY[ri] - 14, text: cell, font: ri === 0 ? 'bold' : 'regular' })));
    texts.push(...paragraph('After the table comes a closing paragraph of ordinary text.', { x: 72, y: 585, width: 468 }).texts);
    return { texts, lines };
  }

  const GFM = [
    '| Sample | Weight (g) | Length \\| cm | Grade |',
    '| --- | --- | --- | --- |',
    '| A-1 | 12.5 | 30 | good |',
    '| B-2 | 13.1 | 28 | fair |',
    '| C-3 | 9.8 | 31 | poor |',
  ].join('\n');

  it('emits a bordered table as a GFM table in reading order', async () => {
    const { markdown } = await run(writePdf('bordered.pdf', [tablePage()]));
    expect(markdown).toContain(GFM);
    const i = markdown.indexOf('| Sample');
    expect(markdown.indexOf('The table below')).toBeLessThan(i);
    expect(markdown.indexOf('After the table comes')).toBeGreaterThan(i);
    expect(markdown).toMatch(/^After the table comes a closing paragraph of ordinary text\.$/m);
  });

  it('keeps bordered tables as GFM in preserve_layout mode', async () => {
    const { markdown } = await run(writePdf('bordered-layout.pdf', [tablePage()]), { options: { preserve_layout: true } });
    expect(markdown).toContain(GFM);
  });

  it('emits no table when extract_tables is false', async () => {
    const { markdown } = await run(writePdf('bordered-off.pdf', [tablePage()]), { options: { extract_tables: false } });
    expect(markdown).not.toContain('| --- |');
    expect(markdown).toContain('Sample');
    expect(markdown).toContain('C-3');
  });

  it('detects a borderless table with aligned columns (booktabs rules only)', async () => {
    const texts: PdfText[] = [...paragraph('Table 2 shows the quarterly revenue by region.', { x: 72, y: 720, width: 400 }).texts];
    const rows = [
      ['Region', 'Q1', 'Q2', 'Q3'],
      ['North', '1,200', '1,350', '1,410'],
      ['South', '980', '1,020', '1,100'],
      ['West', '2,010', '1,990', '2,200'],
    ];
    rows.forEach((row, ri) => row.forEach((c, ci) => texts.push({ x: ci === 0 ? 76 : 200 + ci * 60, y: 688 - ri * 18, text: c, font: ri === 0 ? 'bold' : 'regular' })));
    texts.push(...paragraph('Revenue grew in every region except the west.', { x: 72, y: 600, width: 400 }).texts);
    const lines: PdfLine[] = [
      { x1: 72, y1: 700, x2: 400, y2: 700, width: 1 },
      { x1: 72, y1: 682, x2: 400, y2: 682 },
      { x1: 72, y1: 626, x2: 400, y2: 626, width: 1 },
    ];
    const { markdown } = await run(writePdf('borderless.pdf', [{ texts, lines }]));
    expect(markdown).toContain(
      ['| Region | Q1 | Q2 | Q3 |', '| --- | --- | --- | --- |', '| North | 1,200 | 1,350 | 1,410 |', '| South | 980 | 1,020 | 1,100 |', '| West | 2,010 | 1,990 | 2,200 |'].join('\n'),
    );
  });

  it('does not turn a framed paragraph or a bullet list into a table', async () => {
    const texts: PdfText[] = [...paragraph(`Framed note: ${words('note', 60)}`, { x: 80, y: 700, width: 440 }).texts];
    let y = 600;
    for (const t of ['first point', 'second point', 'third point']) {
      texts.push({ x: 80, y, text: '•' }, { x: 110, y, text: t });
      y -= 14;
    }
    const rects = [{ x: 72, y: 640, w: 460, h: 75 }];
    const { markdown } = await run(writePdf('framed.pdf', [{ texts, rects }]));
    expect(markdown).not.toContain('| --- |');
    expect(markdown).toContain('- first point\n- second point\n- third point');
  });
});

describe('limits, cancellation and metadata', () => {
  it('refuses documents with more pages than maxPages before reading them', async () => {
    const progress: [number, number][] = [];
    const err = await extractionError(run(path.join(PDF_DIR, 'code_and_formula.pdf'), { maxPages: 1, progress }));
    expect(err.code).toBe('TOO_MANY_PAGES');
    expect(err.message).toContain('2');
    expect(err.message).toContain('1');
    expect(progress).toEqual([]);
  });

  it('stops with CANCELLED when the signal is already aborted', async () => {
    const ac = new AbortController();
    ac.abort();
    expect((await extractionError(run(path.join(PDF_DIR, 'code_and_formula.pdf'), { signal: ac.signal }))).code).toBe('CANCELLED');
  });

  it('stops with CANCELLED between pages when the signal aborts during the extraction', async () => {
    const ac = new AbortController();
    const file = path.join(tmp, 'cancel.pdf');
    fs.writeFileSync(file, buildTextDocument(20));
    const progress: [number, number][] = [];
    const inp = input(file, { signal: ac.signal, progress });
    inp.onProgress = (done, total) => {
      progress.push([done, total]);
      if (done === 3) ac.abort();
    };
    expect((await extractionError(extractPdf(inp, null))).code).toBe('CANCELLED');
    expect(progress).toHaveLength(3);
  });

  it('reads title, author and creation date (converted to UTC)', async () => {
    const file = writePdf('meta.pdf', [{ texts: [{ x: 72, y: 700, text: 'Hello metadata' }] }], {
      title: 'Quarterly Report',
      author: 'Jane Roe',
      creationDate: "D:20230101120000+01'00'",
    });
    const { metadata } = await run(file);
    expect(metadata).toEqual({ title: 'Quarterly Report', author: 'Jane Roe', created_date: '2023-01-01T11:00:00.000Z', total_pages: 1 });
    const empty = writePdf('meta-empty.pdf', [{ texts: [{ x: 72, y: 700, text: 'Hello' }] }], { title: '', author: ' ', creationDate: 'D:2023133' });
    expect((await run(empty)).metadata).toEqual({ total_pages: 1 });
  });

  it('parses PDF dates and rejects invalid ones', () => {
    expect(parsePdfDate("D:20230101120000+01'00'")).toBe('2023-01-01T11:00:00.000Z');
    expect(parsePdfDate("D:20230615083000-05'30'")).toBe('2023-06-15T14:00:00.000Z');
    expect(parsePdfDate('D:20250205211425Z')).toBe('2025-02-05T21:14:25.000Z');
    expect(parsePdfDate('D:2024')).toBe('2024-01-01T00:00:00.000Z');
    expect(parsePdfDate('20240229')).toBe('2024-02-29T00:00:00.000Z');
    expect(parsePdfDate('D:20230230120000')).toBeUndefined();
    expect(parsePdfDate('D:20231301')).toBeUndefined();
    expect(parsePdfDate('yesterday')).toBeUndefined();
    expect(parsePdfDate('')).toBeUndefined();
    expect(parsePdfDate(undefined)).toBeUndefined();
  });
});

describe('damaged, encrypted and unusual files', () => {
  const bad = fs.readdirSync(BAD_DIR).filter((f) => f.endsWith('.pdf'));

  it.each(bad)('%s ends with a result or an ExtractionError within a few seconds', async (name) => {
    const started = Date.now();
    let outcome: string;
    try {
      const result = await run(path.join(BAD_DIR, name));
      outcome = `completed, ${result.totalPages} page(s), ${result.markdown.length} chars`;
      expect(pageMarkers(result.markdown)).toHaveLength(result.totalPages);
    } catch (err) {
      expect(err).toBeInstanceOf(ExtractionError);
      outcome = `${(err as ExtractionError).code}: ${(err as Error).message}`;
    }
    const ms = Date.now() - started;
    console.log(`bad/${name}: ${outcome} (${ms} ms)`);
    expect(ms).toBeLessThan(5000);
  });

  it('reports password-protected PDFs as ENCRYPTED_DOCUMENT', async () => {
    for (const name of ['aes-256-r6.pdf', 'issue6010_1.pdf']) {
      const err = await extractionError(run(path.join(BAD_DIR, name)));
      expect(err.code).toBe('ENCRYPTED_DOCUMENT');
      expect(err.message).toMatch(/password-protected/);
    }
  });

  it('recovers the text of broken files that pdf.js can repair', async () => {
    expect((await run(path.join(BAD_DIR, 'issue1293r.pdf'))).markdown).toContain('Issue 1293');
    expect((await run(path.join(BAD_DIR, 'xref_command_missing.pdf'))).markdown).toContain('Reduced test-case');
  });

  it('reports files that are not PDFs at all as CORRUPT_DOCUMENT', async () => {
    const junk = path.join(tmp, 'junk.pdf');
    fs.writeFileSync(junk, Buffer.from('this is not a pdf at all, just some text bytes\n'.repeat(20)));
    const empty = path.join(tmp, 'empty.pdf');
    fs.writeFileSync(empty, Buffer.alloc(0));
    for (const file of [junk, empty]) {
      const err = await extractionError(run(file));
      expect(err.code).toBe('CORRUPT_DOCUMENT');
    }
  });

  it('reports a missing file as an ExtractionError', async () => {
    const err = await extractionError(run(path.join(tmp, 'does-not-exist.pdf')));
    expect(err.code).toBe('INTERNAL_ERROR');
  });
});

describe('a long document', () => {
  // Speed is measured by npm run bench:extract, not asserted here (timings depend on the machine).
  it('extracts a generated 100-page report with every page, heading and paragraph', async () => {
    const file = path.join(tmp, 'report-100.pdf');
    fs.writeFileSync(file, buildTextDocument(100));
    const result = await run(file);
    expect(result.totalPages).toBe(100);
    expect(pageMarkers(result.markdown)).toHaveLength(100);
    expect(result.markdown.match(/^## Section \d+: Quarterly results$/gm)).toHaveLength(100);
    expect(result.markdown).toContain('End of paragraph 4 on page 100.');
  });
});
