/**
 * The formats beyond PDF, images and OOXML (lib/extraction/office: odf, epub, rtf, email, legacy,
 * text-formats): every shared fixture in formats/ is typed as an upload would be (by content)
 * and extracted; the same text in every format scores ≥ 0.90 against its Markdown; structure,
 * metadata and hostile inputs are checked per format. .xls and .ppt need LibreOffice: with it
 * they give Markdown, without it a refusal naming what to install.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractDocument } from '@/lib/extraction/engine';
import { findSoffice } from '@/lib/extraction/formats';
import { ExtractionWorkerPool } from '@/lib/extraction/pool';
import { textSimilarity } from '@/lib/extraction/quality';
import { ExtractionError, type ExtractResult } from '@/lib/extraction/types';
import { detectFileOnDisk } from '@/lib/files/detect-file';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractInput } from '@/test/support/extract-input';

const FORMATS = path.join(FIXTURES_DIR, 'formats');
const SAME = path.join(FORMATS, 'same-content');
const HAVE_SOFFICE = findSoffice() !== null;

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-formats-'));
});
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function extract(file: string, as?: { mime_type: string; extension: string }): Promise<ExtractResult> {
  const type = as ?? (await detectFileOnDisk(file));
  return extractDocument(extractInput(file, type, tmp));
}

/** Writes `content` under tmp and extracts it (as `as`, or typed as an upload would be). */
async function extractBytes(name: string, content: string | Uint8Array, as?: { mime_type: string; extension: string }): Promise<ExtractResult> {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, content);
  return extract(file, as);
}

async function failure(promise: Promise<unknown>): Promise<ExtractionError> {
  const err = await promise.then(() => null, (e: unknown) => e);
  expect(err).toBeInstanceOf(ExtractionError);
  return err as ExtractionError;
}

const fixtureFiles = [
  ...fs.readdirSync(FORMATS).filter((n) => fs.statSync(path.join(FORMATS, n)).isFile()).map((n) => path.join(FORMATS, n)),
  path.join(FIXTURES_DIR, 'large', 'handbook-872p.docx'),
];

describe('every format fixture', () => {
  it.each(fixtureFiles.map((f) => [path.basename(f), f]))('%s extracts to Markdown', async (_name, file) => {
    const type = await detectFileOnDisk(file);
    if (['.xls', '.ppt'].includes(type.extension) && !HAVE_SOFFICE) {
      const err = await failure(extract(file));
      expect(err.code).toBe('UNSUPPORTED_FORMAT');
      expect(err.message).toMatch(/LibreOffice.*apt-get install .*libreoffice-(calc|impress)/);
      return;
    }
    const result = await extract(file);
    expect(result.markdown.trim().length).toBeGreaterThan(20);
    // Never raw HTML: every "<" is escaped except the page markers.
    expect(result.markdown).not.toMatch(/(^|[^\\])<(?!!-- page \d+ -->)[a-z!/]/im);
  }, 60_000);
});

describe('same text in every format', () => {
  const reference = fs.readFileSync(path.join(SAME, 'eng_spa_mult.md'), 'utf8');
  const files = fs.readdirSync(SAME).filter((n) => n !== 'eng_spa_mult.md');

  it.each(files)('%s scores at least 0.90 against eng_spa_mult.md', async (name) => {
    const result = await extract(path.join(SAME, name));
    expect(textSimilarity(result.markdown, reference)).toBeGreaterThanOrEqual(0.9);
  });

  it('reads a DOCX named .doc and a PPTX named .ppt by their content', async () => {
    expect((await detectFileOnDisk(path.join(SAME, 'eng_spa_mult.doc'))).extension).toBe('.docx');
    expect((await detectFileOnDisk(path.join(SAME, 'eng_spa_mult.ppt'))).extension).toBe('.pptx');
  });
});

describe('structure and metadata', () => {
  it('text markup: RST and Org headings and code blocks, TSV and XML records as tables', async () => {
    for (const name of ['README.rst', 'README.org']) {
      const { markdown } = await extract(path.join(FORMATS, name));
      expect(markdown).toMatch(/^# Example Docs$/m);
      expect(markdown).toMatch(/^## XBRL 10-K$/m);
      expect(markdown).toMatch(/^```bash\ncurl -O \\$/m);
      expect(markdown).toContain('`example-10k.html`');
    }
    const rst = await extractBytes('t.rst', 'Title\n=====\n\n.. note::\n   :class: x\n\n   Be careful.\n\n.. a comment\n   continues\n');
    expect(rst.markdown).toBe('# Title\n\nBe careful.\n');
    const org = await extractBytes('t.org', '#+TITLE: Doc\n* Head :tag:\nSee [[https://example.com][the site]].\n');
    expect(org.markdown).toBe('# Doc\n\n# Head\n\nSee [the site](https://example.com).\n');
    expect(org.metadata.title).toBe('Doc');
    expect((await extract(path.join(FORMATS, 'stanley-cups.tsv'))).markdown).toContain('| Maple Leafs | TOR | 13 |');
    const xml = (await extract(path.join(FORMATS, 'factbook.xml'))).markdown;
    expect(xml).toContain('| name | capital | leader | sport |');
    expect(xml).toContain('| Trinidad & Tobado | Port of Spain | Keith Rowley | Track & Field |');
  });

  it('JSON: tables for arrays of records, headings for nested objects, bad JSON kept as code', async () => {
    const json = await extractBytes('data.json', JSON.stringify({ name: 'Quarry', owners: [{ id: 1, who: 'Ann' }, { id: 2, who: 'Bo' }], tags: ['a', 'b'] }));
    expect(json.markdown).toContain('**name:** Quarry');
    expect(json.markdown).toMatch(/^# owners\n\n\| id \| who \|\n\| --- \| --- \|\n\| 1 \| Ann \|/m);
    expect(json.markdown).toMatch(/^# tags\n\n- a\n- b$/m);
    expect((await extractBytes('lines.json', '{"a":1}\n{"a":2}\n')).markdown).toBe('```json\n{"a":1}\n{"a":2}\n```\n');
  });

  it('ODT: headings, lists, tables, metadata', async () => {
    const simple = await extract(path.join(FORMATS, 'simple.odt'));
    expect(simple.markdown).toMatch(/^# These are a few of my favorite things:$/m);
    expect(simple.markdown).toMatch(/^- Hockey$/m);
    expect(simple.metadata.created_date).toBe('2024-05-15T21:26:37.000Z');
    expect((await extract(path.join(FORMATS, 'fake.odt'))).markdown).toContain('| Color | Blue | Red | Green |');
  });

  const ODF_NS = 'xmlns:office="o" xmlns:table="t" xmlns:text="x" xmlns:draw="d" xmlns:presentation="p"';
  const odf = (mime: string, body: string) =>
    zipSync({
      mimetype: strToU8(mime),
      'META-INF/manifest.xml': strToU8('<manifest:manifest xmlns:manifest="m"/>'),
      'content.xml': strToU8(`<office:document-content ${ODF_NS}><office:body>${body}</office:body></office:document-content>`),
      'meta.xml': strToU8('<office:document-meta xmlns:office="o" xmlns:dc="dc"><office:meta><dc:title>Plan</dc:title></office:meta></office:document-meta>'),
    });

  it('ODS: one section per sheet; Calc\'s million repeated empty rows and columns cost nothing', async () => {
    const row = (...cells: string[]) => `<table:table-row>${cells.map((c) => `<table:table-cell><text:p>${c}</text:p></table:table-cell>`).join('')}<table:table-cell table:number-columns-repeated="16380"/></table:table-row>`;
    const empty = '<table:table-row table:number-rows-repeated="1048570"><table:table-cell table:number-columns-repeated="16384"/></table:table-row>';
    const body = `<office:spreadsheet><table:table table:name="Costs">${row('Item', 'Cost')}${row('Paper', '3')}${empty}</table:table><table:table table:name="Notes">${row('Due', 'Friday')}${empty}</table:table></office:spreadsheet>`;
    const started = Date.now();
    const result = await extractBytes('book.ods', odf('application/vnd.oasis.opendocument.spreadsheet', body));
    expect(Date.now() - started).toBeLessThan(5000);
    expect(result.totalPages).toBe(2);
    expect(result.metadata.title).toBe('Plan');
    expect(result.markdown).toBe('<!-- page 1 -->\n\n## Costs\n\n| Item | Cost |\n| --- | --- |\n| Paper | 3 |\n\n<!-- page 2 -->\n\n## Notes\n\n| Due | Friday |\n| --- | --- |\n');
  });

  it('ODP: one section per slide with the title as heading, bullets and speaker notes', async () => {
    const frame = (cls: string, inner: string) => `<draw:frame presentation:class="${cls}"><draw:text-box>${inner}</draw:text-box></draw:frame>`;
    const slide = (name: string, title: string, items: string[], notes: string) =>
      `<draw:page draw:name="${name}">${frame('title', `<text:p>${title}</text:p>`)}${frame('outline', `<text:list>${items.map((i) => `<text:list-item><text:p>${i}</text:p></text:list-item>`).join('')}</text:list>`)}<presentation:notes>${frame('notes', `<text:p>${notes}</text:p>`)}</presentation:notes></draw:page>`;
    const body = `<office:presentation>${slide('s1', 'Goals', ['Ship', 'Test'], 'Say hello')}${slide('s2', 'Plan', ['Week 1'], 'Questions')}</office:presentation>`;
    const result = await extractBytes('deck.odp', odf('application/vnd.oasis.opendocument.presentation', body));
    expect(result.totalPages).toBe(2);
    expect(result.markdown).toContain('<!-- page 1 -->\n\n## Goals\n\n- Ship\n- Test\n\n> **Notes:** Say hello\n\n<!-- page 2 -->\n\n## Plan');
  });

  it('email: headers as metadata, the HTML body preferred, attachments by name, UTF-16 messages', async () => {
    const eml = await extract(path.join(FORMATS, 'fake-email-attachment.eml'));
    expect(eml.metadata).toMatchObject({ title: 'Fake email with attachment', from: 'Mallori Harrell <mallori@unstructured.io>', created_date: '2022-12-23T18:08:48.000Z' });
    expect(eml.markdown).toMatch(/^# Fake email with attachment$/m);
    expect(eml.markdown).toMatch(/\*\*Attachments:\*\*\n\n- fake-attachment\.txt/);
    const both = await extract(path.join(FORMATS, 'mime-different-plain-html.eml'));
    expect(both.markdown).toContain('This is the `text/html` part.');
    expect(both.markdown).not.toContain('text/plain part');
    expect(both.metadata.to).toBe('recipient@example.com');
    expect((await extract(path.join(FORMATS, 'fake-email-utf-16-le.eml'))).markdown).toContain('- Violets are blue');
    const msg = await extract(path.join(FORMATS, 'fake-email-attachment.msg'));
    expect(msg.metadata).toMatchObject({ title: 'Fake email with attachment', author: 'Mallori Harrell <mallori@unstructured.io>' });
    expect(msg.markdown).toContain('- fake-attachment.txt');
  });

  it('EPUB: one section per chapter in spine order, title and author as metadata', async () => {
    const book = await extract(path.join(FORMATS, 'winter-sports.epub'));
    expect(book.metadata).toMatchObject({ title: 'Winter Sports in Switzerland', author: 'E. F. Benson' });
    const markers = [...book.markdown.matchAll(/^<!-- page (\d+) -->$/gm)].map((m) => Number(m[1]));
    expect(markers).toEqual(Array.from({ length: book.totalPages }, (_, i) => i + 1));
    expect(book.totalPages).toBeGreaterThan(5);
    expect(book.markdown.indexOf('The Project Gutenberg eBook of Winter Sports')).toBeLessThan(book.markdown.indexOf('END OF THE PROJECT GUTENBERG'));
  });

  it('RTF: headings and tables; Word 97-2003 text', async () => {
    const rtf = await extract(path.join(FORMATS, 'fake-doc.rtf'));
    expect(rtf.markdown).toMatch(/^# My First Heading$/m);
    expect(rtf.markdown).toContain('| Row 2, Cell 1 | Row 2, Cell 2 |');
    const unicode = await extractBytes('u.rtf', "{\\rtf1\\ansi\\ansicpg1252{\\info{\\title Caf\\'e9}}{\\fonttbl{\\f0 Arial;}}\\f0 na\\u239?ve caf\\'e9\\par}");
    expect(unicode.markdown).toBe('naïve café\n');
    expect(unicode.metadata.title).toBe('Café');
    expect((await extract(path.join(FORMATS, 'simple.doc'))).markdown).toContain('This is my first thought. This is my second thought.');
  });

  it.runIf(HAVE_SOFFICE)('XLS and PPT through LibreOffice: sheets and slides as sections', async () => {
    const xls = await extract(path.join(FORMATS, 'tests-example.xls'));
    expect(xls.markdown).toMatch(/^<!-- page 1 -->\n\n## Example Test$/m);
    expect(xls.markdown).toContain('| TF | Bagpipes are awesome. | true |');
    const ppt = await extract(path.join(FORMATS, 'fake-power-point.ppt'));
    expect(ppt.markdown).toMatch(/^## Adding a Bullet Slide$/m);
  }, 60_000);
});

it('without LibreOffice, .xls and .ppt fail naming the Debian packages to install', async () => {
  const saved = process.env.PATH;
  process.env.PATH = path.join(tmp, 'no-programs-here');
  try {
    const xls = await failure(extract(path.join(FORMATS, 'tests-example.xls')));
    expect(xls.code).toBe('UNSUPPORTED_FORMAT');
    expect(xls.message).toContain('apt-get install --no-install-recommends libreoffice-core libreoffice-calc');
    const ppt = await failure(extract(path.join(FORMATS, 'fake-power-point.ppt')));
    expect(ppt.message).toContain('libreoffice-impress');
  } finally {
    process.env.PATH = saved;
  }
});

it('runs in the extraction worker process as the server does (bundled, packages loaded there)', async () => {
  const pool = new ExtractionWorkerPool();
  try {
    const names = ['fake-email.eml', 'fake-email.msg', 'simple.doc', 'fake-doc.rtf', 'winter-sports.epub', 'fake.odt', 'factbook.xml', ...(HAVE_SOFFICE ? ['tests-example.xls'] : [])];
    for (const name of names) {
      const file = path.join(FORMATS, name);
      const type = await detectFileOnDisk(file);
      const result = await pool.run({
        input: { path: file, mimeType: type.mime_type, extension: type.extension, mode: 'normal', options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false }, maxPages: 10_000, tmpDir: tmp },
        onProgress: () => {},
        signal: new AbortController().signal,
        limits: { timeoutMs: 120_000, memoryMb: 2048 },
      });
      expect(result.markdown.trim().length, name).toBeGreaterThan(20);
    }
  } finally {
    await pool.close();
  }
}, 120_000);

describe('hostile input', () => {
  it('RTF and RST: deep nesting, binary runs, huge blocks and garbage end as Markdown or CORRUPT_DOCUMENT', async () => {
    const nested = await extractBytes('nested.rtf', `{\\rtf1 ${'{'.repeat(5000)}deep${'}'.repeat(5000)}\\par}`);
    expect(nested.markdown).toBe('deep\n');
    const deep = await failure(extractBytes('deep.rtf', `{\\rtf1 ${'{'.repeat(5_000_000)}deep\\par}`));
    expect(deep.message).toContain('nested too deeply');
    const longCode = await extractBytes('code.rst', `Code::\n\n${'    x = 1\n'.repeat(300_000)}\nEnd.\n`);
    expect(longCode.markdown.endsWith('x = 1\n```\n\nEnd.\n')).toBe(true);
    const bin = await extractBytes('bin.rtf', '{\\rtf1 {\\*\\blob\\bin5 }}}}}}after\\par}');
    expect(bin.markdown).toBe('after\n');
    const rtf = { mime_type: 'application/rtf', extension: '.rtf' };
    expect((await failure(extractBytes('not.rtf', 'not rtf at all', rtf))).code).toBe('CORRUPT_DOCUMENT');
  });

  it('XML: a DOCTYPE with an entity bomb is dropped, not expanded', async () => {
    const lol = '<!DOCTYPE r [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>';
    const result = await extractBytes('bomb.xml', `<?xml version="1.0"?>${lol}<r><p>&b; and text</p></r>`);
    expect(result.markdown.length).toBeLessThan(100);
    expect(result.markdown).toContain('and text');
    expect((await failure(extractBytes('broken.xml', '<r><p>unclosed</r>'))).code).toBe('CORRUPT_DOCUMENT');
  });

  it('JSON nested beyond the stack ends as CORRUPT_DOCUMENT', async () => {
    const err = await failure(extractBytes('deep.json', `${'['.repeat(500_000)}${']'.repeat(500_000)}`));
    expect(err.code).toBe('CORRUPT_DOCUMENT');
  });

  it('EPUB whose chapters are encrypted is ENCRYPTED_DOCUMENT; an ODF zip bomb is CORRUPT_DOCUMENT', async () => {
    const container = '<container><rootfiles><rootfile full-path="b.opf"/></rootfiles></container>';
    const opf = '<package><metadata/><manifest><item id="c" href="c.xhtml" media-type="application/xhtml+xml"/></manifest><spine><itemref idref="c"/></spine></package>';
    const enc = '<encryption><EncryptedData><CipherData><CipherReference URI="c.xhtml"/></CipherData></EncryptedData></encryption>';
    const epub = zipSync({ mimetype: strToU8('application/epub+zip'), 'META-INF/container.xml': strToU8(container), 'META-INF/encryption.xml': strToU8(enc), 'b.opf': strToU8(opf), 'c.xhtml': strToU8('x') });
    expect((await failure(extractBytes('drm.epub', epub))).code).toBe('ENCRYPTED_DOCUMENT');
    const bomb = zipSync({ mimetype: strToU8('application/vnd.oasis.opendocument.text'), 'content.xml': new Uint8Array(120 * 1024 * 1024) }, { level: 9 });
    expect((await failure(extractBytes('bomb.odt', bomb))).code).toBe('CORRUPT_DOCUMENT');
  }, 60_000);
});
