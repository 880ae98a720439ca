/**
 * The HTML → document model converter (lib/extraction/office/html-document.ts) that HTML pages,
 * EPUB chapters, e-mail bodies and DOCX (through mammoth) read through: the blocks it builds for
 * representative markup, and what it refuses or drops on hostile markup.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { renderMarkdown } from '@/lib/document/render';
import { withoutSpans } from '@/lib/document/serve';
import { DOCUMENT_VERSION, type Block } from '@/lib/document/types';
import { extractEml, extractEpub, extractHtml } from '@/lib/extraction/extractors';
import { htmlDocument } from '@/lib/extraction/office/html';
import { htmlToBlocks, type HtmlReadOptions } from '@/lib/extraction/office/html-document';
import { parseHtml } from '@/lib/extraction/office/html-parse';
import { ExtractionError } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractInput } from '@/test/support/extract-input';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-html-document-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const blocks = (html: string, options: HtmlReadOptions = { inlineImages: 'alt' }) => htmlToBlocks(parseHtml(html), options);
const markdown = (content: Block[]) => renderMarkdown({ version: DOCUMENT_VERSION, metadata: {}, blocks: content });
const text = (t: string, marks: object = {}) => ({ type: 'text', text: t, ...marks });
const para = (...content: object[]) => ({ type: 'paragraph', content });

describe('text and marks', () => {
  it('collapses whitespace as a browser does, keeps marks and line breaks, splits paragraphs at two breaks', () => {
    expect(blocks('<p>  Plain\n   text <b>bold <i>both</i></b> <s>gone</s> <code>x  =  1</code> H<sub>2</sub>O x<sup>2</sup> </p>')).toEqual([
      para(
        text('Plain text '),
        text('bold ', { bold: true }),
        text('both', { bold: true, italic: true }),
        text(' '),
        text('gone', { strike: true }),
        text(' '),
        text('x = 1', { code: true }),
        text(' H'),
        text('2', { subscript: true }),
        text('O x'),
        text('2', { superscript: true }),
      ),
    ]);
    expect(blocks('<div>one <br> two<br><br>three<br></div>')).toEqual([para(text('one'), { type: 'break' }, text('two')), para(text('three'))]);
    // Text beside block elements becomes paragraphs of its own; empty ones (a non-breaking space) none.
    expect(blocks('loose <div>inner</div> tail<p>&nbsp;</p>')).toEqual([para(text('loose')), para(text('inner')), para(text('tail'))]);
  });

  it('keeps http(s) and mailto links, drops the others to their text', () => {
    expect(blocks('<p><a href="https://example.com/a b">site</a>, <a href="mailto:x@y.z">mail</a>, <a href="javascript:alert(1)">js</a>, <a href="data:text/html,x">data</a>, <a href="#top">anchor</a></p>')).toEqual([
      para(
        text('site', { href: 'https://example.com/a%20b' }),
        text(', '),
        text('mail', { href: 'mailto:x@y.z' }),
        text(', js, data, anchor'),
      ),
    ]);
  });

  it('drops scripts, styles, templates and form fields; whatever `skip` says too', () => {
    const html = '<p>keep<script>alert(1)</script><style>p{}</style><template><p>t</p></template><input value="secret"></p><aside>side</aside>';
    expect(markdown(blocks(html))).toBe('keep\n\nside\n');
    expect(markdown(blocks(html, { inlineImages: 'alt', skip: (el) => el.nodeName === 'ASIDE' }))).toBe('keep\n');
  });
});

describe('blocks', () => {
  it('headings, quotes, rules and code with its language', () => {
    expect(blocks('<h2>Title <em>here</em></h2><blockquote><p>Quoted</p><p>twice</p></blockquote><hr><pre><code class="language-ts">const a = 1;\n  if (a) {}\n</code></pre><pre>plain  pre</pre><h3> </h3>')).toEqual([
      { type: 'heading', level: 2, content: [text('Title '), text('here', { italic: true })] },
      { type: 'quote', content: [para(text('Quoted')), para(text('twice'))] },
      { type: 'rule' },
      { type: 'code', text: 'const a = 1;\n  if (a) {}\n', language: 'ts' },
      { type: 'code', text: 'plain  pre' },
    ]);
  });

  it('nested lists, start and value numbers, task items', () => {
    const html = `<ol start="3"><li>three<ul><li>sub <b>one</b></li><li><p>sub two</p><p>more</p></li></ul></li><li value="7">seven</li><li>eight</li></ol>
      <ul><li><input type="checkbox" checked> done</li><li><input type="checkbox"> todo</li><li>plain</li></ul>`;
    const [ordered, tasks] = blocks(html) as [Extract<Block, { type: 'list' }>, Extract<Block, { type: 'list' }>];
    expect(ordered).toMatchObject({ type: 'list', ordered: true, start: 3 });
    expect(ordered.items.map((i) => i.number)).toEqual([undefined, 7, 8]);
    expect(ordered.items[0].content).toEqual([
      para(text('three')),
      { type: 'list', ordered: false, items: [{ content: [para(text('sub '), text('one', { bold: true }))] }, { content: [para(text('sub two')), para(text('more'))] }] },
    ]);
    expect(tasks.items.map((i) => i.checked)).toEqual([true, false, undefined]);
    expect(markdown([ordered, tasks])).toBe('3. three\n   - sub **one**\n   - sub two\n\n     more\n7. seven\n8. eight\n\n- [x] done\n- [ ] todo\n- plain\n');
  });

  it('a list written beside the items (not inside one) nests under the item before it', () => {
    expect(markdown(blocks('<ul><li>a</li><ul><li>a.1</li></ul><li>b</li></ul>'))).toBe('- a\n  - a.1\n- b\n');
  });

  it('images: a picture when alone, alternative text among text or inside a link, nothing without alt', () => {
    expect(blocks('<p><img src="a.png" alt="A chart  of sales"></p><p>Logo <img alt="ACME"> here</p><p><a href="https://x.example"><img alt="Home"></a></p><p><img src="data:image/png;base64,AAAA"></p>')).toEqual([
      { type: 'picture', alt: 'A chart of sales' },
      para(text('Logo ACME here')),
      para(text('Home', { href: 'https://x.example' })),
    ]);
    // Word's automatic descriptions lose their boilerplate; DOCX writes inline images as "Image: …".
    expect(blocks('<p><img alt="A duck. Description automatically generated"></p><p>See <img alt="icon"></p>', { inlineImages: 'placeholder' })).toEqual([
      { type: 'picture', alt: 'A duck.' },
      para(text('See '), text('Image: icon', { italic: true })),
    ]);
    expect(blocks('<figure><img alt="Map"><figcaption>Figure 2: <b>the</b> map</figcaption></figure>')).toEqual([
      { type: 'picture', alt: 'Map', caption: [text('Figure 2: '), text('the', { bold: true }), text(' map')] },
    ]);
  });

  it('placeholder tokens become their runs or blocks', () => {
    const values: Record<string, Block | object[]> = { tokA: [{ type: 'math', latex: 'x^2' }], tokB: { type: 'formula', latex: 'E=mc^2' } };
    const tokens = { marker: 'tok', pattern: /tok[AB]/g, resolve: (t: string) => values[t] as never };
    expect(blocks('<p>area tokA here</p><p>before tokB after</p>', { inlineImages: 'alt', tokens })).toEqual([
      para(text('area '), { type: 'math', latex: 'x^2' }, text(' here')),
      para(text('before')),
      { type: 'formula', latex: 'E=mc^2' },
      para(text('after')),
    ]);
  });
});

describe('tables', () => {
  it('header rows from <thead>, spans kept (written once), caption, rows without text left out', () => {
    const html = `<table><caption>Sales <i>2024</i></caption>
      <thead><tr><th rowspan="2">Region</th><th colspan="2">Quarter</th></tr><tr><th>Q1</th><th>Q2</th></tr></thead>
      <tbody><tr><td>North</td><td>1</td><td>2</td></tr><tr><td> </td><td></td><td>&nbsp;</td></tr><tr><td>South</td><td>3</td><td>4</td></tr></tbody></table>`;
    const [table] = blocks(html);
    expect(table).toEqual({
      type: 'table',
      header_rows: 2,
      caption: [text('Sales '), text('2024', { italic: true })],
      rows: [
        [{ content: [text('Region')], row_span: 2 }, { content: [text('Quarter')], col_span: 2 }],
        [{ content: [text('Q1')] }, { content: [text('Q2')] }],
        [{ content: [text('North')] }, { content: [text('1')] }, { content: [text('2')] }],
        [{ content: [text('South')] }, { content: [text('3')] }, { content: [text('4')] }],
      ],
    });
    expect(markdown([table])).toBe('Sales *2024*\n\n| Region | Quarter |  |\n| --- | --- | --- |\n|  | Q1 | Q2 |\n| North | 1 | 2 |\n| South | 3 | 4 |\n');
  });

  it('a span over a left-out row covers one row fewer; leading <th> rows are header rows without <thead>', () => {
    const [table] = blocks('<table><tr><th>A</th><th>B</th></tr><tr><td rowspan="3">tall</td><td>1</td></tr><tr><td></td></tr><tr><td>3</td></tr></table>');
    expect(table).toMatchObject({ header_rows: 1, rows: [[{}, {}], [{ content: [text('tall')], row_span: 2 }, { content: [text('1')] }], [{ content: [text('3')] }]] });
  });

  it('cells hold one line: blocks flattened, list markers kept, line breaks as spaces, a nested table as its text', () => {
    const html = `<table><tr><th>Kind</th><th>Detail</th></tr>
      <tr><td><ul><li>Pond</li><li>Marsh</li></ul></td><td><h2>Head</h2><p>para <i>one<br>two</i></p></td></tr>
      <tr><td><img alt="pic"></td><td><table><tr><td>inner</td><td>cells</td></tr><tr><td>x|y</td></tr></table></td></tr></table>`;
    const [table] = blocks(html) as [Extract<Block, { type: 'table' }>];
    expect(table.rows[1][1].content).toEqual([text('Head para '), text('one two', { italic: true })]);
    expect(markdown([table])).toBe('| Kind | Detail |\n| --- | --- |\n| - Pond - Marsh | Head para *one two* |\n| pic | inner cells x\\|y |\n');
  });

  it('a one-cell table is a layout box: its content stays blocks (a table inside it too)', () => {
    const html = '<table><caption>Box</caption><tr><td><h2>Inside</h2><p>text</p><table><tr><td>a</td><td>b</td></tr></table></td></tr></table>';
    expect(blocks(html)).toEqual([
      para(text('Box')),
      { type: 'heading', level: 2, content: [text('Inside')] },
      para(text('text')),
      { type: 'table', header_rows: 0, rows: [[{ content: [text('a')] }, { content: [text('b')] }]] },
    ]);
    // A table without text leaves its caption alone.
    expect(blocks('<table><caption>Empty</caption><tr><td></td><td> </td></tr></table>')).toEqual([para(text('Empty'))]);
  });
});

describe('hostile HTML', () => {
  it('refuses 100,000 nested <div>s quickly, as CORRUPT_DOCUMENT', async () => {
    const file = path.join(tmp, 'deep.html');
    fs.writeFileSync(file, `${'<div>'.repeat(100_000)}x${'</div>'.repeat(100_000)}`);
    const started = Date.now();
    const err = await extractHtml(extractInput(file, { mime_type: 'text/html', extension: '.html' }, tmp)).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ExtractionError);
    expect(err).toMatchObject({ code: 'CORRUPT_DOCUMENT', message: expect.stringMatching(/nested too deeply/) });
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('reads 900 nested elements of every kind, and a page of scripts and hidden markup, to text only', async () => {
    const deep = `${'<div><ul><li><blockquote><b>'.repeat(180)}deep${'</b></blockquote></li></ul></div>'.repeat(180)}`;
    const read = await htmlDocument(deep);
    expect(markdown(read.blocks)).toContain('deep');
    const page = `<html><head><title>T</title><script>steal()</script></head><body><p hidden>hidden</p>
      <p onclick="x()">Text &lt;b&gt;not bold&lt;/b&gt; <a href="javascript:steal()">click</a> <a href=" JAVASCRIPT:x">again</a></p>
      <svg><script>svg()</script><text>drawn</text></svg><iframe srcdoc="<p>framed</p>"></iframe></body></html>`;
    const { blocks: content, metadata } = await htmlDocument(page);
    expect(metadata).toEqual({ title: 'T' });
    const written = markdown(content);
    expect(written).toBe('Text \\<b>not bold\\</b> click again\n');
    expect(JSON.stringify(content)).not.toMatch(/javascript|steal|hidden|drawn|framed/i);
    // Hidden rows and cells are left out of tables as everywhere else.
    const table = await htmlDocument('<table><tr><td>a</td><td>b</td></tr><tr hidden><td>secret</td><td>x</td></tr><tr><td style="display:none">gone</td><td>c</td></tr></table>');
    expect(markdown(table.blocks)).toBe('| a | b |\n| --- | --- |\n| c |  |\n');
  });
});

describe('formats reading through HTML', () => {
  const fixture = (name: string, type: { mime_type: string; extension: string }) => extractInput(path.join(FIXTURES_DIR, 'formats', name), type, tmp);

  it('an e-mail is a message section, its attachments sections named after them', async () => {
    // The structure, without the blocks' spans in the Markdown.
    const document = withoutSpans((await extractEml(fixture('fake-email-attachment.eml', { mime_type: 'message/rfc822', extension: '.eml' }))).document!);
    const [message] = document.blocks as [Extract<Block, { type: 'section' }>];
    expect(message).toMatchObject({ type: 'section', kind: 'message' });
    expect(message.content[0]).toEqual({ type: 'heading', level: 1, content: [text('Fake email with attachment')] });
    const headers = message.content[1] as Extract<Block, { type: 'paragraph' }>;
    expect(headers.content.slice(0, 3)).toEqual([text('From:', { bold: true }), text(' Mallori Harrell <mallori@unstructured.io>'), { type: 'break' }]);
    expect(message.content.filter((b) => b.type === 'section')).toEqual([{ type: 'section', kind: 'attachment', name: 'fake-attachment.txt', content: [] }]);
  });

  it('an EPUB is one chapter section per spine document with content, numbered as pages', async () => {
    const result = await extractEpub(fixture('winter-sports.epub', { mime_type: 'application/epub+zip', extension: '.epub' }));
    const totalPages = result.totalPages;
    const chapters = withoutSpans(result.document!).blocks as Extract<Block, { type: 'section' }>[];
    expect(chapters.every((c) => c.type === 'section' && c.kind === 'chapter')).toBe(true);
    expect(chapters.map((c) => c.page)).toEqual(Array.from({ length: totalPages }, (_, i) => i + 1));
    expect(chapters[0].content).toEqual([{ type: 'picture', alt: 'Cover' }]);
  });
});
