/**
 * Chunking reads the document model: blocks placed in the Markdown by their spans (the
 * renderer's for extracted formats, the Markdown parser's for Markdown and text files), so
 * headings, table header rows, list items and lead-ins come from the model, not from guessing at
 * Markdown lines.
 */
import { describe, expect, it } from 'vitest';
import { chunkMarkdown, countTokens, type Chunk, type ChunkingStrategy } from '@/lib/chunking';
import { chunkSource } from '@/lib/chunking/source';
import { documentFromMarkdown } from '@/lib/document/from-markdown';
import { documentFromPlainText } from '@/lib/document/from-text';
import { renderDocument } from '@/lib/document/render';
import { servedDocument } from '@/lib/document/serve';
import type { Block, Inline, QuarryDocument, TableCell } from '@/lib/document/types';

const paragraph = (chunk_size: number): ChunkingStrategy => ({ type: 'paragraph', chunk_size, overlap: 0 });
const text = (t: string): Inline[] => [{ type: 'text', text: t }];
const cell = (t: string, extra: Partial<TableCell> = {}): TableCell => ({ content: text(t), ...extra });
const para = (t: string): Block => ({ type: 'paragraph', content: text(t) });

/** The model as an extraction serves and stores it (with its blocks' spans), and its Markdown. */
function extracted(blocks: Block[]): { markdown: string; document: QuarryDocument } {
  const doc: QuarryDocument = { version: 1, metadata: {}, blocks };
  const rendered = renderDocument(doc);
  return { markdown: rendered.markdown, document: servedDocument(doc, rendered.spans) };
}

function expectWithin(chunks: Chunk[], size: number): void {
  for (const c of chunks) {
    expect(c.tokenCount).toBe(countTokens(c.content));
    expect(c.tokenCount).toBeLessThanOrEqual(size);
  }
}

const sentence = (i: number) => `Sentence number ${i} says something about the quarterly figures of the northern region.`;

describe('spans: where the model is in the Markdown', () => {
  it('the renderer gives every top-level block, section and list item its span in the Markdown', () => {
    const { markdown, document } = extracted([
      { type: 'heading', level: 1, content: text('Report') },
      { type: 'section', kind: 'page', page: 1, content: [para('First page text.'), { type: 'list', ordered: false, items: [{ content: [para('one')] }, { content: [para('two')] }] }] },
      { type: 'section', kind: 'page', page: 2, content: [{ type: 'table', header_rows: 1, rows: [[cell('a'), cell('b')], [cell('1'), cell('2')]] }] },
    ]);
    const [heading, page1, page2] = document.blocks;
    const slice = (b: { prov?: { span?: [number, number] } }) => markdown.slice(b.prov!.span![0], b.prov!.span![1]);
    expect(slice(heading)).toBe('# Report');
    expect(slice(page1)).toBe('<!-- page 1 -->\n\nFirst page text.\n\n- one\n- two');
    expect(page1.type === 'section' && page1.content.map(slice)).toEqual(['First page text.', '- one\n- two']);
    const list = page1.type === 'section' ? page1.content[1] : null;
    expect(list?.type === 'list' && list.items.map(slice)).toEqual(['- one', '- two']);
    expect(page2.type === 'section' && slice(page2.content[0])).toBe('| a | b |\n| --- | --- |\n| 1 | 2 |');
  });

  it('the Markdown parser gives a Markdown file’s blocks their spans in the file’s own text', () => {
    const md = '# Title\r\n\r\nSome *text*\r\nover two lines.\r\n\r\n  - a\r\n  - b\r\n\r\n<!-- page 2 -->\r\n\r\n| x |\r\n|---|\r\n| 1 |\r\n';
    const doc = documentFromMarkdown(md, {}, { spans: true });
    const spans = (blocks: Block[]): string[] => blocks.flatMap((b) => [md.slice(...b.prov!.span!), ...(b.type === 'section' ? spans(b.content) : [])]);
    expect(spans(doc.blocks)).toEqual(['# Title', 'Some *text*\r\nover two lines.', '- a\r\n  - b', '<!-- page 2 -->\r\n\r\n| x |\r\n|---|\r\n| 1 |', '| x |\r\n|---|\r\n| 1 |']);
    const txt = 'one line\n\n\n  two\n  lines  \n';
    expect(documentFromPlainText(txt, {}, { spans: true }).blocks.map((b) => txt.slice(...b.prov!.span!))).toEqual(['one line', 'two\n  lines']);
  });

  it('a Markdown file’s chunks are read by those spans: their offsets give their text back', async () => {
    const md = ['# Guide', '', ...Array.from({ length: 12 }, (_, i) => `${sentence(i)}\n`), '## Steps', '', '- first', '- second', ''].join('\n');
    const chunks = await chunkMarkdown(md, paragraph(64), { document: documentFromMarkdown(md, {}, { spans: true }) });
    expectWithin(chunks, 64);
    for (const c of chunks) expect(md.slice(c.metadata.char_start, c.metadata.char_end)).toBe(c.content);
  });
});

describe('chunks from the model', () => {
  it('a heading path is the headings’ text, marks and escapes aside', async () => {
    const { markdown, document } = extracted([
      { type: 'heading', level: 1, content: [{ type: 'text', text: 'Annual ' }, { type: 'text', text: 'report', bold: true }] },
      { type: 'heading', level: 2, content: text('Costs_and *risks*') },
      para('Costs were stable.'),
    ]);
    expect(markdown).toContain('# Annual **report**');
    const chunks = await chunkMarkdown(markdown, paragraph(64), { document });
    expect(chunks.map((c) => c.metadata.section)).toEqual(['Annual report > Costs_and *risks*']);
  });

  it('a table fits whole in one chunk when it is within chunk_size', async () => {
    const rows = [[cell('Region'), cell('Sales')], ...Array.from({ length: 6 }, (_, i) => [cell(`R${i}`), cell(String(i * 10))])];
    const { markdown, document } = extracted([para('Before the table.'), { type: 'table', header_rows: 1, rows }, para('After the table.')]);
    const chunks = await chunkMarkdown(markdown, paragraph(256), { document });
    const holding = chunks.filter((c) => c.content.includes('| R'));
    expect(holding).toHaveLength(1);
    expect(holding[0].content).toContain('| Region | Sales |\n| --- | --- |\n| R0 | 0 |');
    expect(holding[0].content).toContain('| R5 | 50 |');
  });

  it('a table over chunk_size is split by rows, each part with its caption and all its header rows', async () => {
    const header = [
      [cell('Country', { row_span: 2 }), cell('Population', { col_span: 2 })],
      [cell('2010'), cell('2020')],
    ];
    const body = Array.from({ length: 40 }, (_, i) => [cell(`Country number ${i}`), cell(String(1000 + i)), cell(String(2000 + i))]);
    const { markdown, document } = extracted([
      { type: 'table', header_rows: 2, caption: text('Table 4: Population by country'), rows: [...header, ...body] },
    ]);
    const chunks = await chunkMarkdown(markdown, paragraph(96), { document });
    expectWithin(chunks, 96);
    expect(chunks.length).toBeGreaterThan(3);
    const head = 'Table 4: Population by country\n\n| Country | Population |  |\n| --- | --- | --- |\n|  | 2010 | 2020 |';
    for (const c of chunks) expect(c.content.startsWith(`${head}\n| Country number `)).toBe(true);
    // Every body row once, in order.
    const rows = chunks.flatMap((c) => c.content.slice(head.length + 1).split('\n'));
    expect(rows).toEqual(body.map((_, i) => `| Country number ${i} | ${1000 + i} | ${2000 + i} |`));
    // The first part starts where the table does; later parts where their first row is.
    expect(chunks[0].metadata.char_start).toBe(0);
    expect(markdown.slice(chunks[1].metadata.char_start).startsWith('| Country number ')).toBe(true);
  });

  it('the Markdown alone (no model) is parsed into one: one header row, as GFM has', async () => {
    const body = Array.from({ length: 40 }, (_, i) => `| Country number ${i} | ${1000 + i} |`);
    const markdown = ['| Country | 2010 |', '| --- | --- |', ...body].join('\n');
    const chunks = await chunkMarkdown(markdown, paragraph(64));
    expect(chunks.length).toBeGreaterThan(2);
    for (const c of chunks) expect(c.content.startsWith('| Country | 2010 |\n| --- | --- |\n| Country number ')).toBe(true);
  });

  it('a short lead-in paragraph stays with its list when the two fit a chunk', async () => {
    const items = Array.from({ length: 5 }, (_, i) => ({ content: [para(`Item ${i} of the list.`)] }));
    const { markdown, document } = extracted([
      ...Array.from({ length: 6 }, (_, i) => para(sentence(i))),
      para('Follow these steps:'),
      { type: 'list', ordered: true, items },
    ]);
    // At whatever chunk size, wherever the chunk before ends.
    for (let size = 64; size <= 192; size += 8) {
      const chunks = await chunkMarkdown(markdown, paragraph(size), { document });
      expectWithin(chunks, size);
      const lead = chunks.find((c) => c.content.includes('Follow these steps:'))!;
      expect(lead.content, `chunk_size ${size}`).toContain('Follow these steps:\n\n1. Item 0 of the list.');
      expect(lead.content, `chunk_size ${size}`).toContain('5. Item 4 of the list.');
    }
  });

  it('a list longer than a chunk keeps its lead-in sentence with its first items', async () => {
    const items = Array.from({ length: 30 }, (_, i) => ({ content: [para(`Step ${i}: check the valve and write down the reading.`)] }));
    const long = `${Array.from({ length: 5 }, (_, i) => sentence(i)).join(' ')} Before you start, do the following:`;
    const { markdown, document } = extracted([para(long), { type: 'list', ordered: false, items }]);
    for (const size of [64, 96, 128]) {
      const chunks = await chunkMarkdown(markdown, paragraph(size), { document });
      expectWithin(chunks, size);
      const first = chunks.find((c) => c.content.includes('- Step 0:'))!;
      expect(first.content.startsWith('Before you start, do the following:\n\n- Step 0:') || first.content.includes(' Before you start, do the following:\n\n- Step 0:')).toBe(true);
      // Nothing lost or doubled: every sentence and item exactly once.
      const all = chunks.map((c) => c.content).join('\n');
      for (let i = 0; i < 5; i++) expect(all.split(sentence(i)).length - 1).toBe(1);
      for (let i = 0; i < 30; i++) expect(all.split(`- Step ${i}:`).length - 1).toBe(1);
      expect(all.split('Before you start').length - 1).toBe(1);
    }
  });

  it('without the lead-in rule the list would start a chunk of its own (the rule is what keeps them)', async () => {
    // The same content with a heading between paragraph and list: nothing leads in, and the list starts its own chunk.
    const items = Array.from({ length: 30 }, (_, i) => ({ content: [para(`Step ${i}: check the valve and write down the reading.`)] }));
    const long = `${Array.from({ length: 5 }, (_, i) => sentence(i)).join(' ')} Before you start, do the following:`;
    const { markdown, document } = extracted([para(long), { type: 'heading', level: 2, content: text('Steps') }, { type: 'list', ordered: false, items }]);
    const chunks = await chunkMarkdown(markdown, paragraph(96), { document });
    const first = chunks.find((c) => c.content.includes('- Step 0:'))!;
    expect(first.content).not.toContain('Before you start');
  });

  it('pages come from the model’s page sections; their markers are never content', async () => {
    const { markdown, document } = extracted([
      { type: 'section', kind: 'page', page: 1, content: Array.from({ length: 4 }, (_, i) => para(sentence(i))) },
      { type: 'section', kind: 'page', page: 2, content: Array.from({ length: 4 }, (_, i) => para(sentence(10 + i))) },
    ]);
    const chunks = await chunkMarkdown(markdown, paragraph(64), { document });
    for (const c of chunks) expect(c.content).not.toContain('<!--');
    const pageOf = (i: number) => chunks.find((c) => c.content.includes(sentence(i)))!.metadata.page;
    expect([pageOf(0), pageOf(3), pageOf(10), pageOf(13)]).toEqual([1, 1, 2, 2]);
  });

  it('a model whose spans do not fit the Markdown is not trusted: the Markdown is parsed instead', async () => {
    const { markdown, document } = extracted([{ type: 'heading', level: 1, content: text('Title') }, para('Body text here.')]);
    const shifted = JSON.parse(JSON.stringify(document)) as QuarryDocument;
    for (const b of shifted.blocks) b.prov = { span: [b.prov!.span![0] + 500, b.prov!.span![1] + 500] };
    const broken = { version: 1, metadata: {}, blocks: [{ type: 'section', content: 'not a list' }] } as unknown as QuarryDocument;
    for (const doc of [shifted, broken, null]) {
      const chunks = await chunkMarkdown(markdown, paragraph(64), { document: doc });
      expect(chunks.map((c) => [c.content, c.metadata.section])).toEqual([['# Title\n\nBody text here.', 'Title']]);
    }
  });

  it('text the model leaves out between its blocks is still chunked (nothing is lost)', () => {
    const md = '#\n\n[ref]: https://example.com/x\n\nText.\n';
    const source = chunkSource(md, documentFromMarkdown(md, {}, { spans: true }));
    expect(source.blocks.map((b) => b.text)).toEqual(['#\n\n[ref]: https://example.com/x', 'Text.']);
  });
});
