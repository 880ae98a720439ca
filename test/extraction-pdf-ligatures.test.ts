import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '@/lib/extraction/engine';
import { PdfiumDocument } from '@/lib/extraction/pdf/read/pdfium';
import { loadPdfjs, openDocument } from '@/lib/extraction/pdf/read/pdfjs';
import { expandLigatures } from '@/lib/extraction/pdf/read/text';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';
import { buildLigaturePdf, ligatureGlyphs, type LigatureMapping, type LigatureOptions } from '@/test/support/pdf-ligature-fixture';

// Debian's fonts-dejavu-core: DejaVu Sans has the U+FB00–FB04 ligature glyphs.
const FONT = '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf';

// "ff" before "e" matters: DejaVu's ff glyph inks a little past its advance.
const LINES = [
  { x: 72, y: 700, text: 'They gave the definition of classified office flow.' },
  { x: 72, y: 680, text: 'Different offers affected the official shuffle.' },
];
const WORDS = ['They', 'definition', 'classified', 'office', 'flow', 'Different', 'offers', 'affected', 'official', 'shuffle'];

interface Case {
  name: string;
  mapping: LigatureMapping;
  opts: LigatureOptions;
  /** Whether PDFium reads the page itself (else it hands the page to pdf.js). */
  pdfiumReads: boolean;
}

const CASES: Case[] = [
  { name: 'ToUnicode maps each ligature glyph to its letters (<0012> <00540068>)', mapping: 'letters', opts: {}, pdfiumReads: true },
  { name: 'ToUnicode maps the glyphs to U+FB00–FB04 ("Th" to its letters)', mapping: 'presentation-forms', opts: {}, pdfiumReads: true },
  // PDFium cannot name /T_h or /f_f_i, so pdf.js reads this page.
  { name: 'simple font, no ToUnicode, /Differences /fi /fl /ff /f_f_i /uniFB04 /T_h', mapping: 'glyph-names', opts: {}, pdfiumReads: false },
  { name: 'simple font, no ToUnicode, /Differences /fi /fl /ff /uniFB03 /uniFB04', mapping: 'glyph-names', opts: { glyphNames: { ffi: 'uniFB03', Th: null } }, pdfiumReads: true },
];

let tmp: string;
beforeAll(() => {
  if (!fs.existsSync(FONT)) throw new Error(`${FONT} is missing: install the Debian package fonts-dejavu-core`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pdf-ligatures-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});
afterEach(() => {
  delete process.env.QUARRY_PDF_TEXT;
});

function writeCase(c: Case): string {
  const file = path.join(tmp, `${c.mapping}-${CASES.indexOf(c)}.pdf`);
  fs.writeFileSync(file, buildLigaturePdf(LINES, FONT, c.mapping, c.opts));
  return file;
}

async function markdownWith(reader: 'pdfium' | 'pdfjs', file: string): Promise<string> {
  process.env.QUARRY_PDF_TEXT = reader;
  const result = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
  return result.markdown;
}

describe('the generated PDFs draw ligatures as single glyphs', () => {
  it('splits the lines into ligature glyphs', () => {
    expect(ligatureGlyphs(LINES[0].text).filter((g) => g.length > 1)).toEqual(['Th', 'fi', 'fi', 'ffi', 'fl']);
    expect(ligatureGlyphs(LINES[1].text).filter((g) => g.length > 1)).toEqual(['ff', 'ff', 'ff', 'ffi', 'ffl']);
  });
});

describe.each(CASES)('ligature glyphs: $name', (c) => {
  it.each(['pdfium', 'pdfjs'] as const)('every letter comes through, words whole (%s first)', async (reader) => {
    const markdown = await markdownWith(reader, writeCase(c));
    for (const line of LINES) expect(markdown).toContain(line.text);
    for (const word of WORDS) expect(markdown).toMatch(new RegExp(`(^|\\s)${word}[\\s.]`));
    expect(markdown).not.toMatch(/[\ufb00-\ufb06]/);
  });

  it(`PDFium ${c.pdfiumReads ? 'reads the page: one item a line, as wide as pdf.js gives it' : 'hands the page to pdf.js'}`, async () => {
    const bytes = buildLigaturePdf(LINES, FONT, c.mapping, c.opts);
    const doc = await PdfiumDocument.open(bytes);
    if (!doc) throw new Error('PDFium could not open the PDF');
    try {
      const page = doc.readPage(1, () => false);
      if (!c.pdfiumReads) {
        expect(page.unsupported).toBe('characters without a Unicode mapping');
        return;
      }
      expect(page.unsupported).toBeNull();
      const { pdfjs, dir } = await loadPdfjs();
      const pdf = await openDocument(pdfjs, dir, bytes.slice(), { maxImageSize: 1 }).promise;
      try {
        const content = await (await pdf.getPage(1)).getTextContent();
        const reference = content.items.filter((it) => 'str' in it && it.str.trim()) as { str: string; width: number; transform: number[] }[];
        expect(page.items.map((it) => it.str)).toEqual(LINES.map((l) => l.text));
        expect(page.items.map((it) => it.str)).toEqual(reference.map((it) => expandLigatures(it.str)));
        page.items.forEach((it, i) => {
          expect(it.transform).toEqual(reference[i].transform);
          expect(Math.abs(it.width - reference[i].width)).toBeLessThan(0.01);
        });
      } finally {
        await pdf.destroy();
      }
    } finally {
      doc.close();
    }
  });
});

describe('expandLigatures', () => {
  it('writes U+FB00–FB06 as their letters and leaves other characters alone', () => {
    expect(expandLigatures('\ufb00 \ufb01 \ufb02 \ufb03 \ufb04 \ufb05 \ufb06')).toBe('ff fi fl ffi ffl st st');
    expect(expandLigatures('de\ufb01nition, classi\ufb01ed, \ufb02ow')).toBe('definition, classified, flow');
    // Other compatibility characters are not the reader's to change.
    expect(expandLigatures('x² ½ Å \ufb20 \ufb2a')).toBe('x² ½ Å \ufb20 \ufb2a');
  });
});
