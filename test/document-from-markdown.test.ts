/**
 * documentFromMarkdown (lib/document/from-markdown.ts): the mapping of every Markdown construct to
 * the model, page sections, the round trip through the renderer (a document read back from its
 * rendered Markdown is the same document, and keeps the original's text), long documents parsed
 * in pieces exactly as a whole, and hostile input (deep nesting, 5 MB, delimiter floods, random
 * bytes) parsed without throwing or overflowing the stack.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Nodes } from 'mdast';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { mathFromMarkdown } from 'mdast-util-math';
import { gfm } from 'micromark-extension-gfm';
import { math } from 'micromark-extension-math';
import { describe, expect, it } from 'vitest';
import { quarryDocumentSchema } from '@/lib/api/schemas/documents';
import { documentFromMarkdown } from '@/lib/document/from-markdown';
import { documentFromPlainText } from '@/lib/document/from-text';
import { markdownPieces, PIECE_LIMITS } from '@/lib/document/markdown-pieces';
import { MAX_DEPTH } from '@/lib/document/mdast-blocks';
import { renderMarkdown } from '@/lib/document/render';
import type { Block, Inline, QuarryDocument } from '@/lib/document/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';

const t = (text: string, marks: Omit<Extract<Inline, { type: 'text' }>, 'type' | 'text'> = {}): Inline => ({ type: 'text', text, ...marks });
const p = (...content: Inline[]): Block => ({ type: 'paragraph', content });
const blocks = (md: string) => documentFromMarkdown(md).blocks;

/** Letters and digits of everything the model says (text, code, formulas, alt texts). */
function modelText(doc: QuarryDocument): string {
  let out = '';
  const inline = (content: readonly Inline[] | undefined) => {
    for (const run of content ?? []) out += run.type === 'text' ? run.text : run.type === 'math' ? run.latex : '';
  };
  const stack: Block[] = [...doc.blocks].reverse();
  while (stack.length) {
    const b = stack.pop()!;
    switch (b.type) {
      case 'heading':
      case 'paragraph':
        inline(b.content);
        break;
      case 'table':
        inline(b.caption);
        for (const row of b.rows) for (const cell of row) inline(cell.content);
        break;
      case 'picture':
        out += b.alt ?? '';
        inline(b.caption);
        break;
      case 'code':
      case 'preformatted':
        out += b.text;
        break;
      case 'formula':
        out += b.latex;
        break;
      case 'list':
        for (let i = b.items.length - 1; i >= 0; i--) for (let j = b.items[i].content.length - 1; j >= 0; j--) stack.push(b.items[i].content[j]);
        break;
      case 'quote':
      case 'footnote':
      case 'section':
        for (let j = b.content.length - 1; j >= 0; j--) stack.push(b.content[j]);
        break;
    }
    out += ' ';
  }
  return out.replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Letters and digits of the original Markdown as the parser reads it, the whole text at once:
 * text, code, math and alternative texts; HTML without its comments; no definitions, no URLs.
 */
function markdownText(md: string): string {
  const tree = fromMarkdown(md, { extensions: [gfm(), math()], mdastExtensions: [gfmFromMarkdown(), mathFromMarkdown()] });
  let out = '';
  const visit = (node: Nodes) => {
    switch (node.type) {
      case 'definition':
        return;
      case 'tableRow': {
        // GFM drops the cells past the header row's.
        const row = node;
        const table = tree.children.find((c) => c.type === 'table' && c.children.includes(row));
        const width = table?.type === 'table' ? table.children[0].children.length : row.children.length;
        for (const cell of row.children.slice(0, width)) visit(cell);
        return;
      }
      case 'html':
        out += node.value.replace(/<!--[\s\S]*?-->/g, '');
        return;
      case 'image':
      case 'imageReference':
        out += node.alt ?? '';
        return;
      case 'paragraph': {
        // Quarry's "*Image: …*" line is a picture with that alternative text.
        const kids = node.children.filter((c) => !(c.type === 'text' && !/\S/.test(c.value)));
        const only = kids.length === 1 && kids[0].type === 'emphasis' && kids[0].children.length === 1 ? kids[0].children[0] : null;
        if (only?.type === 'text' && /^Image: \S/.test(only.value)) {
          out += `${only.value.slice(7)} `;
          return;
        }
      }
    }
    if ('value' in node) out += node.value;
    if ('children' in node) for (const child of node.children) visit(child);
    out += ' ';
  };
  visit(tree);
  return out.replace(/[^\p{L}\p{N}]+/gu, '');
}

/** The document parsed in one piece, as the parser alone reads it (the limits lifted). */
function whole(md: string): QuarryDocument {
  const saved = { ...PIECE_LIMITS };
  Object.assign(PIECE_LIMITS, { pieceBytes: Infinity, pieceLines: Infinity, unitBytes: Infinity, weight: Infinity });
  try {
    return documentFromMarkdown(md);
  } finally {
    Object.assign(PIECE_LIMITS, saved);
  }
}

/** Reads `md`, renders it and reads that back: the models of the first and second reading. */
function roundTrip(md: string) {
  const first = documentFromMarkdown(md);
  const second = documentFromMarkdown(renderMarkdown(first));
  const third = documentFromMarkdown(renderMarkdown(second));
  return { first, second, third };
}

/** A document's blocks without their page sections, as one list. */
function depthOf(list: readonly Block[]): number {
  let depth = 0;
  const stack: [Block, number][] = list.map((b) => [b, 1]);
  while (stack.length) {
    const [b, d] = stack.pop()!;
    depth = Math.max(depth, d);
    const children = b.type === 'list' ? b.items.flatMap((i) => i.content) : b.type === 'quote' || b.type === 'footnote' || b.type === 'section' ? b.content : [];
    for (const c of children) stack.push([c, d + 1]);
  }
  return depth;
}

const DOCS: Record<string, string> = {
  headings: '# One\n\n## Two *marked*\n\nSetext\n======\n\nSub\n---\n\n###### Six ##\n\nA paragraph\nwith a soft break and a hard  \nbreak and another\\\nbreak; entities &amp; &copy; &#35; stay text.\n',
  marks:
    'Some *italic*, **bold**, ***both***, ~~struck~~, `code`, **bold with *italic* inside** and\n' +
    '[a link](https://example.com/a_b) [**bold link**](http://x.y) [unsafe](javascript:alert(1)) [relative](/a/b)\n' +
    '<https://auto.link> www.example.org and mail@example.com, snake_case and 5 * 3 = 15.\n',
  lists:
    '- one\n- two\n  - nested *a*\n  - nested b\n    1. deep\n- three\n\n' +
    '7. seven\n8. eight\n\n' +
    '- [ ] open task\n- [x] done task\n\n' +
    '1. loose item\n\n   with a second paragraph\n\n2. second\n\n   ```sh\n   echo hi\n   ```\n',
  tables:
    '| Name | Value | Note |\n| :--- | ---: | :-: |\n| a | 1 | **bold** |\n| b \\| pipe | 2 |\n| c | 3 | `code` | extra |\n|  |  | [l](https://l.example) |\n\n' +
    'Name | Bare\n--- | ---\nx | y\n',
  code: '```ts\nconst a = `x`;\n```\n\n~~~\n```\nfence inside\n```\n~~~\n\n    indented code\n    second line\n\n```\n```\n',
  quotes: '> quoted *text*\ncontinued lazily\n\n> > nested quote\n> back to one\n>\n> - list in quote\n> - second\n>\n> ```\n> code in quote\n> ```\n',
  math: 'Inline $a^2 + b^2$ math, prices $5 and $10, escaped \\$x\\$.\n\n$$\n\\frac{1}{2}\n$$\n\n$$E = mc^2$$\n\nAnd $$x$$ inline.\n',
  footnotes: 'Text with a note[^1] and another[^long].\n\n[^1]: The note.\n\n[^long]: First paragraph.\n\n    Second paragraph of the note.\n',
  pictures: '![A duck](duck.png)\n\nInline ![icon](i.png) image and a ![ref image][img].\n\n![Ref alone][img]\n\n*Image: A chart of sales*\n\n[img]: https://example.com/i.png\n',
  html: '<div class="x">\n<b>bold</b> html\n</div>\n\nInline <span>html</span> and <!-- a comment --> here.\n\n<!-- image -->\n\n<script>alert(1)</script>\n',
  references: 'A [full][ref], a [collapsed][], a [shortcut] and an [undefined] one, [unsafe][bad].\n\n[ref]: https://example.com/ref "Title"\n[collapsed]: https://example.com/c\n[shortcut]: <https://example.com/s>\n[bad]: javascript:x\n',
  escapes:
    'Stars \\*not emphasis\\*, \\_under\\_, \\`tick\\`, \\<b>, \\[1\\](x), 1\\. not a list, \\# not a heading, \\- not a bullet.\n\n' +
    '\\> not a quote, a | pipe, tilde ~ alone, \\~~not struck\\~~, back\\\\slash, path C:\\dir.\n\n---\n\n***\n\n___\n',
  pages: 'Before the pages.\n\n<!-- page 1 -->\n\n# Page one\n\nText one.\n\n<!-- page 2 -->\n\n- a list on page two\n\n<!-- page 3 -->\n\n<!-- page 4 -->\n\nLast.\n',
};

/**
 * Documents whose model survives rendering exactly; the other two are stable after one round:
 * "math" (text "$x$" comes back as math: the renderer does not escape "$") and "escapes" (a "~"
 * next to a struck run's "~~" makes a run of three, which strikes nothing).
 */
const EXACT = ['headings', 'marks', 'lists', 'tables', 'code', 'quotes', 'footnotes', 'pictures', 'html', 'references', 'pages'];

function fixtureDocs(): [string, string][] {
  const dirs = ['docx', 'office'];
  const out: [string, string][] = [];
  for (const dir of dirs) {
    for (const name of fs.readdirSync(path.join(FIXTURES_DIR, dir)).filter((n) => n.endsWith('.md')).sort()) {
      out.push([`${dir}/${name}`, fs.readFileSync(path.join(FIXTURES_DIR, dir, name), 'utf8')]);
    }
  }
  const same = 'formats/same-content/eng_spa_mult.md';
  out.push([same, fs.readFileSync(path.join(FIXTURES_DIR, same), 'utf8')]);
  return out;
}

describe('documentFromMarkdown: the mapping', () => {
  it('maps headings, paragraphs, marks, breaks and links', () => {
    expect(blocks('# Title\n\nA *b* **c** ~~d~~ `e` [f](https://f.example) [g](javascript:x)  \nnext\nline')).toEqual([
      { type: 'heading', level: 1, content: [t('Title')] },
      p(t('A '), t('b', { italic: true }), t(' '), t('c', { bold: true }), t(' '), t('d', { strike: true }), t(' '), t('e', { code: true }), t(' '), t('f', { href: 'https://f.example' }), t(' g'), { type: 'break' }, t('next\nline')),
    ]);
    // The spaces at a marked run's edges are outside its marks, as the renderer writes them.
    expect(blocks('[**x** y](mailto:a@b.example)')).toEqual([p(t('x', { bold: true, href: 'mailto:a@b.example' }), t(' '), t('y', { href: 'mailto:a@b.example' }))]);
  });

  it('maps lists with their start, nesting and task items', () => {
    expect(blocks('3. a\n4. b\n   - [x] c\n   - [ ] d\n')).toEqual([
      {
        type: 'list',
        ordered: true,
        start: 3,
        items: [
          { content: [p(t('a'))] },
          {
            content: [p(t('b')), { type: 'list', ordered: false, items: [{ content: [p(t('c'))], checked: true }, { content: [p(t('d'))], checked: false }] }],
          },
        ],
      },
    ]);
  });

  it('maps tables (one header row, rows padded or cut to the header width)', () => {
    expect(blocks('| a | b |\n| - | - |\n| 1 \\| 2 |\n| 3 | **4** | 5 |')).toEqual([
      {
        type: 'table',
        header_rows: 1,
        rows: [
          [{ content: [t('a')] }, { content: [t('b')] }],
          [{ content: [t('1 | 2')] }, { content: [] }],
          [{ content: [t('3')] }, { content: [t('4', { bold: true })] }],
        ],
      },
    ]);
  });

  it('maps code, quotes, rules, math, footnotes and pictures', () => {
    expect(blocks('```py\nx = 1\n```\n\n> q\n\n---\n\n$$\nx^2\n$$\n\n$$y$$\n\nIn $z$ and $5 or $6.\n\nA[^n].\n\n[^n]: Note.\n\n![Alt](a.png)\n\n*Image: Chart*')).toEqual([
      { type: 'code', text: 'x = 1', language: 'py' },
      { type: 'quote', content: [p(t('q'))] },
      { type: 'rule' },
      { type: 'formula', latex: 'x^2' },
      { type: 'formula', latex: 'y' },
      p(t('In '), { type: 'math', latex: 'z' }, t(' and $5 or $6.')),
      p(t('A'), { type: 'footnote_ref', label: 'n' }, t('.')),
      { type: 'footnote', label: 'n', content: [p(t('Note.'))] },
      { type: 'picture', alt: 'Alt' },
      { type: 'picture', alt: 'Chart' },
    ]);
    expect(blocks('An ![inline](i.png) image')).toEqual([p(t('An inline image'))]);
    expect(blocks('![](i.png)')).toEqual([{ type: 'picture' }]);
  });

  it('resolves reference links through their definitions, which are dropped', () => {
    expect(blocks('[a][r] [b] [c][bad] [none]\n\n[r]: https://r.example\n[b]: http://b.example\n[bad]: javascript:x')).toEqual([
      p(t('a', { href: 'https://r.example' }), t(' '), t('b', { href: 'http://b.example' }), t(' c [none]')),
    ]);
  });

  it('keeps raw HTML as literal text and drops comments', () => {
    expect(blocks('<div>\n<b>x</b>\n</div>\n\nA <i>b</i> <!-- c --> d\n\n<!-- image -->')).toEqual([p(t('<div>\n<b>x</b>\n</div>')), p(t('A <i>b</i>  d'))]);
  });

  it('makes a page section of each page marker, holding the blocks up to the next', () => {
    expect(blocks('Intro\n\n<!-- page 1 -->\n\nOne\n\n<!-- page 2 -->\n\n<!-- page 3 -->\n\n- Three\n\n> <!-- page 9 -->')).toEqual([
      p(t('Intro')),
      { type: 'section', kind: 'page', page: 1, content: [p(t('One'))] },
      { type: 'section', kind: 'page', page: 2, content: [] },
      { type: 'section', kind: 'page', page: 3, content: [{ type: 'list', ordered: false, items: [{ content: [p(t('Three'))] }] }] },
    ]);
  });

  it('keeps the metadata it is given; an empty text is an empty document', () => {
    expect(documentFromMarkdown('', { title: 'T' })).toEqual({ version: 1, metadata: { title: 'T' }, blocks: [] });
    expect(documentFromMarkdown('\n\n  \n').blocks).toEqual([]);
  });

  it('gives documents the served schema accepts', () => {
    for (const md of Object.values(DOCS)) expect(quarryDocumentSchema.safeParse(documentFromMarkdown(md)).success).toBe(true);
  });
});

describe('documentFromMarkdown: the round trip through the renderer', () => {
  const cases: [string, string][] = [...Object.entries(DOCS), ...fixtureDocs()];

  it.each(cases)('%s: read back from its Markdown it is the same document, with the same text', (name, md) => {
    const { first, second, third } = roundTrip(md);
    expect(third).toEqual(second);
    if (EXACT.includes(name) || name.includes('/')) expect(second).toEqual(first);
    expect(modelText(second)).toBe(modelText(first));
    expect(modelText(first)).toBe(markdownText(md));
  });

  it('reads every construct of the covering documents', () => {
    const types = new Set<string>();
    const stack = Object.values(DOCS).flatMap((md) => documentFromMarkdown(md).blocks);
    while (stack.length) {
      const b = stack.pop()!;
      types.add(b.type);
      if (b.type === 'list') for (const item of b.items) stack.push(...item.content);
      if (b.type === 'quote' || b.type === 'footnote' || b.type === 'section') stack.push(...b.content);
      if (b.type === 'paragraph') for (const run of b.content) types.add(run.type === 'text' ? `text:${Object.keys(run).filter((k) => k !== 'type' && k !== 'text').sort().join('+')}` : run.type);
    }
    for (const type of ['heading', 'paragraph', 'list', 'table', 'picture', 'code', 'quote', 'formula', 'footnote', 'rule', 'section']) expect(types).toContain(type);
    for (const run of ['break', 'math', 'footnote_ref', 'text:italic', 'text:bold', 'text:strike', 'text:code', 'text:href', 'text:bold+href']) expect(types).toContain(run);
  });
});

describe('documentFromMarkdown: long documents, in pieces', () => {
  it('parses a long document as the sum of its parts', { timeout: 300_000 }, () => {
    const part = Object.values(DOCS).filter((md) => !md.includes('[^') && !md.includes(']:')).join('\n\n');
    const copies = Math.ceil((3 * PIECE_LIMITS.pieceBytes) / part.length);
    const long = Array.from({ length: copies }, () => part).join('\n\n');
    expect(markdownPieces(long).length).toBeGreaterThan(2);
    expect(documentFromMarkdown(long)).toEqual(whole(long));
    expect(modelText(documentFromMarkdown(long))).toBe(modelText(documentFromMarkdown(part)).repeat(copies));
  });

  it('keeps a long table, list, quote, paragraph and code block whole', { timeout: 300_000 }, () => {
    const rows = 6000;
    const table = `| n | text |\n| - | - |\n${Array.from({ length: rows }, (_, i) => `| ${i} | row *${i}* |`).join('\n')}`;
    expect(documentFromMarkdown(table)).toEqual(whole(table));
    const [t1] = blocks(table);
    expect(t1.type === 'table' && t1.rows.length).toBe(rows + 1);
    expect(t1.type === 'table' && t1.rows[rows]).toEqual([{ content: [t(String(rows - 1))] }, { content: [t('row '), t(String(rows - 1), { italic: true })] }]);

    const list = Array.from({ length: 3000 }, (_, i) => `- item ${i}\n  - sub ${i}`).join('\n');
    expect(documentFromMarkdown(list)).toEqual(whole(list));
    const [l1] = blocks(list);
    expect(l1.type === 'list' && l1.items.length).toBe(3000);
    expect(l1.type === 'list' && l1.items[2999].content).toEqual([p(t('item 2999')), { type: 'list', ordered: false, items: [{ content: [p(t('sub 2999'))] }] }]);

    const quote = Array.from({ length: 3000 }, (_, i) => `> line ${i}`).join('\n');
    expect(blocks(quote)).toEqual([{ type: 'quote', content: [p(t(Array.from({ length: 3000 }, (_, i) => `line ${i}`).join('\n')))] }]);

    const lines = Array.from({ length: 5000 }, (_, i) => `line ${i} of one paragraph`);
    expect(blocks(lines.join('\n'))).toEqual([p(t(lines.join('\n')))]);

    const code = Array.from({ length: 30_000 }, (_, i) => `code line ${i} *`).join('\n');
    expect(markdownPieces(`\`\`\`\n${code}\n\`\`\``).length).toBeGreaterThan(1);
    expect(blocks(`\`\`\`\n${code}\n\`\`\``)).toEqual([{ type: 'code', text: code }]);
  });

  it('resolves references and footnotes defined in another piece', { timeout: 60_000 }, () => {
    const filler = Array.from({ length: 3000 }, (_, i) => `Paragraph ${i} of filler text.`).join('\n\n');
    const md = `See [the site][site] and a note[^n].\n\n${filler}\n\n[site]: https://site.example\n\n[^n]: The note.\n`;
    expect(markdownPieces(md).length).toBeGreaterThan(1);
    const doc = blocks(md);
    expect(doc[0]).toEqual(p(t('See '), t('the site', { href: 'https://site.example' }), t(' and a note'), { type: 'footnote_ref', label: 'n' }, t('.')));
    expect(doc.at(-1)).toEqual({ type: 'footnote', label: 'n', content: [p(t('The note.'))] });
  });
});

describe('documentFromMarkdown: hostile input', () => {
  it.each([
    ['10,000 nested quotes', '>'.repeat(10_000) + ' deep'],
    ['10,000 nested quotes with spaces', '> '.repeat(10_000) + 'deep'],
    ['10,000 nested bullets', '- '.repeat(10_000) + 'deep'],
    ['10,000 nested ordered items', '1. '.repeat(10_000) + 'deep'],
    ['10,000 nested footnote definitions', '[^a]: '.repeat(10_000) + 'deep'],
    ['10,000 lines of quotes, each one deeper', Array.from({ length: 10_000 }, (_, i) => `${'>'.repeat(Math.min(i + 1, 400))} deep`).join('\n')],
    ['3,000 lines of lists, each one deeper', Array.from({ length: 3000 }, (_, i) => `${' '.repeat(2 * i)}- deep`).join('\n')],
  ])('%s: no stack overflow, nesting capped, text kept', { timeout: 60_000 }, (_name, md) => {
    const doc = documentFromMarkdown(md);
    expect(depthOf(doc.blocks)).toBeLessThanOrEqual(MAX_DEPTH + 1);
    expect(modelText(doc)).toMatch(/^(deep)+$/);
    expect(() => renderMarkdown(doc)).not.toThrow();
  });

  it('delimiter floods finish quickly and keep their text (as plain text)', () => {
    for (const md of [
      '*'.repeat(20_000) + 'x' + '*'.repeat(20_000),
      '**a '.repeat(5000) + 'x' + ' b**'.repeat(5000),
      '[a '.repeat(5000) + 'x' + '](http://a)'.repeat(5000),
      '![a '.repeat(5000) + 'x' + '](http://a)'.repeat(5000),
      '[a](http://a) '.repeat(5000),
      '*_'.repeat(10_000) + 'x' + '_*'.repeat(10_000),
    ]) {
      const started = performance.now();
      const doc = documentFromMarkdown(md);
      expect(performance.now() - started).toBeLessThan(5000);
      expect(modelText(doc)).toBe(md.replace(/[^\p{L}\p{N}]+/gu, ''));
    }
  });

  it('parses 5 MB of Markdown, keeping its text', { timeout: 300_000 }, () => {
    const part = [DOCS.headings, DOCS.marks, DOCS.escapes, DOCS.code, DOCS.tables].join('\n\n');
    const copies = Math.ceil(5_000_000 / (part.length + 2));
    const md = Array.from({ length: copies }, () => part).join('\n\n');
    expect(md.length).toBeGreaterThanOrEqual(5_000_000);
    expect(modelText(documentFromMarkdown(md))).toBe(modelText(documentFromMarkdown(part)).repeat(copies));
    const line = 'word '.repeat(1_000_000);
    expect(documentFromMarkdown(line).blocks).toEqual([p(t(line.trim()))]);
  });

  it('never throws on random bytes or shuffled Markdown', () => {
    let seed = 7;
    const random = () => {
      seed = (seed * 1103515245 + 12345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const alphabet = ' \n\n\t>*_-+`~[]()!<>#|$\\&:;.1^x';
    const samples = Object.values(DOCS).join('\n');
    for (let i = 0; i < 300; i++) {
      const length = Math.floor(random() * 2000);
      let md = '';
      if (i % 3 === 0) md = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256))).toString('utf8');
      else if (i % 3 === 1) for (let k = 0; k < length; k++) md += alphabet[Math.floor(random() * alphabet.length)];
      else for (let k = 0; k < length / 20; k++) md += samples.slice(Math.floor(random() * samples.length)).slice(0, Math.floor(random() * 40));
      const doc = documentFromMarkdown(md);
      expect(quarryDocumentSchema.safeParse(doc).success).toBe(true);
      expect(modelText(doc)).toBe(markdownText(md));
      expect(quarryDocumentSchema.safeParse(documentFromMarkdown(renderMarkdown(doc))).success).toBe(true);
    }
  });
});

describe('documentFromPlainText', () => {
  it('makes paragraphs at blank lines and reads no markup', () => {
    expect(documentFromPlainText('# not a heading\n*a* <b>\n\n \n  indented line\n\nlast', { title: 'x' })).toEqual({
      version: 1,
      metadata: { title: 'x' },
      blocks: [p(t('# not a heading\n*a* <b>')), p(t('  indented line')), p(t('last'))],
    });
    expect(documentFromPlainText('').blocks).toEqual([]);
  });
});
