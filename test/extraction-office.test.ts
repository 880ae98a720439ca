/**
 * Office and text extractors (lib/extraction/office): the shared fixtures against their reference
 * Markdown, structure and metadata, hostile inputs (zip bombs, truncated and malformed packages,
 * DTDs, huge sheets, HTML smuggling markup), cancellation and empty documents.
 *
 * Similarities (textSimilarity against the docling reference Markdown) are printed at the end;
 * the floors asserted below are the measured values rounded down by about 0.01.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { strToU8, unzipSync, zipSync, type Zippable } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from '@/lib/extraction/engine';
import { extractCsv, extractDocx, extractHtml, extractPptx, extractText, extractXlsx } from '@/lib/extraction/extractors';
import { textSimilarity } from '@/lib/extraction/quality';
import { ExtractionError, type ExtractInput, type ExtractResult } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';

type Extractor = (input: ExtractInput) => Promise<ExtractResult>;

const fx = (relative: string) => path.join(FIXTURES_DIR, relative);
const ref = (relative: string) => fs.readFileSync(fx(relative), 'utf8');

let tmp: string;
let counter = 0;
const similarities: string[] = [];

beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-office-'));
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(`Office extraction similarity (textSimilarity vs reference Markdown):\n${similarities.join('\n')}`);
});

function inputFor(file: string, overrides: Partial<ExtractInput> = {}): ExtractInput & { progress: [number, number][] } {
  const progress: [number, number][] = [];
  return {
    path: file,
    mimeType: 'application/octet-stream',
    extension: path.extname(file).toLowerCase(),
    mode: 'normal',
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: (done, total) => progress.push([done, total]),
    signal: new AbortController().signal,
    maxPages: 1000,
    tmpDir: tmp,
    ...overrides,
    progress,
  };
}

/** Writes bytes to a scratch file with the given extension and returns an input for it. */
function scratch(extension: string, bytes: Uint8Array | string, overrides: Partial<ExtractInput> = {}) {
  const file = path.join(tmp, `doc-${++counter}${extension}`);
  fs.writeFileSync(file, bytes);
  return inputFor(file, overrides);
}

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  try {
    await promise;
  } catch (err) {
    expect(err).toBeInstanceOf(ExtractionError);
    return err as ExtractionError;
  }
  throw new Error('expected the extraction to fail');
}

/** Markdown must not contain an unescaped "<" opening a tag, except the page-marker comments. */
function rawHtmlIn(markdown: string): string[] {
  const withoutMarkers = markdown.replace(/^<!-- page \d+ -->$/gm, '');
  return [...withoutMarkers.matchAll(/(^|[^\\])(<[A-Za-z!/?][^\n]{0,30})/g)].map((m) => m[2]);
}

function record(name: string, result: ExtractResult, reference: string, note = ''): number {
  const similarity = textSimilarity(result.markdown, reference);
  similarities.push(`  ${name.padEnd(34)} ${similarity.toFixed(4)}${note ? `  ${note}` : ''}`);
  return similarity;
}

// --- Package builders ---------------------------------------------------------------------------

const W_NS = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main';
const REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';
const OFFICE_REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function rels(entries: [id: string, type: string, target: string][]): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="${REL_NS}">${entries
    .map(([id, type, target]) => `<Relationship Id="${id}" Type="${OFFICE_REL}/${type}" Target="${target}"/>`)
    .join('')}</Relationships>`;
}

function docxPackage(body: string, extra: Zippable = {}): Uint8Array {
  return zipSync({
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'word/document.xml']])),
    'word/document.xml': strToU8(`<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="${W_NS}"><w:body>${body}</w:body></w:document>`),
    ...extra,
  });
}

const para = (text: string) => `<w:p><w:r><w:t xml:space="preserve">${text}</w:t></w:r></w:p>`;

function xlsxPackage(sheets: { name: string; xml: string; state?: string }[], styles?: string): Uint8Array {
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/><Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>${sheets
        .map((_, i) => `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`)
        .join('')}</Types>`,
    ),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'xl/workbook.xml']])),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${OFFICE_REL}"><sheets>${sheets
        .map((s, i) => `<sheet name="${s.name}" sheetId="${i + 1}" r:id="rId${i + 1}"${s.state ? ` state="${s.state}"` : ''}/>`)
        .join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(rels(sheets.map((_, i) => [`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`]))),
  };
  if (styles) {
    files['xl/styles.xml'] = strToU8(`<?xml version="1.0" encoding="UTF-8"?><styleSheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${styles}</styleSheet>`);
  }
  sheets.forEach((s, i) => {
    files[`xl/worksheets/sheet${i + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main">${s.xml}</worksheet>`,
    );
  });
  return zipSync(files);
}

function column(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

function sheetData(rows: (string | number)[][]): string {
  return `<sheetData>${rows
    .map(
      (row, r) =>
        `<row r="${r + 1}">${row
          .map((v, c) =>
            typeof v === 'number'
              ? `<c r="${column(c + 1)}${r + 1}"><v>${v}</v></c>`
              : `<c r="${column(c + 1)}${r + 1}" t="inlineStr"><is><t>${v}</t></is></c>`,
          )
          .join('')}</row>`,
    )
    .join('')}</sheetData>`;
}

function pptxPackage(slides: string[]): Uint8Array {
  const P_NS = 'http://schemas.openxmlformats.org/presentationml/2006/main';
  const A_NS = 'http://schemas.openxmlformats.org/drawingml/2006/main';
  const files: Zippable = {
    '[Content_Types].xml': strToU8(
      '<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>',
    ),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'ppt/presentation.xml']])),
    'ppt/presentation.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><p:presentation xmlns:p="${P_NS}" xmlns:r="${OFFICE_REL}"><p:sldIdLst>${slides
        .map((_, i) => `<p:sldId id="${256 + i}" r:id="rId${i + 1}"/>`)
        .join('')}</p:sldIdLst></p:presentation>`,
    ),
    'ppt/_rels/presentation.xml.rels': strToU8(rels(slides.map((_, i) => [`rId${i + 1}`, 'slide', `slides/slide${i + 1}.xml`]))),
  };
  slides.forEach((tree, i) => {
    files[`ppt/slides/slide${i + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><p:sld xmlns:p="${P_NS}" xmlns:a="${A_NS}" xmlns:r="${OFFICE_REL}"><p:cSld><p:spTree>${tree}</p:spTree></p:cSld></p:sld>`,
    );
  });
  return zipSync(files);
}

function textBox(text: string, y: number, ph = ''): string {
  return `<p:sp><p:nvSpPr><p:cNvPr id="2" name="Box"/><p:cNvSpPr/><p:nvPr>${ph}</p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="100" y="${y}"/><a:ext cx="10" cy="10"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/><a:p><a:r><a:t>${text}</a:t></a:r></a:p></p:txBody></p:sp>`;
}

/** A ZIP archive written by hand: entries carry their (already compressed) data and a declared size. */
function rawZip(entries: { name: string; data: Uint8Array; method: 0 | 8; declaredSize: number }[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.data.length, 18);
    local.writeUInt32LE(e.declaredSize, 22);
    local.writeUInt16LE(name.length, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.data.length, 20);
    central.writeUInt32LE(e.declaredSize, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, name, Buffer.from(e.data));
    centrals.push(central, name);
    offset += 30 + name.length + e.data.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}

/** Rewrites the uncompressed size of every central-directory entry named `name`. */
function patchDeclaredSize(zip: Uint8Array, name: string, size: number): Uint8Array {
  const out = zip.slice();
  const view = new DataView(out.buffer);
  for (let i = 0; i + 46 <= out.length; i++) {
    if (view.getUint32(i, true) !== 0x02014b50) continue;
    const nameLength = view.getUint16(i + 28, true);
    if (Buffer.from(out.subarray(i + 46, i + 46 + nameLength)).toString() === name) view.setUint32(i + 24, size, true);
  }
  return out;
}

// --- Fixtures -----------------------------------------------------------------------------------

describe('DOCX fixtures', () => {
  it.each([
    ['docx_lists', 0.97],
    ['equations', 0.92],
    ['word_sample', 0.93],
  ])('%s matches its reference Markdown (floor %s)', async (name, floor) => {
    const input = inputFor(fx(`docx/${name}.docx`));
    const result = await extractDocx(input);
    const similarity = record(`docx/${name}.docx`, result, ref(`docx/${name}.md`));
    expect(similarity).toBeGreaterThanOrEqual(floor);
    expect(result.markdown).not.toMatch(/data:/);
    expect(result.markdown).not.toMatch(/<!-- page/);
    expect(rawHtmlIn(result.markdown)).toEqual([]);
    expect(input.progress.at(-1)).toEqual([result.totalPages, result.totalPages]);
  });

  it('nests lists, maps the Title style and headings, and reads core properties and <Pages>', async () => {
    const result = await extractDocx(inputFor(fx('docx/docx_lists.docx')));
    expect(result.markdown).toMatch(/^# Test Document$/m);
    expect(result.markdown).toMatch(/^### Test 1:$/m);
    expect(result.markdown).toContain('- List item 1\n  - List item 1.1\n    - List item 1.1.1\n- List item 3');
    expect(result.markdown).toContain('1. List item a\n2. List item b\n3. List item c');
    expect(result.totalPages).toBe(3);
    expect(result.metadata).toMatchObject({ author: 'Peter Staar', created_date: '2024-09-26T09:20:00.000Z' });
  });

  it('renders the table with its first row promoted to the header and images as alt-text placeholders', async () => {
    const { markdown } = await extractDocx(inputFor(fx('docx/word_sample.docx')));
    expect(markdown).toContain(
      '|  | Food | Calories per portion |\n| --- | --- | --- |\n| Leaves | Ash, Elm, Maple | 50 |\n| Berries | Blueberry, Strawberry, Cranberry | 150 |',
    );
    expect(markdown).toContain('*Image: A cartoon duck holding a paper*');
    expect(markdown).not.toContain('Description automatically generated');
  });

  it('turns OMML equations into inline $…$ and display $$…$$ LaTeX', async () => {
    const { markdown } = await extractDocx(inputFor(fx('docx/equations.docx')));
    expect(markdown).toContain('this is an inline equation: $A=\\pi r^{2}$.');
    // A display equation is a formula block: the renderer writes it between "$$" lines.
    expect(markdown).toMatch(/^\$\$\na\^\{2\}\+b\^\{2\}=c\^\{2\} \\times 23\n\$\$$/m);
    expect(markdown).toContain('\\sum_{n=1}^{\\infty}');
    expect(markdown).toContain('\\frac{nx}{1!}');
    expect(markdown).toContain('\\underbrace{S\\cdot T\\cdot G\\cdot (x+y+z)}_{group\\ with\\ underbraces}');
    expect(markdown).not.toMatch(/qtok[0-9a-f]+n\d+z/);
  });
});

describe('XLSX fixture', () => {
  it('has one section per visible sheet, one table per block of cells, charts as data tables', async () => {
    const input = inputFor(fx('office/xlsx_01.xlsx'));
    const result = await extractXlsx(input);
    // The reference (Docling's) repeats a merged cell's text in every position it covers; Quarry
    // writes it once and leaves the covered positions empty, so Sheet3's rows are compared as such.
    const reference = ref('office/xlsx_01.md')
      .replace('| first | header | header |', '| first | header |  |')
      .replace('| first (f) | header (f) | header (f) |', '| first (f) | header (f) |  |')
      .replace('| first | second | third |', '|  | second | third |')
      .replace('| first (f) | second | third |', '|  | second | third |')
      .replaceAll('| 3 | 6 | 7 |', '|  | 6 | 7 |')
      .replaceAll('| 8 | 9 | 9 |', '| 8 | 9 |  |')
      .replaceAll('| 10 | 9 | 9 |', '| 10 |  |  |');
    const similarity = record('office/xlsx_01.xlsx', result, reference, '(reference "| - |" rules count as text)');
    expect(similarity).toBeGreaterThanOrEqual(0.87);
    expect(result.totalPages).toBe(3);
    expect(input.progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const { markdown } = result;
    expect(markdown.match(/^<!-- page \d+ -->$/gm)).toEqual(['<!-- page 1 -->', '<!-- page 2 -->', '<!-- page 3 -->']);
    expect(markdown.match(/^## .*$/gm)).toEqual(['## Sheet1', '## Sheet2', '## Sheet3']); // Sheet4 is hidden
    expect(markdown).toContain('| first | second | third |\n| --- | --- | --- |\n| 1 | 5 | 9 |');
    expect(markdown).toContain('| 6 | 0 | -6 |');
    // Sheet2 holds three separate blocks; Sheet3's merged cells are written once, the positions they cover empty.
    expect(markdown.split('## Sheet2')[1].split('## Sheet3')[0].match(/^\| col-1 \|/gm)).toHaveLength(3);
    expect(markdown).toContain('| first | header |  |\n| --- | --- | --- |\n|  | second | third |');
    expect(markdown).toContain("*Line chart: 'col-3'*\n\n|  | col-3 |");
    expect(markdown).toContain("*Scatter chart: 'col-2', 'col-3', 'col-4' by 'col-1'*");
    expect(result.metadata).toMatchObject({ author: 'Peter Staar', created_date: '2024-11-16T05:17:41.000Z' });
    expect(result.metadata.title).toBeUndefined();
  });
});

describe('PPTX fixture', () => {
  it('has one page-marked section per slide in reading order, titles, lists, merged table cells and notes', async () => {
    const input = inputFor(fx('office/powerpoint_sample.pptx'));
    const result = await extractPptx(input);
    // The reference (Docling's) repeats a merged cell's text in every position it covers; Quarry
    // writes it once and leaves the covered positions empty, so those rows are compared as such.
    const reference = ref('office/powerpoint_sample.md')
      .replace('|  | Class1 | Class1 | Class1 | Class2 | Class2 | Class2 |', '|  | Class1 |  |  | Class2 |  |  |')
      .replace('|  | A merged with B | A merged with B | C |', '|  | A merged with B |  | C |')
      .replace('| R3 |  | True |', '|  |  | True |')
      .replace('| R4 |  | True |', '|  |  | True |')
      .replace('| R4 | True | False |', '|  | True | False |');
    const similarity = record('office/powerpoint_sample.pptx', result, reference, '(speaker notes included)');
    const withoutNotes = { ...result, markdown: result.markdown.replace(/^>.*$/gm, '') };
    const structural = record('office/powerpoint_sample.pptx, no notes', withoutNotes, reference);
    expect(similarity).toBeGreaterThanOrEqual(0.8);
    expect(structural).toBeGreaterThanOrEqual(0.96);
    expect(result.totalPages).toBe(3);
    expect(input.progress).toEqual([
      [1, 3],
      [2, 3],
      [3, 3],
    ]);
    const { markdown } = result;
    // A merged cell's text once, the positions it covers empty (no text is repeated).
    expect(markdown.startsWith('<!-- page 1 -->\n\n## Test Table Slide\n\n|  | Class1 |  |  | Class2 |  |  |')).toBe(true);
    expect(markdown).toContain('|  | A merged with B |  | C | A | B | C |');
    expect(markdown).toContain('| R3 | False |  |  |  | False |  |\n|  |  | True |');
    expect(markdown).toContain(
      '<!-- page 2 -->\n\n## Second slide title\n\nA rectangle shape with this text inside.\n\nLet’s introduce a list\n\n- With foo\n- Bar\n- And baz things',
    );
    expect(markdown).toContain('> **Notes:** Some notes on the second slide.');
    expect(markdown).toContain('1. List item4\n2. List item5\n3. List item6\n\n- I1\n- I2');
    expect(result.metadata).toMatchObject({ author: 'Maxim Lysak', created_date: '2024-09-26T09:15:16.000Z' });
  });
});

describe('HTML fixture', () => {
  it('renders rich table cells as GFM tables with the <title> as metadata', async () => {
    const result = await extractHtml(inputFor(fx('office/html_rich_table_cells.html')));
    const reference = ref('office/html_rich_table_cells.md');
    const similarity = record('office/html_rich_table_cells.html', result, reference, '(table captions included)');
    const captions = ['Basic duck facts', 'Duck family tree (simplified)', 'Duck‑related actions', 'Famous Ducks with Images'];
    const withoutCaptions = { ...result, markdown: result.markdown.split('\n').filter((l) => !captions.includes(l)).join('\n') };
    const structural = record('office/html_rich_table_cells.html, no captions', withoutCaptions, reference);
    expect(similarity).toBeGreaterThanOrEqual(0.86);
    expect(structural).toBeGreaterThanOrEqual(0.96);
    expect(result.metadata).toEqual({ title: 'Rich Table Cells in HTML' });
    expect(result.totalPages).toBe(1);
    const { markdown } = result;
    expect(markdown).toContain('| Teal | - Pond - Marsh - Riverbank | 1. Fly south in winter 2. Build nest on ground |');
    expect(markdown).toContain('| Action |  |');
    expect(markdown).toContain('| Quack | Type Sound Short “quak” Long “quaaaaaack” |');
    expect(markdown).toContain('[View PNG](https://en.wikipedia.org/wiki/Donald_Duck#/media/File:Donald_Duck_angry_transparent_background.png)');
    expect(markdown).toContain('**Large**, *loud*, noisy, ~~small~~');
    expect(rawHtmlIn(markdown)).toEqual([]);
  });
});

// --- Generated documents ------------------------------------------------------------------------

describe('HTML safety and cleanup', () => {
  it('drops scripts, styles, navigation, forms and hidden content, and never emits raw HTML', async () => {
    const html = `<!doctype html><html><head><title>Hostile &amp; page</title><meta name="author" content="Eve">
      <meta name="description" content="A test"><style>p{color:red}</style><script>alert('head')</script></head><body>
      <header><nav><a href="/">Home</a> <a href="/about">About</a></nav></header>
      <h1>Real <em>content</em></h1>
      <p>Text with &lt;script&gt;alert(1)&lt;/script&gt; and &lt;img src=x onerror=alert(2)&gt; and &amp;lt; kept literal.</p>
      <p><a href="javascript:alert(3)">bad link</a>, <a href="https://example.com/a b(c)">good link</a>, <a href="#top">anchor</a></p>
      <p><img src="data:image/png;base64,iVBORw0KGgo=" alt="A <b>bold</b> chart"> <img src="x.png"></p>
      <script>document.write('<p>injected</p>')</script><noscript>enable JS</noscript>
      <iframe src="https://evil.example"></iframe><svg><text>svg text</text></svg>
      <form><input value="secret"><button>Send</button></form>
      <div hidden>hidden div</div><div style="display: none">invisible</div>
      <table><tr><td><ul><li>one</li><li>two</li></ul></td><td><h2>Head</h2></td></tr><tr><td>a|b</td><td>c</td></tr></table>
      <pre><code class="language-js">\`\`\`
&lt;script&gt;x()&lt;/script&gt;</code></pre>
      <footer><nav>Footer links</nav></footer></body></html>`;
    const { markdown, metadata } = await extractHtml(scratch('.html', html));
    expect(metadata).toEqual({ title: 'Hostile & page', author: 'Eve', description: 'A test' });
    for (const gone of ['alert(\'head\')', 'Home', 'About', 'injected', 'enable JS', 'svg text', 'secret', 'Send', 'hidden div', 'invisible', 'Footer links', 'p{color', 'bad link)']) {
      expect(markdown).not.toContain(gone);
    }
    expect(markdown).toMatch(/^# Real \*content\*$/m);
    expect(markdown).toContain('\\<script>alert(1)\\</script>');
    expect(markdown).toContain('\\<img src=x onerror=alert(2)>');
    expect(markdown).toContain('\\&lt; kept literal');
    expect(markdown).toContain('bad link, [good link](https://example.com/a%20b%28c%29), anchor');
    expect(markdown).not.toMatch(/javascript:|data:/);
    expect(markdown).toContain('A \\<b>bold\\</b> chart');
    expect(markdown).toContain('| - one - two | Head |\n| --- | --- |\n| a\\|b | c |');
    expect(markdown).toContain('````js\n```\n<script>x()</script>\n````');
    expect(rawHtmlIn(markdown.replace(/````js[\s\S]*?````/, ''))).toEqual([]);
  });

  it('refuses absurdly deep nesting quickly instead of parsing it', async () => {
    const started = Date.now();
    const err = await failure(extractHtml(scratch('.html', `${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/nested too deeply/);
    expect(Date.now() - started).toBeLessThan(2000);
    // Flat markup with many implicitly closed elements is fine.
    const flat = await extractHtml(scratch('.html', `<ul>${'<li>item'.repeat(5000)}</ul>${'<p>para'.repeat(5000)}`));
    expect(flat.markdown.split('\n').filter((l) => l === '- item')).toHaveLength(5000);
  });

  it('bounds tables whose spans would expand to millions of cells', async () => {
    const rows = Array.from({ length: 2000 }, (_, i) => `<tr><td>r${i}</td></tr>`).join('');
    const html = `<table><tr><td rowspan="65534" colspan="1000">big</td><td>x</td></tr>${rows}<tr>${'<td>w</td>'.repeat(1000)}</tr></table>`;
    const started = Date.now();
    const { markdown } = await extractHtml(scratch('.html', html));
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(markdown.length).toBeLessThan(5_000_000);
    expect(markdown).toMatch(/\*The table is truncated: only its first 400 of 2,002 rows were extracted\.\*/);
  });

  it('completes an empty page with empty Markdown', async () => {
    const result = await extractHtml(scratch('.html', '<html><head></head><body>  </body></html>'));
    expect(result).toEqual({ markdown: '', totalPages: 1, metadata: {}, document: { version: 1, metadata: {}, blocks: [] } });
  });
});

describe('DOCX generated documents', () => {
  it('completes an empty document with empty Markdown and one page', async () => {
    const result = await extractDocx(scratch('.docx', docxPackage('')));
    expect(result).toEqual({ markdown: '', totalPages: 1, metadata: {}, document: { version: 1, metadata: {}, blocks: [] } });
  });

  it('escapes markup-like text from the document', async () => {
    const { markdown } = await extractDocx(scratch('.docx', docxPackage(para('Use &lt;script&gt;alert(1)&lt;/script&gt; | here'))));
    expect(markdown).toBe('Use \\<script>alert(1)\\</script> | here\n');
  });

  it('refuses a zip bomb whose declared size is over the limit, without inflating it', async () => {
    const bomb = patchDeclaredSize(docxPackage(para('small')), 'word/document.xml', 3_000_000_000);
    const started = Date.now();
    const err = await failure(extractDocx(scratch('.docx', bomb)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/word\/document\.xml.*more than the 100 MB limit/);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('stops a zip bomb that lies about its size at the limit', async () => {
    // 160 MB of spaces deflate to ~160 KB; the directory claims 1 KB.
    const deflated = deflateRawSync(Buffer.alloc(160 * 1024 * 1024, 0x20), { level: 9 });
    const stored = (name: string, text: string) => ({ name, data: strToU8(text), method: 0 as const, declaredSize: text.length });
    const bomb = rawZip([
      stored('_rels/.rels', rels([['rId1', 'officeDocument', 'word/document.xml']])),
      { name: 'word/document.xml', data: deflated, method: 8, declaredSize: 1024 },
    ]);
    expect(bomb.length).toBeLessThan(300_000);
    const started = Date.now();
    const err = await failure(extractDocx(scratch('.docx', bomb)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/inflates to more than/);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('refuses a truncated document', async () => {
    const bytes = fs.readFileSync(fx('docx/word_sample.docx'));
    const err = await failure(extractDocx(scratch('.docx', bytes.subarray(0, Math.floor(bytes.length / 2)))));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/truncated/);
  });

  it('refuses a document whose XML is malformed', async () => {
    const broken = zipSync({
      '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'word/document.xml']])),
      'word/document.xml': strToU8(`<w:document xmlns:w="${W_NS}"><w:body><w:p><w:r><w:t>unclosed`),
    });
    const err = await failure(extractDocx(scratch('.docx', broken)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
  });

  it('refuses bytes that are not a zip, a corrupt entry, and a DTD (entity bomb vehicle)', async () => {
    expect((await failure(extractDocx(scratch('.docx', 'just text, not a zip archive at all')))).code).toBe('CORRUPT_DOCUMENT');

    const good = docxPackage(para('hello'));
    const damaged = good.slice();
    const start = Buffer.from(damaged).indexOf('word/document.xml') + 'word/document.xml'.length;
    damaged.fill(0xff, start, start + 40); // garbage inside the first entry's data
    expect((await failure(extractDocx(scratch('.docx', damaged)))).code).toBe('CORRUPT_DOCUMENT');

    const dtd = docxPackage(para('x'), {
      'docProps/core.xml': strToU8('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;">]><cp:coreProperties xmlns:cp="c"><dc:title xmlns:dc="d">&b;</dc:title></cp:coreProperties>'),
    });
    const err = await failure(extractDocx(scratch('.docx', dtd)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/DTD/);
    // Also in a part only mammoth parses.
    const lol = `<?xml version="1.0"?><!DOCTYPE w:document [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;">]><w:document xmlns:w="${W_NS}"><w:body>${para('&b;')}</w:body></w:document>`;
    const inBody = await failure(extractDocx(scratch('.docx', docxPackage('', { 'word/document.xml': strToU8(lol) }))));
    expect(inBody.code).toBe('CORRUPT_DOCUMENT');
    expect(inBody.message).toMatch(/word\/document\.xml declares a DTD/);
    const inSheet = xlsxPackage([{ name: 'S', xml: '<sheetData/>' }]);
    const sheetWithDtd = zipSync({ ...unzipSync(inSheet), 'xl/worksheets/sheet1.xml': strToU8(`<!DOCTYPE x [<!ENTITY a "b">]><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData/></worksheet>`) });
    expect((await failure(extractXlsx(scratch('.xlsx', sheetWithDtd)))).message).toMatch(/declares a DTD/);
  });

  it('reports a password-protected (OLE-wrapped) document as ENCRYPTED_DOCUMENT', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(512), Buffer.from('EncryptionInfo', 'utf16le')]);
    expect((await failure(extractDocx(scratch('.docx', ole)))).code).toBe('ENCRYPTED_DOCUMENT');
  });

  it('refuses more pages than maxPages', async () => {
    const err = await failure(extractDocx(inputFor(fx('docx/docx_lists.docx'), { maxPages: 2 })));
    expect(err.code).toBe('TOO_MANY_PAGES');
  });
});

describe('XLSX generated workbooks', () => {
  it('renders values: formulas as results, dates as ISO, booleans, percentages, errors, escaped pipes', async () => {
    const xml = `<sheetData><row r="1"><c r="A1" t="inlineStr"><is><t>name</t></is></c><c r="B1" t="inlineStr"><is><t>value</t></is></c></row>
      <row r="2"><c r="A2" t="inlineStr"><is><t>sum|total</t></is></c><c r="B2"><f>1+2</f><v>3</v></c></row>
      <row r="3"><c r="A3" t="inlineStr"><is><t>flag</t></is></c><c r="B3" t="b"><v>1</v></c></row>
      <row r="4"><c r="A4" t="inlineStr"><is><t>error</t></is></c><c r="B4" t="e"><v>#DIV/0!</v></c></row>
      <row r="5"><c r="A5" t="inlineStr"><is><t>float</t></is></c><c r="B5"><v>0.30000000000000004</v></c></row>
      <row r="6"><c r="A6" t="inlineStr"><is><t>two
lines</t></is></c><c r="B6" t="inlineStr"><is><t>&lt;b&gt;</t></is></c></row>
      <row r="7"><c r="A7" t="inlineStr"><is><t>date</t></is></c><c r="B7" s="1"><v>45292</v></c></row>
      <row r="8"><c r="A8" t="inlineStr"><is><t>date-time</t></is></c><c r="B8" s="2"><v>45292.75</v></c></row>
      <row r="9"><c r="A9" t="inlineStr"><is><t>share</t></is></c><c r="B9" s="3"><v>0.25</v></c></row></sheetData>`;
    const styles =
      '<cellXfs count="4"><xf numFmtId="0"/><xf numFmtId="14" applyNumberFormat="1"/><xf numFmtId="22" applyNumberFormat="1"/><xf numFmtId="9" applyNumberFormat="1"/></cellXfs>';
    const { markdown } = await extractXlsx(scratch('.xlsx', xlsxPackage([{ name: 'Data', xml }], styles)));
    expect(markdown).toBe(
      '<!-- page 1 -->\n\n## Data\n\n| name | value |\n| --- | --- |\n| sum\\|total | 3 |\n| flag | TRUE |\n| error | #DIV/0! |\n| float | 0.3 |\n| two lines | \\<b> |\n| date | 2024-01-01 |\n| date-time | 2024-01-01T18:00:00 |\n| share | 25% |\n',
    );
  });

  it('completes a workbook without values with empty Markdown', async () => {
    const result = await extractXlsx(scratch('.xlsx', xlsxPackage([{ name: 'Empty', xml: '<sheetData/>' }])));
    expect(result.markdown).toBe('');
    expect(result.totalPages).toBe(1);
  });

  it('cuts a huge sheet at 100,000 cells with a note and ignores an absurd merged range', async () => {
    const rows = Array.from({ length: 400 }, (_, r) => Array.from({ length: 400 }, (_, c) => r * 400 + c));
    const xml = `${sheetData(rows)}<mergeCells count="1"><mergeCell ref="A1:XFD1048576"/></mergeCells>`;
    const started = Date.now();
    const { markdown } = await extractXlsx(scratch('.xlsx', xlsxPackage([{ name: 'Big', xml }])));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(markdown).toContain('*The sheet is truncated: only its first 100,000 cells were extracted.*');
    const tableRows = markdown.split('\n').filter((l) => l.startsWith('| ') && !l.startsWith('| ---'));
    expect(tableRows).toHaveLength(250); // 250 rows × 400 columns = 100,000 cells
    expect(tableRows[1]).toMatch(/^\| 400 \| 401 \| 402 /);
  });

  it('bounds the padding of a sparse block (an L of cells spanning a huge box)', async () => {
    const cells = [
      ...Array.from({ length: 1000 }, (_, c) => `<c r="${column(c + 1)}1"><v>${c}</v></c>`),
    ];
    const rows = [`<row r="1">${cells.join('')}</row>`];
    for (let r = 2; r <= 50_000; r++) rows.push(`<row r="${r}"><c r="A${r}"><v>${r}</v></c></row>`);
    const started = Date.now();
    const { markdown } = await extractXlsx(scratch('.xlsx', xlsxPackage([{ name: 'L', xml: `<sheetData>${rows.join('')}</sheetData>` }])));
    expect(Date.now() - started).toBeLessThan(20_000);
    expect(markdown).toContain('*The table is truncated: only its first 400 of 50,000 rows were extracted.*');
    expect(markdown.length).toBeLessThan(3_000_000);
  });

  it('refuses row numbers beyond the grid, and skips hidden sheets', async () => {
    const bad = xlsxPackage([{ name: 'S', xml: '<sheetData><row r="5000000"><c r="A5000000"><v>1</v></c></row></sheetData>' }]);
    const err = await failure(extractXlsx(scratch('.xlsx', bad)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/beyond Excel's limits/);

    const withHidden = xlsxPackage([
      { name: 'Shown', xml: sheetData([['a', 'b'], [1, 2]]) },
      { name: 'Secret', xml: sheetData([['hidden value']]), state: 'hidden' },
    ]);
    const result = await extractXlsx(scratch('.xlsx', withHidden));
    expect(result.totalPages).toBe(1);
    expect(result.markdown).not.toContain('Secret');
    expect(result.markdown).not.toContain('hidden value');
  });

  it('refuses malformed sheet XML and a workbook without a workbook part', async () => {
    const malformed = xlsxPackage([{ name: 'S', xml: '<sheetData><row r="1"><c r="A1"><v>1</v></row></sheetData>' }]);
    expect((await failure(extractXlsx(scratch('.xlsx', malformed)))).code).toBe('CORRUPT_DOCUMENT');
    const docx = fs.readFileSync(fx('docx/word_sample.docx'));
    expect((await failure(extractXlsx(scratch('.xlsx', docx)))).code).toBe('CORRUPT_DOCUMENT');
  });
});

describe('PPTX generated presentations', () => {
  it('orders shapes by position, nests bullets by level, and keeps placeholders titles first', async () => {
    const bullets = `<p:sp><p:nvSpPr><p:cNvPr id="3" name="Body"/><p:cNvSpPr/><p:nvPr><p:ph idx="1"/></p:nvPr></p:nvSpPr><p:spPr><a:xfrm><a:off x="0" y="500"/><a:ext cx="1" cy="1"/></a:xfrm></p:spPr><p:txBody><a:bodyPr/>
      <a:p><a:r><a:t>Top</a:t></a:r></a:p><a:p><a:pPr lvl="1"/><a:r><a:t>Nested</a:t></a:r></a:p>
      <a:p><a:pPr lvl="2"><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>Deep 1</a:t></a:r></a:p><a:p><a:pPr lvl="2"><a:buAutoNum type="arabicPeriod"/></a:pPr><a:r><a:t>Deep 2</a:t></a:r></a:p>
      <a:p><a:pPr><a:buNone/></a:pPr><a:r><a:t># not a heading &lt;i&gt;</a:t></a:r></a:p></p:txBody></p:sp>`;
    const slide = `${textBox('Lower text', 9000)}${bullets}${textBox('Slide title', 99999, '<p:ph type="title"/>')}`;
    const { markdown, totalPages } = await extractPptx(scratch('.pptx', pptxPackage([slide])));
    expect(totalPages).toBe(1);
    expect(markdown).toBe(
      '<!-- page 1 -->\n\n## Slide title\n\n- Top\n  - Nested\n    1. Deep 1\n    2. Deep 2\n\n\\# not a heading \\<i>\n\nLower text\n',
    );
  });

  it('completes slides without text with empty Markdown, and stops when cancelled between slides', async () => {
    const empty = await extractPptx(scratch('.pptx', pptxPackage(['', ''])));
    expect(empty).toMatchObject({ markdown: '', totalPages: 2 });

    const controller = new AbortController();
    const input = scratch('.pptx', pptxPackage([textBox('one', 0), textBox('two', 0), textBox('three', 0)]), {
      signal: controller.signal,
      onProgress: (done) => {
        if (done === 1) controller.abort();
      },
    });
    expect((await failure(extractPptx(input))).code).toBe('CANCELLED');
  });

  it('refuses malformed slide XML, a missing slide, and more slides than maxPages', async () => {
    const malformed = pptxPackage(['<p:sp><p:txBody><a:p></p:txBody></p:sp>']);
    const err = await failure(extractPptx(scratch('.pptx', malformed)));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
    expect(err.message).toMatch(/not well-formed XML/);

    const files = pptxPackage([textBox('a', 0)]);
    const missing = zipSync(Object.fromEntries(Object.entries(unzipSync(files)).filter(([name]) => !name.startsWith('ppt/slides/'))));
    expect((await failure(extractPptx(scratch('.pptx', missing)))).code).toBe('CORRUPT_DOCUMENT');

    const tooMany = await failure(extractPptx(inputFor(fx('office/powerpoint_sample.pptx'), { maxPages: 2 })));
    expect(tooMany.code).toBe('TOO_MANY_PAGES');
  });
});

describe('CSV', () => {
  it('detects the delimiter, strips the BOM, keeps quoted newlines in one cell and escapes pipes', async () => {
    const csv = '\uFEFFname;comment;n\r\n"Smith; J.";"line one\r\nline two";1\r\nDoe;a|b;2\r\n\r\nshort\r\n';
    const { markdown, totalPages } = await extractCsv(scratch('.csv', csv));
    expect(totalPages).toBe(1);
    expect(markdown).toBe(
      '| name | comment | n |\n| --- | --- | --- |\n| Smith; J. | line one line two | 1 |\n| Doe | a\\|b | 2 |\n| short |  |  |\n',
    );
  });

  it('cuts a huge file with a note, completes an empty one, refuses invalid UTF-8', async () => {
    const big = Array.from({ length: 30_000 }, (_, i) => `${i},b,c,d,e`).join('\n');
    const { markdown } = await extractCsv(scratch('.csv', big));
    expect(markdown).toContain('*The table is truncated: only its first 20,000 of 30,000 rows were extracted.*');
    expect(markdown.split('\n').filter((l) => /^\| \d/.test(l))).toHaveLength(20_000);

    expect((await extractCsv(scratch('.csv', ''))).markdown).toBe('');
    expect((await failure(extractCsv(scratch('.csv', Buffer.from([0x61, 0x2c, 0xff, 0xfe]))))).code).toBe('CORRUPT_DOCUMENT');
  });
});

describe('TXT and MD', () => {
  const paragraph = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });
  /** Where `part` is in `text` (the served Markdown), as a block's `prov.span`. */
  const at = (text: string, part: string) => ({ prov: { span: [text.indexOf(part), text.indexOf(part) + part.length] } });

  it('passes text through with \\n line endings and no BOM, escaping nothing', async () => {
    const result = await extractText(scratch('.txt', '\uFEFFline *one*\r\nline <two>\rthree\n'));
    expect(result).toEqual({
      markdown: 'line *one*\nline <two>\nthree\n',
      totalPages: 1,
      metadata: {},
      // The model says what the file says: a star is a star.
      document: { version: 1, metadata: {}, blocks: [{ ...paragraph('line *one*\nline <two>\nthree'), ...at('line *one*\nline <two>\nthree', 'line *one*\nline <two>\nthree') }] },
    });
  });

  it('takes a Markdown file as is, with its first-line heading as the title', async () => {
    const md = '# Notes\n\n- a\n- b\n';
    const result = await extractText(scratch('.md', md));
    expect(result).toEqual({
      markdown: md,
      totalPages: 1,
      metadata: { title: 'Notes' },
      document: {
        version: 1,
        metadata: { title: 'Notes' },
        blocks: [
          { type: 'heading', level: 1, content: [{ type: 'text', text: 'Notes' }], ...at(md, '# Notes') },
          { type: 'list', ordered: false, items: [{ content: [paragraph('a')], ...at(md, '- a') }, { content: [paragraph('b')], ...at(md, '- b') }], ...at(md, '- a\n- b') },
        ],
      },
    });
  });

  it('refuses invalid UTF-8 and binary content; completes an empty file', async () => {
    expect((await failure(extractText(scratch('.txt', Buffer.from([0x68, 0x69, 0xc3, 0x28]))))).code).toBe('CORRUPT_DOCUMENT');
    expect((await failure(extractText(scratch('.txt', Buffer.from([0x68, 0x00, 0x69]))))).code).toBe('CORRUPT_DOCUMENT');
    expect(await extractText(scratch('.md', ''))).toEqual({ markdown: '', totalPages: 1, metadata: {}, document: { version: 1, metadata: {}, blocks: [] } });
  });

  it("reads a Markdown file's model from its Markdown; serves the file's text unchanged", async () => {
    const md = 'Intro *em* and `x`\r\n\r\n| a | b |\n|---|---|\n| 1 | 2 |\n\n<!-- page 2 -->\n\n> quoted\n';
    for (const input of [scratch('.md', md), scratch('.markdown', md, { mimeType: 'text/markdown' })]) {
      const result = await extractText(input);
      expect(result.markdown).toBe(md.replace(/\r\n/g, '\n'));
      expect(result.layout).toBeUndefined();
      const served = md.replace(/\r\n/g, '\n');
      expect(result.document?.blocks).toEqual([
        {
          type: 'paragraph',
          content: [{ type: 'text', text: 'Intro ' }, { type: 'text', text: 'em', italic: true }, { type: 'text', text: ' and ' }, { type: 'text', text: 'x', code: true }],
          ...at(served, 'Intro *em* and `x`'),
        },
        {
          type: 'table',
          header_rows: 1,
          rows: [[{ content: [{ type: 'text', text: 'a' }] }, { content: [{ type: 'text', text: 'b' }] }], [{ content: [{ type: 'text', text: '1' }] }, { content: [{ type: 'text', text: '2' }] }]],
          ...at(served, '| a | b |\n|---|---|\n| 1 | 2 |'),
        },
        { type: 'section', kind: 'page', page: 2, content: [{ type: 'quote', content: [paragraph('quoted')], ...at(served, '> quoted') }], ...at(served, '<!-- page 2 -->\n\n> quoted') },
      ]);
    }
  });

  it("makes a text file's model of its paragraphs, split at blank lines, markup kept as text", async () => {
    const text = '# not a heading\n* not a list\n\n   \n  | not | a table |\n\n\nlast <b>line</b>';
    const result = await extractText(scratch('.txt', text, { mimeType: 'text/plain' }));
    expect(result.markdown).toBe(text);
    expect(result.document?.blocks).toEqual([
      { ...paragraph('# not a heading\n* not a list'), ...at(text, '# not a heading\n* not a list') },
      { ...paragraph('  | not | a table |'), ...at(text, '| not | a table |') },
      { ...paragraph('last <b>line</b>'), ...at(text, 'last <b>line</b>') },
    ]);
  });

  it('gives text and Markdown files their model through the engine too', async () => {
    const txt = await extractDocument(scratch('.txt', '*a*\n', { mimeType: 'text/plain' }));
    expect(txt).toMatchObject({ markdown: '*a*\n', document: { blocks: [paragraph('*a*')] } });
    const md = await extractDocument(scratch('.md', '*a*\n', { mimeType: 'text/markdown' }));
    expect(md).toMatchObject({ markdown: '*a*\n', document: { blocks: [{ type: 'paragraph', content: [{ type: 'text', text: 'a', italic: true }] }] } });
  });
});

describe('damaged packages, every zip format', () => {
  it.each<[string, Extractor, string, string]>([
    ['DOCX', extractDocx, 'docx/word_sample.docx', 'word/document.xml'],
    ['XLSX', extractXlsx, 'office/xlsx_01.xlsx', 'xl/worksheets/sheet1.xml'],
    ['PPTX', extractPptx, 'office/powerpoint_sample.pptx', 'ppt/slides/slide1.xml'],
  ])('%s: truncated, or with a part declaring 3 GB, ends as CORRUPT_DOCUMENT', async (_name, extract, file, part) => {
    const bytes = new Uint8Array(fs.readFileSync(fx(file)));
    const ext = path.extname(file);
    const truncated = await failure(extract(scratch(ext, bytes.subarray(0, bytes.length - 100))));
    expect(truncated.code).toBe('CORRUPT_DOCUMENT');
    const bomb = await failure(extract(scratch(ext, patchDeclaredSize(bytes, part, 3_000_000_000))));
    expect(bomb.code).toBe('CORRUPT_DOCUMENT');
    expect(bomb.message).toContain(part);
  });
});

describe('cancellation', () => {
  const aborted = () => {
    const controller = new AbortController();
    controller.abort();
    return controller.signal;
  };

  it.each<[string, Extractor, string]>([
    ['DOCX', extractDocx, 'docx/word_sample.docx'],
    ['XLSX', extractXlsx, 'office/xlsx_01.xlsx'],
    ['PPTX', extractPptx, 'office/powerpoint_sample.pptx'],
    ['HTML', extractHtml, 'office/html_rich_table_cells.html'],
    ['MD', extractText, 'docx/word_sample.md'],
  ])('%s with an aborted signal ends as CANCELLED without progress', async (_name, extract, file) => {
    const input = inputFor(fx(file), { signal: aborted() });
    const err = await failure(extract(input));
    expect(err.code).toBe('CANCELLED');
    expect(input.progress).toEqual([]);
  });

  it('CSV with an aborted signal ends as CANCELLED', async () => {
    expect((await failure(extractCsv(scratch('.csv', 'a,b\n1,2', { signal: aborted() })))).code).toBe('CANCELLED');
  });
});
