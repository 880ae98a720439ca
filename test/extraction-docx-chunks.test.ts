/**
 * Long DOCX bodies converted in parts (lib/extraction/office/docx-chunks.ts): where the body may
 * be cut, and that the Markdown of the parts is the Markdown of the whole on real documents, with
 * progress between the parts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractDocx } from '@/lib/extraction/extractors';
import { docxChunking } from '@/lib/extraction/office/docx';
import { splitMainPart } from '@/lib/extraction/office/docx-chunks';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractInput } from '@/test/support/extract-input';

const HEAD = '<?xml version="1.0" encoding="UTF-8"?><w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>';
const TAIL = '<w:sectPr/></w:body></w:document>';

const plain = (text: string) => `<w:p><w:r><w:t>${text}</w:t></w:r></w:p>`;
const listItem = (text: string) => `<w:p><w:pPr><w:numPr><w:ilvl w:val="0"/><w:numId w:val="1"/></w:numPr></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
const styled = (text: string) => `<w:p><w:pPr><w:pStyle w:val="Quote"/></w:pPr><w:r><w:t>${text}</w:t></w:r></w:p>`;
const fieldBegin = '<w:p><w:r><w:fldChar w:fldCharType="begin"/></w:r><w:r><w:instrText> TOC </w:instrText></w:r><w:r><w:fldChar w:fldCharType="separate"/></w:r></w:p>';
const fieldEnd = '<w:p><w:r><w:fldChar w:fldCharType="end"/></w:r></w:p>';
const footnote = (id: number) => `<w:p><w:r><w:t>noted</w:t></w:r><w:r><w:footnoteReference w:id="${id}"/></w:r></w:p>`;

const count = (text: string, part: string) => text.split(part).length - 1;
const bodyOf = (xml: string) => xml.slice(HEAD.length, xml.length - '</w:body></w:document>'.length);

/** The body of each part (its sectPr only in the last). */
function bodies(xml: string, target: number): string[] | null {
  const split = splitMainPart(xml, 'w:', target);
  if (!split) return null;
  for (const part of split.parts) {
    expect(part.startsWith(HEAD)).toBe(true);
    expect(part.endsWith('</w:body></w:document>')).toBe(true);
  }
  const out = split.parts.map(bodyOf);
  // Nothing lost, nothing doubled.
  expect(out.join('')).toBe(bodyOf(xml));
  return out;
}

describe('where a DOCX body is cut', () => {
  it('cuts between plain paragraphs once a part has its size, and the parts hold the body exactly', () => {
    const xml = HEAD + Array.from({ length: 40 }, (_, i) => plain(`Paragraph ${i}`)).join('') + TAIL;
    const parts = bodies(xml, 200)!;
    expect(parts.length).toBeGreaterThan(5);
    for (const part of parts.slice(0, -1)) expect(part.length).toBeGreaterThanOrEqual(200);
    expect(parts.at(-1)).toContain('<w:sectPr/>');
  });

  it('reads a short body whole', () => {
    const xml = HEAD + Array.from({ length: 5 }, (_, i) => plain(`Paragraph ${i}`)).join('') + TAIL;
    expect(splitMainPart(xml, 'w:', 10_000)).toBeNull();
  });

  it('never cuts inside a list, beside a styled paragraph or inside a field', () => {
    const blocks = [
      ...Array.from({ length: 6 }, (_, i) => plain(`Intro ${i}`)),
      ...Array.from({ length: 12 }, (_, i) => listItem(`Item ${i}`)),
      ...Array.from({ length: 6 }, (_, i) => styled(`Quote ${i}`)),
      fieldBegin,
      ...Array.from({ length: 10 }, (_, i) => plain(`Entry ${i}`)),
      fieldEnd,
      ...Array.from({ length: 6 }, (_, i) => plain(`Outro ${i}`)),
    ];
    const parts = bodies(HEAD + blocks.join('') + TAIL, 1)!;
    // Every cut falls between two plain paragraphs outside the field.
    let at = 0;
    for (const part of parts.slice(0, -1)) {
      at += part.length;
      const before = blocks.findIndex((_, i) => blocks.slice(0, i + 1).join('').length === at);
      expect(before).toBeGreaterThanOrEqual(0);
      for (const block of [blocks[before], blocks[before + 1]]) {
        expect(block).not.toContain('numPr');
        expect(block).not.toContain('pStyle');
      }
      const upTo = blocks.slice(0, before + 1).join('');
      expect(count(upTo, 'fldCharType="begin"')).toBe(count(upTo, 'fldCharType="end"'));
    }
    // The plain runs before the list and after the field were cut.
    expect(parts.length).toBeGreaterThan(4);
  });

  it('keeps every note reference in the first part and says so', () => {
    const blocks = [...Array.from({ length: 10 }, (_, i) => plain(`Para ${i}`)), footnote(1), ...Array.from({ length: 10 }, (_, i) => plain(`Mid ${i}`)), footnote(2), ...Array.from({ length: 10 }, (_, i) => plain(`End ${i}`))];
    const xml = HEAD + blocks.join('') + TAIL;
    const split = splitMainPart(xml, 'w:', 1)!;
    expect(split.notes).toBe(true);
    const parts = bodies(xml, 1)!;
    expect(parts[0]).toContain('w:id="2"');
    for (const part of parts.slice(1)) expect(part).not.toContain('footnoteReference');
  });

  it('reads a body with comments or markup it cannot follow whole', () => {
    const many = Array.from({ length: 20 }, (_, i) => plain(`Para ${i}`)).join('');
    expect(splitMainPart(HEAD + many + '<w:p><w:commentRangeStart w:id="0"/><w:r><w:t>x</w:t></w:r></w:p>' + many + TAIL, 'w:', 1)).toBeNull();
    expect(splitMainPart(HEAD + many + '<!-- <w:p> -->' + many + TAIL, 'w:', 1)).toBeNull();
    expect(splitMainPart(HEAD + many + '<w:p><w:r>' + many + TAIL, 'w:', 1)).toBeNull();
    expect(splitMainPart(HEAD + many + many + TAIL, 'w:', 1)).not.toBeNull();
    // Tags that never close, or quotes that never end, are scanned once, not once per "<".
    expect(splitMainPart(HEAD + many + '<w:p<w:r'.repeat(250_000) + many + TAIL, 'w:', 1)).toBeNull();
    expect(splitMainPart(HEAD + many + '<w:p w:x="'.repeat(200_000) + many + TAIL, 'w:', 1)).toBeNull();
  });
});

describe('DOCX converted in parts', () => {
  let tmp: string;
  const saved = docxChunking.chars;
  beforeAll(() => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-docx-chunks-'));
  });
  afterEach(() => {
    docxChunking.chars = saved;
  });
  afterAll(() => {
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  async function convert(relative: string, chars: number) {
    docxChunking.chars = chars;
    const reports: number[] = [];
    const input = extractInput(path.join(FIXTURES_DIR, relative), { mime_type: 'application/octet-stream', extension: '.docx' }, tmp);
    const result = await extractDocx({ ...input, onProgress: (done) => reports.push(done) });
    return { markdown: result.markdown, reports: reports.length };
  }

  it.each(['docx/docx_lists.docx', 'docx/equations.docx', 'docx/word_sample.docx'])('gives %s the Markdown of the whole when cut at every chance', async (relative) => {
    const whole = await convert(relative, Infinity);
    const parts = await convert(relative, 1);
    expect(parts.reports).toBeGreaterThan(whole.reports);
    expect(parts.markdown).toBe(whole.markdown);
  });

  it('gives the 872-page handbook (footnotes in its first half) the Markdown of the whole, reporting between parts', async () => {
    const whole = await convert('large/handbook-872p.docx', Infinity);
    const parts = await convert('large/handbook-872p.docx', saved);
    // The last footnote closes the document, after the last page's text.
    expect(whole.markdown.lastIndexOf('Uniform Depository Agreement')).toBeGreaterThan(whole.markdown.length * 0.95);
    expect(parts.reports).toBeGreaterThanOrEqual(whole.reports + 4);
    expect(parts.markdown).toBe(whole.markdown);
  }, 60_000);
});
