import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '@/lib/extraction/engine';
import type { Block } from '@/lib/extraction/pdf/layout/blocks';
import { isCaption, sectionNumber } from '@/lib/extraction/pdf/layout/titles';
import { planHeadings, sequencedNumbers } from '@/lib/extraction/pdf/model/headings';
import { findBorderlessTables, type TableLineLike } from '@/lib/extraction/pdf/tables/borderless';
import { textSimilarity } from '@/lib/extraction/quality';
import { headingRecall, tableCellF1 } from '@/lib/extraction/structure-quality';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildPdf, paragraph, type PdfPageSpec } from '@/test/support/pdf-fixture';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pdf-structure-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function extract(file: string): Promise<string> {
  const result = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
  return result.markdown;
}

type TextBlock = Extract<Block, { kind: 'text' }>;

function text(t: string, size = 10, bold = false, lines = 1): TextBlock {
  return { kind: 'text', spans: [{ text: t, bold }], lines, size, bold, chars: t.replace(/\s/g, '').length };
}

const BODY = 'Ordinary body text that carries most of the characters of the document, sentence after sentence.';

describe('heading detection (constructed blocks)', () => {
  it('reads section numbers of several kinds', () => {
    expect(sectionNumber('1.2 Scope')).toEqual({ kind: 'decimal', parts: ['1', '2'] });
    expect(sectionNumber('3. Results')).toEqual({ kind: 'decimal', parts: ['3'] });
    expect(sectionNumber('IV. EXPERIMENTS')).toEqual({ kind: 'roman', parts: ['IV'] });
    expect(sectionNumber('A.1 Proofs')).toEqual({ kind: 'letter', parts: ['A', '1'] });
    expect(sectionNumber('Chapter 3: Methods')).toEqual({ kind: 'word', parts: ['3'] });
    expect(sectionNumber('2021 was a good year')).toBeNull();
    expect(sectionNumber('Results')).toBeNull();
  });

  it('keeps numbers that form a sequence and rejects dates and lone numbers', () => {
    const n = (t: string) => sectionNumber(t);
    expect(sequencedNumbers([n('1 Introduction'), n('2 Methods'), n('2.1 Data'), n('2.2 Models')])).toEqual([true, true, true, true]);
    // Day numbers of dated entries are not consecutive; a lone "3 Results" has no sibling.
    expect(sequencedNumbers([n('16 Haring'), n('25 Haring'), n('3 Drakonis')])).toEqual([false, false, false]);
    expect(sequencedNumbers([n('3 Results')])).toEqual([false]);
    expect(sequencedNumbers([n('Chapter 7 Ends')])).toEqual([true]);
  });

  it('recognises captions', () => {
    expect(isCaption('Figure 3: Throughput')).toBe(true);
    expect(isCaption('Table 2. Results per format')).toBe(true);
    expect(isCaption('Tables of results')).toBe(false);
  });

  it('levels headings by size, bold body text and numbering depth, consistently across pages', () => {
    const title = text('Annual Report', 20, true);
    const h1 = text('1 Introduction', 14, true);
    const h11 = text('1.1 Scope', 10, true);
    const h12 = text('1.2 Method', 10, false); // numbered, set like the body
    const h2 = text('2 Results', 14, true);
    const h21 = text('2.1 Revenue', 10, true);
    const refs = text('References', 14, true); // un-numbered, set like the depth-1 headings
    const boldLabel = text('Key findings', 10, true);
    const caption = text('Figure 1: Revenue by year', 10, true);
    const sentence = text('1 The first step reads the file and checks its type.', 10, false);
    const pages: { blocks: Block[] }[] = [
      { blocks: [title, text(BODY), h1, text(BODY), h11, text(BODY), h12, text(BODY), caption] },
      { blocks: [h2, text(BODY), h21, text(BODY), boldLabel, text(BODY), sentence, refs, text(BODY)] },
    ];
    const plan = planHeadings(pages);
    expect(plan.level(title)).toBe(2);
    expect([h1, h2, refs].map((b) => plan.level(b))).toEqual([3, 3, 3]);
    expect([h11, h12, h21].map((b) => plan.level(b))).toEqual([4, 4, 4]);
    expect(plan.level(boldLabel)).toBe(4); // set like the numbered second level
    expect(plan.level(caption)).toBe(0);
    expect(plan.level(sentence)).toBe(0);
    expect(plan.level(pages[0].blocks[1] as TextBlock)).toBe(0);
  });

  it('rejects page labels, numbered running headers and table-of-contents entries', () => {
    const toc = ['1 Introduction', '2 Methods', '2.1 Data', '2.2 Models', '3 Results'].map((t) => text(t));
    const heads = ['1 Introduction', '2 Methods', '2.1 Data', '2.2 Models', '3 Results'].map((t) => text(t, 10, true));
    const running = [1, 2, 3].map(() => text('Chapter 3 Terminal Responses'));
    const label = text('page 7', 10, true);
    const pages: { blocks: Block[] }[] = [
      { blocks: [text('Contents', 14, true), ...toc] },
      { blocks: [running[0], heads[0], text(BODY), heads[1], text(BODY), heads[2], text(BODY), label] },
      { blocks: [running[1], heads[3], text(BODY), text(BODY)] },
      { blocks: [running[2], heads[4], text(BODY), text(BODY)] },
    ];
    const plan = planHeadings(pages);
    expect(toc.map((b) => plan.level(b))).toEqual([0, 0, 0, 0, 0]);
    expect(heads.map((b) => plan.level(b))).toEqual([3, 3, 4, 4, 3]);
    expect(running.map((b) => plan.level(b))).toEqual([0, 0, 0]);
    expect(plan.level(label)).toBe(0);
  });

  it('does not use bold when most of the document is bold', () => {
    const label = text('Short bold line', 10, true);
    const plan = planHeadings([{ blocks: [label, text(BODY, 10, true), text(BODY, 10, true)] }]);
    expect(plan.level(label)).toBe(0);
  });
});

function line(y: number, segs: [number, number, string][], size = 10): TableLineLike {
  return { y, size, excluded: false, segs: segs.map(([x0, x1, t]) => ({ x0, x1, text: t })) };
}

describe('borderless table detection (constructed lines)', () => {
  it('adds header lines, splits aligned header words and repeats a spanning header', () => {
    const lines = [
      line(90, [[300, 400, 'A paragraph line before the table that is long.']]),
      line(100, [[313, 360, 'Sim Loss'], [403, 493, 'Retrieval Accuracy']]),
      line(113, [[377, 520, 'Top-1 Top-5 Top-20 Top-100']]),
      line(131, [[339, 360, 'NLL'], [380, 399, '44.9'], [414, 433, '66.8'], [450, 469, '78.1'], [492, 511, '85.0']]),
      line(138, [[313, 327, 'DP']]),
      line(145, [[339, 368, 'Triplet'], [380, 399, '41.6'], [414, 433, '65.0'], [450, 469, '77.2'], [492, 511, '84.5']]),
      line(164, [[339, 360, 'NLL'], [380, 399, '43.5'], [414, 433, '64.7'], [450, 469, '76.1'], [492, 511, '83.1']]),
      line(171, [[313, 325, 'L2']]),
      line(178, [[339, 368, 'Triplet'], [380, 399, '42.2'], [414, 433, '66.0'], [450, 469, '78.1'], [492, 511, '84.9']]),
      line(200, [[300, 520, 'Table 6: Retrieval accuracy with different losses.']]),
    ];
    const found = findBorderlessTables(lines);
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({ start: 1, end: 8 });
    const span = 'Retrieval Accuracy';
    expect(found[0].rows).toEqual([
      ['Sim', 'Loss', span, span, span, span],
      ['', '', 'Top-1', 'Top-5', 'Top-20', 'Top-100'],
      ['DP', 'NLL', '44.9', '66.8', '78.1', '85.0'],
      ['DP', 'Triplet', '41.6', '65.0', '77.2', '84.5'],
      ['L2', 'NLL', '43.5', '64.7', '76.1', '83.1'],
      ['L2', 'Triplet', '42.2', '66.0', '78.1', '84.9'],
    ]);
  });

  it('joins a cell wrapped onto a second line and keeps a label row of its own', () => {
    const lines = [
      line(100, [[72, 120, 'Item'], [200, 240, 'Cost'], [300, 360, 'Note']]),
      line(112, [[72, 120, 'Rent'], [200, 240, '1200'], [300, 380, 'paid on the']]),
      line(124, [[300, 360, 'first day']]),
      line(136, [[72, 150, 'Other costs:']]),
      line(148, [[72, 120, 'Power'], [200, 240, '90'], [300, 360, 'estimate']]),
    ];
    expect(findBorderlessTables(lines)[0].rows).toEqual([
      ['Item', 'Cost', 'Note'],
      ['Rent', '1200', 'paid on the first day'],
      ['Other costs:', '', ''],
      ['Power', '90', 'estimate'],
    ]);
  });

  it('leaves prose in two columns, short label/value pairs and two-row two-column runs alone', () => {
    const prose = [0, 1, 2, 3].map((i) =>
      line(100 + 12 * i, [
        [72, 290, 'words of the left column running on and on'],
        [310, 530, 'words of the right column running on and on'],
      ]),
    );
    expect(findBorderlessTables(prose)).toEqual([]);
    const two = [line(100, [[72, 120, 'Name'], [200, 260, 'Quarry']]), line(112, [[72, 120, 'Version'], [200, 260, '1.0']])];
    expect(findBorderlessTables(two)).toEqual([]);
  });
});

describe('structure of real and generated documents', () => {
  it('finds every heading and table cell of the generated report', async () => {
    const report = buildStructuredReport();
    const file = path.join(tmp, 'report.pdf');
    fs.writeFileSync(file, report.pdf);
    const markdown = await extract(file);
    const headings = headingRecall(markdown, report.markdown);
    const tables = tableCellF1(markdown, report.markdown);
    // Measured: recall 1 (12/12), levels 1, table F1 1, similarity 1.
    expect(headings.recall).toBeGreaterThanOrEqual(1);
    expect(headings.levelAgreement).toBeGreaterThanOrEqual(1);
    expect(headings.precision).toBeGreaterThanOrEqual(1);
    expect(tables.f1).toBeGreaterThanOrEqual(0.98);
    expect(textSimilarity(markdown, report.markdown)).toBeGreaterThanOrEqual(0.98);
    // Running header and "Page N of M" footer are gone; captions stay paragraphs.
    expect(markdown).not.toContain('Quarry Technical Report');
    expect(markdown).not.toMatch(/Page \d of \d/);
    expect(markdown).toMatch(/^Table 1: Revenue by region and quarter\.$/m);
    expect(markdown).toMatch(/^Figure 1: Throughput over the last six releases\.$/m);
  });

  it.each([
    ['code_and_formula', 1],
    ['picture_classification', 1],
  ])('%s.pdf: heading recall ≥ %s against its reference', async (name, floor) => {
    const markdown = await extract(path.join(FIXTURES_DIR, 'pdf', `${name}.pdf`));
    const reference = fs.readFileSync(path.join(FIXTURES_DIR, 'pdf', `${name}.md`), 'utf8');
    const h = headingRecall(markdown, reference);
    expect(h.recall).toBeGreaterThanOrEqual(floor);
    expect(h.precision).toBeGreaterThanOrEqual(1);
  });

  it('multi-column.pdf (a two-column paper): numbered headings and booktabs tables', async () => {
    const markdown = await extract(path.join(FIXTURES_DIR, 'ocr-more', 'multi-column.pdf'));
    const headings = markdown.match(/^#{1,6} .*$/gm) ?? [];
    for (const h of ['### 1 Introduction', '### 2 Background', '#### 3.1 Overview', '#### 5.4 Run-time Efficiency', '### 8 Conclusion'])
      expect(headings).toContain(h);
    expect(headings).toContain('### B Alternative Similarity Functions & Triplet Loss');
    expect(headings).toContain('### References');
    expect(headings.some((h) => h.includes('Ledell Wu'))).toBe(false); // the author line
    // Table 1: "Train" over two columns, rows set tighter than the larger text beside the table.
    // "Train" spans its two columns: written once.
    expect(markdown).toContain('| Dataset | Train |  | Dev | Test |');
    expect(markdown).toContain('| WebQuestions | 3,417 | 2,474 | 361 | 2,032 |\n| CuratedTREC | 1,353 | 1,125 | 133 | 694 |');
    // Table 5 (header line set tighter than the body) and Table 6 (spanning header, row labels).
    expect(markdown).toContain('|  | Top-1 | Top-5 | Top-20 | Top-100 |\n| --- | --- | --- | --- | --- |\n| Gold | 44.9 | 66.8 | 78.1 | 85.0 |');
    // "L2" is centred on its two rows: written once, in the first.
    expect(markdown).toContain('| L2 | NLL | 43.5 | 64.7 | 76.1 | 83.1 |\n|  | Triplet | 42.2 | 66.0 | 78.1 | 84.9 |');
    expect(markdown).toMatch(/^Table 5: Retrieval accuracy/m);
    // No heading made of table cells or of the rotated arXiv stamp.
    expect(headings.some((h) => /Top-1|arXiv/.test(h))).toBe(false);
  });
});

describe('ruled tables', () => {
  it('splits a table ruled between columns but not between rows into its rows', async () => {
    const xs = [72, 250, 350, 450, 540];
    const data = [
      ['Item', '2022', '2023', 'Change'],
      ['Revenue', '1,200', '1,350', '12.5%'],
      ['Cost of sales', '800', '850', '6.3%'],
      ['Gross profit', '400', '500', '25.0%'],
      ['Operating costs', '250', '260', '4.0%'],
      ['Net income', '150', '240', '60.0%'],
    ];
    const texts = data.flatMap((row, ri) => row.map((cell, ci) => ({ x: xs[ci] + 4, y: 700 - ri * 14 - (ri > 0 ? 6 : 0), text: cell, size: 9 })));
    // Rules: a box, the column rules, one rule under the header; none between the body rows.
    const lines = [
      { x1: 72, y1: 712, x2: 540, y2: 712 },
      { x1: 72, y1: 692, x2: 540, y2: 692 },
      { x1: 72, y1: 610, x2: 540, y2: 610 },
      ...xs.map((x) => ({ x1: x, y1: 712, x2: x, y2: 610 })),
    ];
    const file = path.join(tmp, 'column-ruled.pdf');
    fs.writeFileSync(file, buildPdf([{ texts: [...paragraph('The statement below compares two years.', { x: 72, y: 740, width: 468 }).texts, ...texts], lines }]));
    const markdown = await extract(file);
    const expected = ['| Item | 2022 | 2023 | Change |', '| --- | --- | --- | --- |', ...data.slice(1).map((r) => `| ${r.join(' | ')} |`)].join('\n');
    expect(markdown).toContain(expected);
  });
});

describe('running headers and footers', () => {
  it('drops a two-line running header and the page number, keeps text that repeats in the body', async () => {
    const pages: PdfPageSpec[] = [1, 2, 3, 4].map((p) => ({
      texts: [
        { x: 72, y: 765, text: 'Journal of Document Engineering', size: 8 },
        { x: 72, y: 755, text: `Vol. 12, No. ${p}`, size: 8 },
        ...paragraph(`Section text of page ${p} with enough words to be a paragraph. See the summary.`, { x: 72, y: 700, width: 468 }).texts,
        { x: 72, y: 660, text: 'See the summary.', size: 10 },
        { x: 300, y: 40, text: String(p), size: 9 },
      ],
    }));
    const file = path.join(tmp, 'header.pdf');
    fs.writeFileSync(file, buildPdf(pages));
    const markdown = await extract(file);
    expect(markdown).not.toContain('Journal of Document Engineering');
    expect(markdown).not.toMatch(/Vol\. 12/);
    expect(markdown).not.toMatch(/^\d$/m);
    expect(markdown.match(/^See the summary\.$/gm)).toHaveLength(4);
  });
});
