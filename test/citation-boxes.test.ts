import { describe, expect, it } from 'vitest';
import { citationBoxes, requestedSpan, type ExtractionLayout } from '@/components/citations/boxes';
import { originalKind } from '@/components/citations/kinds';
import { blockStarts, cutPassage } from '@/components/citations/passage';
import { spanOnPage, splitPages } from '@/components/extraction/markdown-pages';
import { extractionHref } from '@/components/search/links';

/** A line of text at [start, end) of the Markdown, printed between y0 and y1 across the page. */
const line = (start: number, end: number, y0: number, x0 = 0.1, x1 = 0.9) => ({ char_start: start, char_end: end, x0, y0, x1, y1: y0 + 0.02 });

/** Boxes with their fractions rounded, as positions on screen are (0.22 + 0.02 is 0.24000000000000002). */
const boxesOf = (...args: Parameters<typeof citationBoxes>) =>
  citationBoxes(...args).map((b) => ({ page: b.page, x0: round(b.x0), y0: round(b.y0), x1: round(b.x1), y1: round(b.y1) }));
const round = (n: number) => Math.round(n * 1e6) / 1e6;

const LAYOUT: Pick<ExtractionLayout, 'pages'> = {
  pages: [
    {
      page: 1,
      blocks: [
        // A heading, then a paragraph of three lines (the last one shorter).
        { char_start: 20, char_end: 40, x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.12, lines: [line(20, 40, 0.1, 0.1, 0.5)] },
        { char_start: 42, char_end: 120, x0: 0.1, y0: 0.2, x1: 0.9, y1: 0.26, lines: [line(42, 70, 0.2), line(71, 100, 0.22), line(101, 120, 0.24, 0.1, 0.4)] },
      ],
    },
    {
      page: 2,
      blocks: [
        { char_start: 150, char_end: 200, x0: 0.15, y0: 0.05, x1: 0.85, y1: 0.09, lines: [line(150, 175, 0.05, 0.15, 0.85), line(176, 200, 0.07, 0.15, 0.6)] },
        // A table whose lines are not listed: the block stands for them.
        { char_start: 210, char_end: 260, x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.5, lines: [] },
      ],
    },
  ],
};

describe('boxes of a cited passage', () => {
  it('joins the lines the passage touches into one box per block', () => {
    expect(boxesOf(LAYOUT, { from: 20, to: 100 })).toEqual([
      { page: 1, x0: 0.1, y0: 0.1, x1: 0.5, y1: 0.12 },
      { page: 1, x0: 0.1, y0: 0.2, x1: 0.9, y1: 0.24 },
    ]);
  });

  it('covers only the lines inside the span, even partly', () => {
    const [box] = boxesOf(LAYOUT, { from: 105, to: 110 });
    expect(box).toEqual({ page: 1, x0: 0.1, y0: 0.24, x1: 0.4, y1: 0.26 });
  });

  it('follows a passage onto the next page, and uses a block without lines whole', () => {
    const boxes = boxesOf(LAYOUT, { from: 101, to: 230 });
    expect(boxes.map((b) => b.page)).toEqual([1, 2, 2]);
    expect(boxes[1]).toEqual({ page: 2, x0: 0.15, y0: 0.05, x1: 0.85, y1: 0.09 });
    expect(boxes[2]).toEqual({ page: 2, x0: 0.1, y0: 0.3, x1: 0.9, y1: 0.5 });
  });

  it('treats the end as exclusive and finds nothing outside the text', () => {
    expect(boxesOf(LAYOUT, { from: 0, to: 20 })).toEqual([]);
    expect(boxesOf(LAYOUT, { from: 120, to: 150 })).toEqual([]);
    expect(boxesOf(LAYOUT, { from: 40, to: 40 })).toEqual([]);
    expect(boxesOf({ pages: [] }, { from: 0, to: 1000 })).toEqual([]);
    expect(boxesOf(undefined, { from: 0, to: 1000 })).toEqual([]);
  });

  it('keeps boxes on the page even when positions stray past its edges', () => {
    const stray: Pick<ExtractionLayout, 'pages'> = { pages: [{ page: 1, blocks: [{ char_start: 0, char_end: 5, x0: -0.1, y0: 0.9, x1: 1.2, y1: 1.05, lines: [] }] }] };
    expect(boxesOf(stray, { from: 0, to: 5 })).toEqual([{ page: 1, x0: 0, y0: 0.9, x1: 1, y1: 1 }]);
  });
});

describe('the passage in the address', () => {
  it('carries the span after the page and the searched words', () => {
    expect(extractionHref('ext_1', 2, 'salt', { from: 10, to: 42 })).toBe('/extractions/ext_1?page=2&q=salt&from=10&to=42');
    expect(extractionHref('ext_1', null, 'salt', { from: 0, to: 5 })).toBe('/extractions/ext_1?q=salt&from=0&to=5');
  });

  it('leaves out spans that are missing, empty or not offsets', () => {
    expect(extractionHref('ext_1', 2, 'salt', { from: undefined, to: 42 })).toBe('/extractions/ext_1?page=2&q=salt');
    expect(extractionHref('ext_1', 2, 'salt', { from: 9, to: 9 })).toBe('/extractions/ext_1?page=2&q=salt');
    expect(extractionHref('ext_1', 2, 'salt', { from: '1', to: 9 })).toBe('/extractions/ext_1?page=2&q=salt');
    expect(extractionHref('ext_1', 2, 'salt', { from: -1, to: 9 })).toBe('/extractions/ext_1?page=2&q=salt');
  });

  it('is read back only when both ends are offsets in order', () => {
    expect(requestedSpan('page=2&from=10&to=42')).toEqual({ from: 10, to: 42 });
    expect(requestedSpan('from=10')).toBeUndefined();
    expect(requestedSpan('from=42&to=10')).toBeUndefined();
    expect(requestedSpan('from=1e3&to=2000')).toBeUndefined();
    expect(requestedSpan('from=-1&to=5')).toBeUndefined();
  });
});

describe('the passage on a page of the text', () => {
  const markdown = 'Title line\n\n<!-- page 1 -->\n\nFirst page text.\n\n<!-- page 2 -->\n\nSecond page, first paragraph.\n\nSecond paragraph.\n';

  it('finds the part of a span of the whole Markdown on each page', () => {
    const pages = splitPages(markdown);
    const from = markdown.indexOf('first paragraph');
    const to = markdown.indexOf('Second paragraph') + 'Second paragraph'.length;
    expect(spanOnPage(pages[0]!, { from, to })).toBeUndefined();
    const on2 = spanOnPage(pages[1]!, { from, to })!;
    expect(pages[1]!.text.slice(on2.from, on2.to)).toBe('first paragraph.\n\nSecond paragraph');
  });

  it('maps text before the first page marker, which joins the first page', () => {
    const pages = splitPages(markdown);
    expect(pages[0]!.text).toBe('Title line\n\nFirst page text.');
    const from = markdown.indexOf('First page');
    const on1 = spanOnPage(pages[0]!, { from, to: from + 10 })!;
    expect(pages[0]!.text.slice(on1.from, on1.to)).toBe('First page');
    const title = spanOnPage(pages[0]!, { from: 0, to: 5 })!;
    expect(pages[0]!.text.slice(title.from, title.to)).toBe('Title');
  });

  it('cuts the page around the passage at whole blocks, never inside a code block or a list item', () => {
    const text = '# Title\nIntro\n\nOne\ntwo\n\n- a\n- b\n\n  more of b\n\n```\ncode\n\nstill code\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nLast';
    expect(blockStarts(text).map((at) => text.slice(at).split('\n')[0])).toEqual(['# Title', 'Intro', 'One', '- a', '```', '| a | b |', 'Last']);
    expect(cutPassage(text, { from: text.indexOf('two'), to: text.indexOf('more') + 2 })).toEqual({
      before: '# Title\nIntro',
      passage: 'One\ntwo\n\n- a\n- b\n\n  more of b',
      after: text.slice(text.indexOf('```')),
    });
    expect(cutPassage(text, { from: text.indexOf('still'), to: text.indexOf('still') + 5 })?.passage).toBe('```\ncode\n\nstill code\n```');
    expect(cutPassage(text, { from: text.indexOf('\n\nOne'), to: text.indexOf('\n\nOne') + 2 })).toBeUndefined();
  });
});

describe('which originals are shown beside the text', () => {
  it('draws PDFs, shows the pictures browsers can show, and says so for the others', () => {
    expect(originalKind('application/pdf')).toBe('pdf');
    expect(originalKind('image/png')).toBe('image');
    expect(originalKind('image/JPEG; charset=binary')).toBe('image');
    expect(originalKind('image/tiff')).toBe('unshown-image');
    expect(originalKind('image/heic')).toBe('unshown-image');
    expect(originalKind('text/markdown')).toBeNull();
    expect(originalKind(undefined)).toBeNull();
  });
});
