import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { extractPdf } from '@/lib/extraction/engine';
import { ligatureRepairs, repairLigatureWords } from '@/lib/extraction/pdf/read/rtl-ligatures';
import { textSimilarity } from '@/lib/extraction/quality';
import { headingRecall } from '@/lib/extraction/structure-quality';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildUnicodePdf, visualOrder, type UnicodeText } from '@/test/support/pdf-unicode-fixture';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';

// Debian's fonts-dejavu-core: DejaVu Sans has Hebrew glyphs.
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const FONTS = { regular: path.join(DEJAVU, 'DejaVuSans.ttf'), bold: path.join(DEJAVU, 'DejaVuSans-Bold.ttf') };

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-pdf-rtl-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function extract(file: string): Promise<string> {
  const result = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
  return result.markdown;
}

function hebrewPdf(name: string, texts: UnicodeText[]): string {
  if (!fs.existsSync(FONTS.regular)) throw new Error(`${FONTS.regular} is missing: install the Debian package fonts-dejavu-core`);
  const file = path.join(tmp, name);
  fs.writeFileSync(file, buildUnicodePdf([texts], FONTS));
  return file;
}

describe('lam-alef ligatures (constructed glyph runs)', () => {
  const SHOW_TEXT = 44;
  const g = (unicode: string) => ({ unicode });

  it('rebuilds words drawn with a two-character ligature glyph and leaves real alef-lam alone', () => {
    // "خلال" drawn in visual order: lam, lam-alef ligature, khah; then a space; then "قال" (qaf, alef, lam).
    const glyphs = [g('ل'), g('لا'), -12, g('خ'), g(' '), g('ل'), g('ا'), g('ق')];
    const repairs = ligatureRepairs([1, SHOW_TEXT], [[], [glyphs]], SHOW_TEXT);
    expect([...repairs]).toEqual([['خالل', 'خلال']]);
    expect(repairLigatureWords('من خالل قال', repairs)).toBe('من خلال قال');
  });

  it('right_to_left_01.pdf reads "المشكلات" and "خلال" with the ligature in logical order', async () => {
    const markdown = await extract(path.join(FIXTURES_DIR, 'pdf', 'right_to_left_01.pdf'));
    const reference = fs.readFileSync(path.join(FIXTURES_DIR, 'pdf', 'right_to_left_01.md'), 'utf8');
    expect(markdown).toMatch(/^## تحسين الإنتاجية وحل المشكلات من خلال البرمجة بلغة R و Python$/m);
    expect(markdown).not.toMatch(/المشكالت|خالل/);
    // Measured: similarity 1.000, heading recall 1 (1/1).
    expect(textSimilarity(markdown, reference)).toBeGreaterThanOrEqual(0.995);
    expect(headingRecall(markdown, reference).recall).toBe(1);
  });
});

describe('Hebrew text layer (DejaVu Sans embedded, text drawn in visual order)', () => {
  it('writes visual order as producers do: reversed, digit and Latin runs kept', () => {
    expect(visualOrder('גרסה 2.5 של Quarry')).toBe('Quarry לש 2.5 הסרג');
    expect(visualOrder('plain text')).toBe('plain text');
  });

  it('reads a right-aligned Hebrew heading and paragraph in logical order, mixed numbers and Latin kept', async () => {
    const lines = ['זוהי פסקה ראשונה בעברית שנכתבה', 'לבדיקת כיוון הטקסט בגרסה 2.5 של', 'Quarry והיא ממשיכה בשורה שלישית.'];
    const file = hebrewPdf('hebrew.pdf', [
      { x: 540, y: 720, text: 'דוח ביצועים שנתי', size: 18, bold: true, alignRight: true },
      ...lines.map((t, i) => ({ x: 540, y: 690 - i * 13, text: t, alignRight: true })),
    ]);
    const markdown = await extract(file);
    expect(markdown).toContain('## דוח ביצועים שנתי');
    expect(markdown).toContain(lines.join(' '));
  });

  it('reads a Hebrew bullet list and a borderless Hebrew table from its rightmost column', async () => {
    const texts: UnicodeText[] = [{ x: 540, y: 720, text: 'רשימה וטבלה', size: 16, bold: true, alignRight: true }];
    ['• פריט ראשון ברשימה', '• פריט שני עם המספר 42', '• פריט שלישי'].forEach((t, i) => texts.push({ x: 540, y: 690 - i * 14, text: t, alignRight: true }));
    const rows = [
      ['שם', 'כמות', 'מחיר'],
      ['תפוחים', '12', '3.50'],
      ['בננות', '7', '2.10'],
      ['ענבים', '3', '8.00'],
    ];
    rows.forEach((r, i) => r.forEach((c, k) => texts.push({ x: 540 - k * 120, y: 630 - i * 14, text: c, bold: i === 0, alignRight: true })));
    texts.push({ x: 540, y: 560, text: 'פסקה אחרי הטבלה.', alignRight: true });
    const markdown = await extract(hebrewPdf('hebrew-table.pdf', texts));
    expect(markdown).toContain('- פריט ראשון ברשימה\n- פריט שני עם המספר 42\n- פריט שלישי');
    expect(markdown).toContain(
      ['| שם | כמות | מחיר |', '| --- | --- | --- |', '| תפוחים | 12 | 3.50 |', '| בננות | 7 | 2.10 |', '| ענבים | 3 | 8.00 |'].join('\n'),
    );
    expect(markdown).toMatch(/^פסקה אחרי הטבלה\.$/m);
  });
});
