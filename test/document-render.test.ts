/**
 * The one renderer (lib/document/render.ts) and its escaping: what each block type writes, the
 * table rule (a spanning cell once, covered positions empty), and where the layout record puts
 * the written text.
 */
import { describe, expect, it } from 'vitest';
import { escapeInline, escapeLineStart } from '@/lib/document/escape';
import { renderDocument, renderMarkdown } from '@/lib/document/render';
import { TABLE_LIMITS } from '@/lib/document/settings';
import { tableGrid } from '@/lib/document/table-grid';
import type { Block, Inline, QuarryDocument, SourceLine, Table, TableCell } from '@/lib/document/types';

const text = (t: string, marks: Omit<Extract<Inline, { type: 'text' }>, 'type' | 'text'> = {}): Inline => ({ type: 'text', text: t, ...marks });
const p = (t: string): Block => ({ type: 'paragraph', content: [text(t)] });
const doc = (...blocks: Block[]): QuarryDocument => ({ version: 1, metadata: {}, blocks });
const md = (...blocks: Block[]) => renderMarkdown(doc(...blocks));
const cell = (t: string, spans: Partial<Pick<TableCell, 'row_span' | 'col_span'>> = {}): TableCell => ({ content: t ? [text(t)] : [], ...spans });

describe('escaping', () => {
  it('escapes only what a Markdown reader would take as markup', () => {
    expect(escapeInline('snake_case and 5 * 3 and [1] and a ~ b')).toBe('snake_case and 5 * 3 and [1] and a ~ b');
    expect(escapeInline('*bold* _it_ `code` ~~gone~~')).toBe('\\*bold\\* \\_it\\_ \\`code\\` \\~\\~gone\\~\\~');
    expect(escapeInline('[text](http://x) and [a]: b')).toBe('[text\\](http://x) and [a\\]: b');
    expect(escapeInline('<b>x</b> a < b &amp; c & d')).toBe('\\<b>x\\</b> a < b \\&amp; c & d');
    expect(escapeInline('C:\\path and \\*')).toBe('C:\\path and \\\\\\*');
    expect(escapeInline('a ~b~ c, about ~5 km, a ~ b')).toBe('a \\~b\\~ c, about \\~5 km, a ~ b');
    expect(escapeInline('costs $x$ here, $5 and $10, US$5')).toBe('costs \\$x\\$ here, $5 and $10, US$5');
  });

  it('keeps a line from starting a block', () => {
    for (const [line, escaped] of [
      ['# title', '\\# title'],
      ['> quote', '\\> quote'],
      ['- item', '\\- item'],
      ['12. item', '12\\. item'],
      ['```', '\\```'],
      ['---', '\\---'],
      ['| a |', '\\| a |'],
      ['-5 degrees', '-5 degrees'],
      ['#hashtag', '#hashtag'],
      ['-|-', '\\-|-'],
      [':--- | ---:', '\\:--- | ---:'],
      ['a-b|c', 'a-b|c'],
    ]) {
      expect(escapeLineStart(line)).toBe(escaped);
    }
  });
});

describe('blocks', () => {
  it('writes headings, paragraphs with marks, code, quotes, formulas, rules and footnotes', () => {
    expect(
      md(
        { type: 'heading', level: 2, content: [text('Results '), text('now', { bold: true })] },
        { type: 'paragraph', content: [text('A '), text('bold ', { bold: true }), text('word', { italic: true }), text(' and '), text('x', { code: true, href: 'https://x.example/a b' })] },
        { type: 'code', text: 'const a = "```";\n', language: 'ts' },
        { type: 'code', text: 'Fenced inside:\n```\nx\n```' },
        { type: 'quote', content: [p('one'), p('two')] },
        { type: 'formula', latex: 'a^2 + b^2' },
        { type: 'rule' },
        { type: 'footnote', label: '1', content: [p('A note.')] },
      ),
    ).toBe(
      [
        '## Results **now**',
        'A **bold** *word* and [`x`](https://x.example/a%20b)',
        // A fence closes only at a line's start: a longer one only when the code has such a line.
        '```ts\nconst a = "```";\n```',
        '````\nFenced inside:\n```\nx\n```\n````',
        '> one\n>\n> two',
        '$$\na^2 + b^2\n$$',
        '---',
        '[^1]: A note.',
      ].join('\n\n') + '\n',
    );
  });

  it('drops unsafe links and keeps the text', () => {
    expect(md({ type: 'paragraph', content: [text('click', { href: 'javascript:alert(1)' })] })).toBe('click\n');
  });

  it('indents nested lists to the text of their item and keeps numbers and labels', () => {
    const list: Block = {
      type: 'list',
      ordered: true,
      start: 3,
      items: [
        { content: [p('Three'), { type: 'list', ordered: false, items: [{ content: [p('nested')], label: 'a)' }] }] },
        { content: [p('Five')], number: 5 },
        { content: [p('Done')], checked: true },
      ],
    };
    expect(md(list)).toBe('3. Three\n   - a) nested\n5. Five\n5. [x] Done\n');
  });

  it('starts each paged section with its page marker and ends the Markdown with one newline', () => {
    const pages = doc(
      { type: 'section', kind: 'page', page: 1, content: [p('First')] },
      { type: 'section', kind: 'page', page: 2, content: [] },
      { type: 'section', kind: 'attachment', name: 'a.txt', content: [p('Inside')] },
    );
    expect(renderMarkdown(pages)).toBe('<!-- page 1 -->\n\nFirst\n\n<!-- page 2 -->\n\nInside\n');
    expect(renderMarkdown(doc())).toBe('');
  });
});

describe('tables', () => {
  const spanning: Table = {
    type: 'table',
    header_rows: 2,
    rows: [
      [cell('Region', { row_span: 2 }), cell('Revenue', { col_span: 2 }), cell('Notes', { row_span: 2 })],
      [cell('Q1'), cell('Q2')],
      [cell('North'), cell('1|2'), cell('3'), cell('A *big* year')],
    ],
  };

  it('writes a spanning cell once and leaves the positions it covers empty', () => {
    expect(md(spanning)).toBe(
      ['| Region | Revenue |  | Notes |', '| --- | --- | --- | --- |', '|  | Q1 | Q2 |  |', '| North | 1\\|2 | 3 | A \\*big\\* year |'].join('\n') + '\n',
    );
    const grid = tableGrid(spanning, TABLE_LIMITS);
    expect(grid.width).toBe(4);
    expect(grid.rows.map((r) => r.map((c) => (c ? 'x' : '.')).join(''))).toEqual(['xx.x', '.xx.', 'xxxx']);
  });

  it('writes a caption above and cuts a table over the cell limit with a note', () => {
    const big: Table = { type: 'table', header_rows: 1, caption: [text('Table 1: sizes')], rows: Array.from({ length: 5 }, (_, i) => [cell(`r${i}`), cell(String(i))]) };
    expect(md(big).startsWith('Table 1: sizes\n\n| r0 | 0 |')).toBe(true);
    const grid = tableGrid(big, { columns: 10, cells: 6 });
    expect([grid.keptRows, grid.totalRows]).toEqual([3, 5]);
    expect(md({ ...big, caption: undefined, total_rows: 9 })).toContain('*The table is truncated: only its first 5 of 9 rows were extracted.*');
  });
});

describe('the layout record', () => {
  const line = (chars: number, y: number): SourceLine => ({ chars, box: [0.1, y, 0.9, y + 0.02] });

  it('places a paragraph, each list item from its marker on, and a table row by row', () => {
    const rendered = renderDocument(
      doc({
        type: 'section',
        kind: 'page',
        page: 1,
        content: [
          { type: 'paragraph', content: [text('Hello world')], prov: { page: 1, lines: [line(10, 0.1)] } },
          { type: 'list', ordered: false, items: [{ content: [p('Apples')], prov: { page: 1, lines: [line(6, 0.2)] } }, { content: [p('Pears')], prov: { page: 1, lines: [line(5, 0.3)] } }] },
          { type: 'table', header_rows: 1, rows: [[cell('a'), cell('b')], [cell('c'), cell('d')]], prov: { page: 1, lines: [line(2, 0.4), line(2, 0.5)] } },
        ],
      }),
    );
    const { markdown, layout } = rendered;
    const spans = layout.pages[0].blocks.map((b) => b.map((l) => markdown.slice(l[0], l[1])));
    expect(spans).toEqual([['Hello world'], ['- Apples'], ['- Pears'], ['| a | b |', '| c | d |']]);
    expect(layout.pages[0].blocks[3][1].slice(2)).toEqual([0.1, 0.5, 0.9, 0.52]);
  });

  it('moves positions inside a quote with its prefixes, blank lines included', () => {
    const { markdown, layout } = renderDocument(
      doc({ type: 'section', kind: 'page', page: 1, content: [{ type: 'quote', content: [p('one'), { type: 'paragraph', content: [text('two')], prov: { page: 1, lines: [line(3, 0.1)] } }] }] }),
    );
    const [[l]] = layout.pages[0].blocks;
    expect(markdown.slice(l[0], l[1])).toBe('two');
  });
});
