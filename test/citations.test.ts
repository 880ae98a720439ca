/**
 * Citations: chunks carry their page span, character span and the page regions they came from.
 * The regions are checked against sources independent of the extractor: the PDF's own text layer
 * as poppler's `pdftotext -bbox` reads it, and for images tesseract's word boxes.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chunkMarkdown, type Chunk, type ChunkingStrategy } from '@/lib/chunking';
import { LayoutBuilder, LayoutIndex, type ExtractionLayout } from '@/lib/document/layout';
import { createOcrService, createTesseractJsEngine } from '@/lib/extraction/ocr';
import { extractImage } from '@/lib/extraction/engine';
import { extractPdf } from '@/lib/extraction/engine';
import type { ExtractInput, ExtractionMode } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-citations-test-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function input(file: string, mimeType: string, mode: ExtractionMode): ExtractInput {
  return {
    path: file,
    mimeType,
    extension: path.extname(file),
    mode,
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => undefined,
    signal: new AbortController().signal,
    maxPages: 1000,
    tmpDir: tmp,
  };
}

interface Word {
  page: number;
  text: string;
  /** Centre, in page fractions. */
  cx: number;
  cy: number;
}

/** The words of a PDF's text layer with their positions, as poppler reads them. */
function popplerWords(file: string): Word[] {
  const html = execFileSync('pdftotext', ['-bbox', file, '-'], { encoding: 'utf8', maxBuffer: 64 << 20 });
  const words: Word[] = [];
  for (const [i, pageHtml] of html.split('<page ').slice(1).entries()) {
    const size = /^width="([\d.]+)" height="([\d.]+)"/.exec(pageHtml)!;
    let [width, height] = [Number(size[1]), Number(size[2])];
    const raw = [...pageHtml.matchAll(/<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">([^<]*)<\/word>/g)].map((m) => ({
      box: [m[1], m[2], m[3], m[4]].map(Number),
      text: m[5].replace(/&amp;/g, '&').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"'),
    }));
    // poppler gives a page turned by /Rotate its unturned size but places words as shown.
    if (raw.some((w) => w.box[2] > width + 1 || w.box[3] > height + 1)) [width, height] = [height, width];
    for (const w of raw) {
      const [x0, y0, x1, y1] = w.box;
      words.push({ page: i + 1, text: w.text, cx: (x0 + x1) / 2 / width, cy: (y0 + y1) / 2 / height });
    }
  }
  return words;
}

/** Tesseract's own word boxes for an image (the reading the extractor also does, parsed independently). */
function tesseractWords(file: string): Word[] {
  const tsv = execFileSync('tesseract', [file, '-', '--psm', '3', 'tsv'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  let width = 1;
  let height = 1;
  const words: Word[] = [];
  for (const row of tsv.split('\n')) {
    const c = row.split('\t');
    if (c[0] === '1') [width, height] = [Number(c[8]), Number(c[9])];
    if (c[0] !== '5' || !c[11]?.trim()) continue;
    const [l, t, w, h] = c.slice(6, 10).map(Number);
    words.push({ page: 1, text: c[11], cx: (l + w / 2) / width, cy: (t + h / 2) / height });
  }
  return words;
}

// Accents aside: a text layer may set "š" as "s" plus a spacing caron, which pdf.js and poppler join differently.
const letters = (s: string) =>
  s
    .normalize('NFKD')
    .toLowerCase()
    .replace(/[\p{M}\p{Lm}\p{Sk}]/gu, '')
    .replace(/[^\p{L}\p{N}]/gu, '');

/**
 * How well a chunk's boxes fit its text (the span of the Markdown it was taken from: a repeated
 * table header is not part of it): the share of its words (four letters or more) found among
 * the words whose centres lie in the boxes, and how many words the boxes hold.
 */
function fit(chunk: Chunk, markdown: string, words: Word[]) {
  const text = markdown.slice(chunk.metadata.char_start, chunk.metadata.char_end);
  const boxes = chunk.metadata.boxes ?? [];
  const eps = 0.002;
  const inside = words.filter((w) =>
    boxes.some((b) => b.page === w.page && w.cx >= b.x0 - eps && w.cx <= b.x1 + eps && w.cy >= b.y0 - eps && w.cy <= b.y1 + eps),
  );
  const hay = letters(inside.map((w) => w.text).join(''));
  // Words the two readers split or spell differently (formulas, sub- and superscripts) cannot be compared.
  const pages = new Set(boxes.map((b) => b.page));
  const known = letters(words.filter((w) => pages.has(w.page)).map((w) => w.text).join(''));
  const needles = text
    .split(/\s+/)
    .map(letters)
    .filter((w) => w.length >= 4 && known.includes(w));
  const covered = needles.filter((n) => hay.includes(n)).length;
  return { covered: needles.length ? covered / needles.length : 1, inside: inside.length, words: text.split(/\s+/).filter(Boolean).length };
}

const small: ChunkingStrategy = { type: 'paragraph', chunk_size: 64, overlap: 0 };
const fixed: ChunkingStrategy = { type: 'fixed', chunk_size: 96, overlap: 16 };

describe('chunk boxes of PDFs cover the words of their text (checked against poppler)', () => {
  for (const name of ['pdf/code_and_formula.pdf', 'ocr-more/multi-column.pdf', 'ocr-more/rotated-page-90.pdf', 'pdf/picture_classification.pdf']) {
    it(name, async () => {
      const file = path.join(FIXTURES_DIR, name);
      const result = await extractPdf(input(file, 'application/pdf', 'simple'), null);
      expect(result.layout?.pages.length).toBeGreaterThan(0);
      const words = popplerWords(file);
      for (const strategy of [small, fixed]) {
        const chunks = await chunkMarkdown(result.markdown, strategy, { layout: result.layout });
        expect(chunks.length).toBeGreaterThan(0);
        for (const chunk of chunks) {
          const { boxes, page, char_start, char_end } = chunk.metadata;
          expect(boxes?.length, chunk.content).toBeGreaterThan(0);
          for (const b of boxes!) {
            expect(b.x0).toBeGreaterThanOrEqual(0);
            expect(b.y0).toBeGreaterThanOrEqual(0);
            expect(b.x1).toBeLessThanOrEqual(1);
            expect(b.y1).toBeLessThanOrEqual(1);
            expect(b.x1).toBeGreaterThan(b.x0);
            expect(b.y1).toBeGreaterThan(b.y0);
          }
          expect(boxes![0].page).toBe(page);
          expect(char_end).toBeGreaterThan(char_start);
          const f = fit(chunk, result.markdown, words);
          expect(f.covered, `${strategy.type} chunk ${chunk.metadata.chunk_index}: ${chunk.content.slice(0, 80)}`).toBeGreaterThanOrEqual(0.9);
          // Line-level: a chunk's boxes hold its own lines, not whole paragraphs or pages (a
          // table whose rows do not match its source lines one to one is placed as a whole).
          const inTable = /(^|\n)\|/.test(result.markdown.slice(char_start, char_end));
          if (!inTable) expect(f.inside, `${strategy.type} chunk ${chunk.metadata.chunk_index}`).toBeLessThanOrEqual(f.words * 1.6 + 30);
        }
      }
    });
  }

  it('preserve_layout output is placed line by line as well', async () => {
    const file = path.join(FIXTURES_DIR, 'ocr-more/multi-column.pdf');
    const run = input(file, 'application/pdf', 'simple');
    run.options.preserve_layout = true;
    const result = await extractPdf(run, null);
    const words = popplerWords(file);
    const chunks = await chunkMarkdown(result.markdown, fixed, { layout: result.layout });
    for (const chunk of chunks) {
      expect(chunk.metadata.boxes?.length, chunk.content).toBeGreaterThan(0);
      expect(fit(chunk, result.markdown, words).covered, chunk.content).toBeGreaterThanOrEqual(0.9);
    }
  });

  it('a chunk that covers part of a paragraph gets that part, not the whole paragraph', async () => {
    const file = path.join(FIXTURES_DIR, 'pdf/code_and_formula.pdf');
    const result = await extractPdf(input(file, 'application/pdf', 'simple'), null);
    const chunks = await chunkMarkdown(result.markdown, { type: 'fixed', chunk_size: 64, overlap: 0 }, { layout: result.layout });
    // The first long paragraph (12 lines) is cut into several chunks: their boxes follow each other down the page.
    const inPara = chunks.filter((c) => c.content.includes('Lorem') && c.metadata.page === 1).slice(0, 3);
    expect(inPara.length).toBe(3);
    const heights = inPara.map((c) => c.metadata.boxes!.reduce((h, b) => h + (b.y1 - b.y0), 0));
    for (const h of heights) expect(h).toBeLessThan(0.12);
    expect(inPara[1].metadata.boxes![0].y0).toBeGreaterThan(inPara[0].metadata.boxes![0].y0);
  });
});

describe('chunk spans', () => {
  it('char_start/char_end point at the chunk text in the extraction Markdown, page_end when it spans pages', async () => {
    const file = path.join(FIXTURES_DIR, 'pdf/code_and_formula.pdf');
    const { markdown } = await extractPdf(input(file, 'application/pdf', 'simple'), null);
    const norm = (s: string) => s.replace(/<!-- page \d+ -->/g, ' ').replace(/\s+/g, ' ').trim();
    for (const strategy of [small, fixed, { type: 'paragraph', chunk_size: 2000, overlap: 0 } as ChunkingStrategy]) {
      const chunks = await chunkMarkdown(markdown, strategy);
      for (const c of chunks) {
        expect(norm(markdown.slice(c.metadata.char_start, c.metadata.char_end))).toBe(norm(c.content));
        if (markdown.slice(c.metadata.char_start, c.metadata.char_end).includes('<!-- page 2 -->')) expect(c.metadata.page_end).toBe(2);
        else expect(c.metadata.page_end).toBeUndefined();
      }
    }
  });

  it('offsets count in the Markdown as given, with CR line ends and a byte order mark', async () => {
    const md = '\uFEFF# Title\r\n\r\n<!-- page 1 -->\r\n\r\nFirst paragraph.\r\n\r\n<!-- page 2 -->\r\n\r\nSecond paragraph.\r\n';
    const chunks = await chunkMarkdown(md, { type: 'paragraph', chunk_size: 64, overlap: 0 });
    const spans = chunks.map((c) => md.slice(c.metadata.char_start, c.metadata.char_end));
    expect(spans.join('|')).toContain('First paragraph.');
    expect(spans[spans.length - 1].endsWith('Second paragraph.')).toBe(true);
  });

  it('documents without a layout get no boxes', async () => {
    const chunks = await chunkMarkdown('# A\n\nSome text here.\n', small);
    expect(chunks[0].metadata).not.toHaveProperty('boxes');
  });
});

describe('layout index', () => {
  it('unions the lines of one block and keeps blocks apart', () => {
    const md = 'aaaa bbbb\ncccc dddd\n\neeee';
    const b = new LayoutBuilder();
    b.add(1, md, 0, 19, [
      { chars: 8, box: [0.1, 0.1, 0.5, 0.12] },
      { chars: 8, box: [0.1, 0.13, 0.4, 0.15] },
    ]);
    b.add(1, md, 21, 25, [{ chars: 4, box: [0.1, 0.2, 0.3, 0.22] }]);
    const layout: ExtractionLayout = b.build();
    expect(layout.pages[0].blocks[0]).toEqual([
      [0, 9, 0.1, 0.1, 0.5, 0.12],
      [10, 19, 0.1, 0.13, 0.4, 0.15],
    ]);
    const index = new LayoutIndex(layout);
    expect(index.boxes(12, 23)).toEqual([
      { page: 1, x0: 0.1, y0: 0.13, x1: 0.4, y1: 0.15 },
      { page: 1, x0: 0.1, y0: 0.2, x1: 0.3, y1: 0.22 },
    ]);
    expect(index.boxes(0, 25)[0]).toEqual({ page: 1, x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.15 });
  });
});

describe('OCR', () => {
  it('image chunks get boxes over the words tesseract found', async () => {
    const file = path.join(FIXTURES_DIR, 'ocr/phototest.tif');
    const ocr = createOcrService({ ocr_provider: 'tesseract', extract_tables: true, preserve_layout: false }, tmp);
    try {
      const result = await extractImage(input(file, 'image/tiff', 'normal'), ocr);
      expect(result.layout?.pages.map((p) => p.page)).toEqual([1]);
      const words = tesseractWords(file);
      const chunks = await chunkMarkdown(result.markdown, { type: 'fixed', chunk_size: 64, overlap: 0 }, { layout: result.layout });
      expect(chunks.length).toBeGreaterThan(1);
      for (const chunk of chunks) {
        expect(chunk.metadata.boxes?.length).toBeGreaterThan(0);
        const f = fit(chunk, result.markdown, words);
        expect(f.covered, chunk.content).toBeGreaterThanOrEqual(0.9);
        expect(f.inside).toBeLessThanOrEqual(f.words * 1.6 + 20);
      }
    } finally {
      await ocr.close();
    }
  });

  it('tesseract.js reports line boxes too', async () => {
    const file = path.join(FIXTURES_DIR, 'ocr/phototest.tif');
    const ocr = createTesseractJsEngine(tmp);
    try {
      const result = await extractImage(input(file, 'image/tiff', 'normal'), ocr);
      const words = tesseractWords(file);
      const chunks = await chunkMarkdown(result.markdown, { type: 'fixed', chunk_size: 64, overlap: 0 }, { layout: result.layout });
      for (const chunk of chunks) {
        expect(chunk.metadata.boxes?.length).toBeGreaterThan(0);
        expect(fit(chunk, result.markdown, words).covered, chunk.content).toBeGreaterThanOrEqual(0.9);
      }
    } finally {
      await ocr.close();
    }
  });

  it('advanced mode (text layer merged with OCR) keeps the boxes', async () => {
    const file = path.join(FIXTURES_DIR, 'ocr-more/pdf-with-ocr-text.pdf');
    const ocr = createOcrService({ ocr_provider: 'tesseract', extract_tables: true, preserve_layout: false }, tmp);
    try {
      const result = await extractPdf(input(file, 'application/pdf', 'advanced'), ocr);
      const chunks = await chunkMarkdown(result.markdown, small, { layout: result.layout });
      expect(chunks.length).toBeGreaterThan(0);
      for (const chunk of chunks) expect(chunk.metadata.boxes?.length, chunk.content).toBeGreaterThan(0);
      // The text layer's source line sits at the foot of the page (poppler: y 381.7–390.0 of 393.1).
      const source = chunks.find((c) => c.content.includes('Source: https://www.industrydocuments'))!;
      const line = new LayoutIndex(result.layout!).boxes(result.markdown.indexOf('Source:'), result.markdown.indexOf('Source:') + 7);
      expect(line).toHaveLength(1);
      expect(line[0].y0).toBeCloseTo(381.658 / 393.12, 2);
      expect(source.metadata.boxes).toContainEqual(expect.objectContaining({ page: 1, y0: line[0].y0 }));
    } finally {
      await ocr.close();
    }
  });

  it('OCR of a scanned PDF page gives its chunks boxes', async () => {
    const file = path.join(FIXTURES_DIR, 'pdf/ocr_test.pdf');
    const ocr = createOcrService({ ocr_provider: 'tesseract', extract_tables: true, preserve_layout: false }, tmp);
    try {
      const result = await extractPdf(input(file, 'application/pdf', 'normal'), ocr);
      const chunks = await chunkMarkdown(result.markdown, small, { layout: result.layout });
      expect(chunks.length).toBeGreaterThan(0);
      for (const chunk of chunks) {
        expect(chunk.metadata.boxes?.length, chunk.content).toBeGreaterThan(0);
        for (const b of chunk.metadata.boxes!) expect(b.page).toBe(1);
      }
    } finally {
      await ocr.close();
    }
  });
});
