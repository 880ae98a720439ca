/**
 * The document models the spreadsheet, presentation and structured-text readers build
 * (lib/extraction/office): sheet and slide sections, merged cells as spans (written once in the
 * Markdown), nested lists, speaker notes as quotes, a CSV cut at the cell limit through the
 * table's total_rows, and the grid → table rule the Office tables share. Every model must pass
 * the API's document schema as it is.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import { quarryDocumentSchema } from '@/lib/api/schemas/documents';
import { withoutSpans } from '@/lib/document/serve';
import type { Block, List, QuarryDocument, Section, Table, TableCell } from '@/lib/document/types';
import { extractCsv, extractJson, extractOdf, extractOrg, extractPptx, extractRst, extractXlsx, extractXml } from '@/lib/extraction/extractors';
import { tableFromGrid } from '@/lib/extraction/office/table-model';
import type { ExtractResult } from '@/lib/extraction/types';
import { extractInput } from '@/test/support/extract-input';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-sheets-slides-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let counter = 0;
function scratch(extension: string, bytes: Uint8Array | string) {
  const file = path.join(tmp, `doc-${++counter}${extension}`);
  fs.writeFileSync(file, bytes);
  return extractInput(file, { mime_type: 'application/octet-stream', extension }, tmp);
}

const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
const rels = (entries: [string, string, string][]) =>
  `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;
const CONTENT_TYPES = strToU8('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>');

function xlsx(name: string, sheetXml: string): Uint8Array {
  return zipSync({
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'xl/workbook.xml']])),
    'xl/workbook.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_REL}"><sheets><sheet name="${name}" sheetId="1" r:id="rId1"/></sheets></workbook>`),
    'xl/_rels/workbook.xml.rels': strToU8(rels([['rId1', 'worksheet', 'worksheets/sheet1.xml']])),
    'xl/worksheets/sheet1.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${sheetXml}</worksheet>`),
  });
}

const P = 'xmlns:p="http://schemas.openxmlformats.org/presentationml/2006/main" xmlns:a="http://schemas.openxmlformats.org/drawingml/2006/main" xmlns:r="http://schemas.openxmlformats.org/officeDocument/2006/relationships"';

function pptx(slides: { tree: string; notes?: string[] }[]): Uint8Array {
  const files: Zippable = {
    '[Content_Types].xml': CONTENT_TYPES,
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])),
    'ppt/presentation.xml': strToU8(`<p:presentation ${P}><p:sldIdLst>${slides.map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`).join('')}</p:sldIdLst></p:presentation>`),
    'ppt/_rels/presentation.xml.rels': strToU8(rels(slides.map((_, i) => [`rId${i + 1}`, 'slide', `slides/slide${i + 1}.xml`]))),
  };
  slides.forEach((slide, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(`<p:sld ${P}><p:cSld><p:spTree>${slide.tree}</p:spTree></p:cSld></p:sld>`);
    if (!slide.notes) return;
    files[`ppt/slides/_rels/slide${i + 1}.xml.rels`] = strToU8(rels([['rId1', 'notesSlide', `../notesSlides/notesSlide${i + 1}.xml`]]));
    const paragraphs = slide.notes.map((n) => `<a:p><a:r><a:t>${n}</a:t></a:r></a:p>`).join('');
    files[`ppt/notesSlides/notesSlide${i + 1}.xml`] = strToU8(
      `<p:notes ${P}><p:cSld><p:spTree><p:sp><p:nvSpPr><p:cNvPr id="2" name="Notes"/><p:cNvSpPr/><p:nvPr><p:ph type="body" idx="1"/></p:nvPr></p:nvSpPr><p:txBody><a:bodyPr/>${paragraphs}</p:txBody></p:sp></p:spTree></p:cSld></p:notes>`,
    );
  });
  return zipSync(files);
}

function shape(body: string, y: number, ph = ''): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="S"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="${y}"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>${body}</p:txBody></p:sp>`;
}

const para = (t: string, lvl?: number) => `<a:p>${lvl === undefined ? '' : `<a:pPr lvl="${lvl}"/>`}<a:r><a:t>${t}</a:t></a:r></a:p>`;

/**
 * The served model, checked against the API's schema with nothing of it left out, and its
 * blocks' spans against the Markdown (each the block's own text); returned without the spans,
 * for the structure.
 */
function doc(result: ExtractResult): QuarryDocument {
  const plain = JSON.parse(JSON.stringify(result.document)) as QuarryDocument;
  const parsed = quarryDocumentSchema.safeParse(plain);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toStrictEqual(plain);
  const spans: Array<[number, number]> = [];
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.type === 'section') walk(b.content);
      else if (b.prov?.span) spans.push(b.prov.span);
    }
  };
  walk(plain.blocks);
  expect(spans.length).toBeGreaterThan(0);
  spans.forEach(([start, end], i) => {
    expect(result.markdown.slice(start, end).trim()).toBe(result.markdown.slice(start, end));
    expect(end).toBeGreaterThan(start);
    if (i > 0) expect(start).toBeGreaterThanOrEqual(spans[i - 1][1]);
  });
  return withoutSpans(plain);
}
const plain = (cell: TableCell) => cell.content.map((r) => (r.type === 'text' ? r.text : '')).join('');
const cellsOf = (table: Table) => table.rows.map((row) => row.map((c) => [plain(c), c.row_span ?? 1, c.col_span ?? 1]));
const only = <T extends Block['type']>(blocks: Block[], type: T) => blocks.filter((b): b is Extract<Block, { type: T }> => b.type === type);

describe('XLSX', () => {
  it('gives a sheet section per sheet with its name heading, and merged cells once with their spans', async () => {
    const c = (ref: string, v: string) => `<c r="${ref}" t="inlineStr"><is><t>${v}</t></is></c>`;
    const xml = `<sheetData>
      <row r="1">${c('A1', 'Region')}${c('B1', 'Revenue')}</row>
      <row r="2">${c('B2', 'Q1')}${c('C2', 'Q2')}</row>
      <row r="3">${c('A3', 'North')}${c('B3', '12')}${c('C3', '14')}</row>
      <row r="5">${c('A5', 'A merged title')}</row></sheetData>
      <mergeCells count="3"><mergeCell ref="A1:A2"/><mergeCell ref="B1:C1"/><mergeCell ref="A5:C6"/></mergeCells>`;
    const result = await extractXlsx(scratch('.xlsx', xlsx('Sales', xml)));
    const [section] = doc(result).blocks as Section[];
    expect(section).toMatchObject({ type: 'section', kind: 'sheet', page: 1, name: 'Sales' });
    expect(section.content[0]).toEqual({ type: 'heading', level: 2, content: [{ type: 'text', text: 'Sales' }] });
    const [table] = only(section.content, 'table');
    expect(table.header_rows).toBe(1);
    expect(cellsOf(table)).toEqual([
      [['Region', 2, 1], ['Revenue', 1, 2]],
      [['Q1', 1, 1], ['Q2', 1, 1]],
      [['North', 1, 1], ['12', 1, 1], ['14', 1, 1]],
    ]);
    // A merged cell standing alone is a paragraph.
    expect(section.content.at(-1)).toEqual({ type: 'paragraph', content: [{ type: 'text', text: 'A merged title' }] });
    expect(result.markdown).toBe(
      '<!-- page 1 -->\n\n## Sales\n\n| Region | Revenue |  |\n| --- | --- | --- |\n|  | Q1 | Q2 |\n| North | 12 | 14 |\n\nA merged title\n',
    );
  });
});

describe('PPTX', () => {
  it('gives a slide section per slide: title heading, levels as nested lists, a table with spans, notes as a quote', async () => {
    const body = `<a:p><a:r><a:t>Goals</a:t></a:r></a:p>${para('Ship', 1)}${para('Docs', 2)}${para('Test', 1)}<a:p><a:pPr lvl="0"><a:buAutoNum type="arabicPeriod" startAt="3"/></a:pPr><a:r><a:t>Third</a:t></a:r></a:p>`;
    const tbl = `<p:graphicFrame><p:nvGraphicFramePr><p:cNvPr id="9" name="T"/><p:cNvGraphicFramePr/><p:nvPr/></p:nvGraphicFramePr><p:xfrm><a:off x="0" y="900"/><a:ext cx="1" cy="1"/></p:xfrm><a:graphic><a:graphicData uri="http://schemas.openxmlformats.org/drawingml/2006/table"><a:tbl><a:tblPr firstRow="1"/>
      <a:tr><a:tc gridSpan="2"><a:txBody><a:p><a:r><a:t>Both</a:t></a:r></a:p></a:txBody></a:tc><a:tc hMerge="1"><a:txBody><a:p/></a:txBody></a:tc><a:tc rowSpan="2"><a:txBody><a:p><a:r><a:t>Tall</a:t></a:r></a:p></a:txBody></a:tc></a:tr>
      <a:tr><a:tc><a:txBody><a:p><a:r><a:t>a</a:t></a:r></a:p></a:txBody></a:tc><a:tc><a:txBody><a:p><a:r><a:t>b</a:t></a:r></a:p></a:txBody></a:tc><a:tc vMerge="1"><a:txBody><a:p/></a:txBody></a:tc></a:tr>
      </a:tbl></a:graphicData></a:graphic></p:graphicFrame>`;
    const slides = [
      { tree: `${shape(para('Plan'), 0, '<p:ph type="title"/>')}${shape(body, 500, '<p:ph idx="1"/>')}${tbl}`, notes: ['Say hello', 'Then the plan'] },
      { tree: shape(para('Second'), 0), notes: ['Only note'] },
    ];
    const result = await extractPptx(scratch('.pptx', pptx(slides)));
    const sections = doc(result).blocks as Section[];
    expect(sections.map((s) => [s.type, s.kind, s.page])).toEqual([
      ['section', 'slide', 1],
      ['section', 'slide', 2],
    ]);
    const [title, bullets, numbers, table, notes] = sections[0].content;
    expect(title).toEqual({ type: 'heading', level: 2, content: [{ type: 'text', text: 'Plan' }] });
    // Goals > (Ship > Docs), Test; then a numbered list of its own, starting at 3.
    const list = bullets as List;
    expect(list.ordered).toBe(false);
    expect(list.items).toHaveLength(1);
    const nested = list.items[0].content[1] as List;
    expect(nested.items.map((i) => (i.content[0] as { content: { text: string }[] }).content[0].text)).toEqual(['Ship', 'Test']);
    expect(nested.items[0].content[1]).toMatchObject({ type: 'list', items: [{ content: [{ type: 'paragraph', content: [{ text: 'Docs' }] }] }] });
    expect(numbers).toMatchObject({ type: 'list', ordered: true, start: 3 });
    expect(cellsOf(table as Table)).toEqual([
      [['Both', 1, 2], ['Tall', 2, 1]],
      [['a', 1, 1], ['b', 1, 1]],
    ]);
    expect((table as Table).header_rows).toBe(1);
    expect(notes).toEqual({
      type: 'quote',
      content: [
        { type: 'paragraph', content: [{ type: 'text', text: 'Notes:', bold: true }, { type: 'text', text: ' Say hello' }] },
        { type: 'paragraph', content: [{ type: 'text', text: 'Then the plan' }] },
      ],
    });
    expect(result.markdown).toContain('## Plan\n\n- Goals\n  - Ship\n    - Docs\n  - Test\n\n3. Third\n\n| Both |  | Tall |\n| --- | --- | --- |\n| a | b |  |');
    expect(result.markdown).toContain('<!-- page 2 -->\n\nSecond\n\n> **Notes:** Only note\n');
  });
});

describe('CSV', () => {
  it('keeps the cell limit as rows and the source row count as total_rows; the Markdown says so', async () => {
    const csv = ['n,a,b,c,d', ...Array.from({ length: 29_999 }, (_, i) => `${i},b,c,d,e`), ',,,,'].join('\n');
    const result = await extractCsv(scratch('.csv', csv));
    const [table] = doc(result).blocks as Table[];
    expect(table.type).toBe('table');
    expect(table.header_rows).toBe(1);
    expect(table.rows).toHaveLength(20_000);
    expect(table.total_rows).toBe(30_000);
    expect(result.markdown).toContain('*The table is truncated: only its first 20,000 of 30,000 rows were extracted.*');
    const small = await extractCsv(scratch('.csv', 'a,b\n1,2\n'));
    expect((doc(small).blocks[0] as Table).total_rows).toBeUndefined();
  });
});

describe('OpenDocument', () => {
  const NS = 'xmlns:office="o" xmlns:table="t" xmlns:text="x" xmlns:draw="d" xmlns:presentation="p" xmlns:xlink="l"';
  const odf = (mime: string, body: string) =>
    zipSync({ mimetype: strToU8(mime), 'content.xml': strToU8(`<office:document-content ${NS}><office:body>${body}</office:body></office:document-content>`) });
  const tc = (t: string, attrs = '') => `<table:table-cell${attrs}><text:p>${t}</text:p></table:table-cell>`;

  it('ODS: sheet sections, merged cells once with their spans', async () => {
    const body = `<office:spreadsheet><table:table table:name="Plan">
      <table:table-row>${tc('Task', ' table:number-rows-spanned="2"')}${tc('Week', ' table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row>
      <table:table-row><table:covered-table-cell/>${tc('1')}${tc('2')}</table:table-row>
      <table:table-row>${tc('Write')}${tc('x')}${tc('')}</table:table-row></table:table></office:spreadsheet>`;
    const result = await extractOdf(scratch('.ods', odf('application/vnd.oasis.opendocument.spreadsheet', body)));
    const [section] = doc(result).blocks as Section[];
    expect(section).toMatchObject({ kind: 'sheet', page: 1, name: 'Plan' });
    expect(cellsOf(only(section.content, 'table')[0])).toEqual([
      [['Task', 2, 1], ['Week', 1, 2]],
      [['1', 1, 1], ['2', 1, 1]],
      [['Write', 1, 1], ['x', 1, 1]],
    ]);
  });

  it('ODT: a text table with spans and header rows, nested numbered lists, notes as footnotes', async () => {
    const styles = '<office:automatic-styles><text:list-style style:name="N" xmlns:style="s"><text:list-level-style-number text:level="2"/></text:list-style></office:automatic-styles>';
    const body = `<office:text><text:p>See<text:note><text:note-body><text:p>The source.</text:p></text:note-body></text:note> and <text:a xlink:href="https://example.com">the site</text:a>.</text:p>
      <text:list text:style-name="N"><text:list-item><text:p>Top</text:p><text:list><text:list-item><text:p>One</text:p></text:list-item><text:list-item><text:p>Two</text:p></text:list-item></text:list></text:list-item></text:list>
      <table:table><table:table-header-rows><table:table-row>${tc('Name', ' table:number-columns-spanned="2"')}<table:covered-table-cell/></table:table-row></table:table-header-rows>
      <table:table-row>${tc('a')}${tc('b')}</table:table-row></table:table></office:text>`;
    const content = `<office:document-content ${NS}>${styles}<office:body>${body}</office:body></office:document-content>`;
    const result = await extractOdf(scratch('.odt', zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': strToU8(content) })));
    const blocks = doc(result).blocks;
    const table = only(blocks, 'table')[0];
    expect(table.header_rows).toBe(1);
    expect(cellsOf(table)).toEqual([[['Name', 1, 2]], [['a', 1, 1], ['b', 1, 1]]]);
    expect(only(blocks, 'footnote')).toEqual([{ type: 'footnote', label: '1', content: [{ type: 'paragraph', content: [{ type: 'text', text: 'The source.' }] }] }]);
    expect(result.markdown).toBe('See[^1] and [the site](https://example.com).\n\n- Top\n  1. One\n  2. Two\n\n| Name |  |\n| --- | --- |\n| a | b |\n\n[^1]: The source.\n');
  });
});

describe('structured text', () => {
  it('RST: nested lists, literal blocks, quotes, footnotes and inline markup', async () => {
    const rst = 'Title\n=====\n\n- **bold** item with ``code``\n\n  - nested *item*\n\n1. first\n2. second\n\nExample::\n\n    x = 1\n\nThen:\n\n    A quote.\n\nSee [1]_ and `the site <https://example.com>`_.\n\n.. [1] The note.\n';
    const result = await extractRst(scratch('.rst', rst));
    expect(result.markdown).toBe(
      '# Title\n\n- **bold** item with `code`\n  - nested *item*\n\n1. first\n2. second\n\nExample:\n\n```\nx = 1\n```\n\nThen:\n\n> A quote.\n\nSee [^1] and [the site](https://example.com).\n\n[^1]: The note.\n',
    );
    const list = only(doc(result).blocks, 'list')[0];
    expect(list.items[0].content[1]).toMatchObject({ type: 'list', ordered: false });
  });

  it('Org: checkboxes, tables with a header, quotes and code', async () => {
    const org = '* Tasks\n- [X] done /really/\n- [ ] open\n\n| a | b |\n|---+---|\n| 1 | 2 |\n\n#+BEGIN_QUOTE\nWise words.\n#+END_QUOTE\n\n: fixed width\n';
    const result = await extractOrg(scratch('.org', org));
    const list = only(doc(result).blocks, 'list')[0];
    expect(list.items.map((i) => i.checked)).toEqual([true, false]);
    expect(only(doc(result).blocks, 'table')[0].header_rows).toBe(1);
    expect(result.markdown).toBe('# Tasks\n\n- [x] done *really*\n- [ ] open\n\n| a | b |\n| --- | --- |\n| 1 | 2 |\n\n> Wise words.\n\n```\nfixed width\n```\n');
  });

  it('XML records and JSON arrays of records are tables with a header row; JSON objects labelled lines', async () => {
    const xml = await extractXml(scratch('.xml', '<r><item><a>1</a><b>x</b></item><item><a>2</a><b>y</b></item><note>short</note></r>'));
    expect(doc(xml).blocks[0]).toMatchObject({ type: 'table', header_rows: 1 });
    expect(xml.markdown).toBe('| a | b |\n| --- | --- |\n| 1 | x |\n| 2 | y |\n\n**note:** short\n');
    const json = await extractJson(scratch('.json', JSON.stringify({ name: 'Q', n: 2, list: [1, 2] })));
    expect(doc(json).blocks[0]).toEqual({
      type: 'paragraph',
      content: [{ type: 'text', text: 'name:', bold: true }, { type: 'text', text: ' Q' }, { type: 'break' }, { type: 'text', text: 'n:', bold: true }, { type: 'text', text: ' 2' }],
    });
    expect(json.markdown).toBe('**name:** Q  \n**n:** 2\n\n# list\n\n- 1\n- 2\n');
  });
});

describe('tableFromGrid', () => {
  const cell = (t: string, rowSpan?: number, colSpan?: number) => ({ content: [{ type: 'text' as const, text: t }], rowSpan, colSpan });

  it('cuts a span short before a cell with text of its own, and shrinks spans over dropped empty rows', () => {
    const table = tableFromGrid(
      [
        [cell('wide', 1, 3), undefined, cell('kept')],
        [cell('tall', 3), cell('x')],
        [],
        [undefined, cell('y')],
      ],
      { headerRows: 1 },
    )!;
    expect(cellsOf(table)).toEqual([
      [['wide', 1, 2], ['kept', 1, 1]],
      [['tall', 2, 1], ['x', 1, 1]],
      [['y', 1, 1]],
    ]);
    expect(tableFromGrid([[undefined, { content: [] }]], { headerRows: 0 })).toBeUndefined();
  });
});
