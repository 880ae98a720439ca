/**
 * The documents whose extracted output is kept as golden files (test/golden.test.ts): every
 * document in the shared fixtures folder, and the documents the repository generates itself with
 * a deterministic builder. A rule that changes what Quarry extracts then shows as a diff of what
 * it does to each of them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { warmUpDocument } from '@/lib/extraction/pdf/run/warm-up';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildTextDocument } from '@/test/support/pdf-fixture';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';
import { buildUnicodePdf, type UnicodeText } from '@/test/support/pdf-unicode-fixture';

export interface GoldenDocument {
  /** The golden files' name: the fixture-relative path, or `generated/<file>`. */
  name: string;
  /** The document on disk (a generated one is written on the first call). */
  path: () => string;
  /** Why this machine cannot produce the document (a font is missing), or null. */
  unavailable: () => string | null;
}

/** Files of the fixtures folder that are references or data about documents, not documents. */
interface SkipRule {
  reason: string;
  /** `relative`: the fixture-relative path, `/`-separated; `siblings`: the names in its folder. */
  matches: (relative: string, siblings: readonly string[]) => boolean;
}

/** Suffixes of the expected outputs kept beside a document (another tool's, or the reference text). */
const REFERENCE_SUFFIXES = ['.docling.json', '.md', '.txt'];
const REFERENCE_FOLDERS = ['pdf', 'docx', 'office', 'ocr'];

function referenceStem(name: string): string | null {
  const suffix = REFERENCE_SUFFIXES.find((s) => name.endsWith(s));
  return suffix ? name.slice(0, -suffix.length) : null;
}

/** A document beside `name` with the same stem (`ocr_test.pdf` beside `ocr_test.md`). */
function hasSiblingDocument(name: string, siblings: readonly string[]): boolean {
  const stem = referenceStem(name);
  return stem !== null && siblings.some((s) => s !== name && referenceStem(s) === null && path.parse(s).name === stem);
}

export const SKIP_RULES: readonly SkipRule[] = [
  { reason: 'the licences of the fixtures', matches: (rel) => rel === 'LICENSES.md' },
  {
    reason: 'the expected output of the document beside it (reference Markdown, text or Docling JSON)',
    matches: (rel, siblings) => REFERENCE_FOLDERS.includes(rel.split('/')[0]) && rel.split('/').length === 2 && hasSiblingDocument(path.basename(rel), siblings),
  },
  { reason: 'ICDAR 2013 ground truth (table regions and structure) of the PDF beside it', matches: (rel) => rel.startsWith('tables-icdar2013/') && /-(reg|str)\.xml$/.test(rel) },
  { reason: 'a search data set (JSONL corpus, queries, relevance judgements), not documents', matches: (rel) => rel.startsWith('retrieval/') },
];

/** Why a fixture file is not a golden document, or null when it is one. */
export function skipReason(relative: string, siblings: readonly string[]): string | null {
  return SKIP_RULES.find((rule) => rule.matches(relative, siblings))?.reason ?? null;
}

/** Fixture-relative paths of the fixture documents, sorted. */
export function fixtureDocuments(root = FIXTURES_DIR): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    const names = fs.readdirSync(dir).sort();
    for (const name of names) {
      const full = path.join(dir, name);
      const relative = path.relative(root, full).split(path.sep).join('/');
      if (fs.statSync(full).isDirectory()) {
        if (skipReason(`${relative}/`, []) === null) walk(full);
      } else if (skipReason(relative, names) === null) {
        found.push(relative);
      }
    }
  };
  walk(root);
  return found;
}

// Debian's fonts-dejavu-core: DejaVu Sans has Hebrew glyphs (as in extraction-pdf-rtl.test.ts).
const DEJAVU = '/usr/share/fonts/truetype/dejavu';
const HEBREW_FONTS = { regular: path.join(DEJAVU, 'DejaVuSans.ttf'), bold: path.join(DEJAVU, 'DejaVuSans-Bold.ttf') };

/** The two pages of extraction-pdf-rtl.test.ts: a heading and paragraph; a list and a borderless table. */
function hebrewDocument(): Uint8Array {
  const right = (y: number, text: string, extra: Partial<UnicodeText> = {}): UnicodeText => ({ x: 540, y, text, alignRight: true, ...extra });
  const prose = ['זוהי פסקה ראשונה בעברית שנכתבה', 'לבדיקת כיוון הטקסט בגרסה 2.5 של', 'Quarry והיא ממשיכה בשורה שלישית.'];
  const first = [right(720, 'דוח ביצועים שנתי', { size: 18, bold: true }), ...prose.map((t, i) => right(690 - i * 13, t))];
  const second = [right(720, 'רשימה וטבלה', { size: 16, bold: true })];
  ['• פריט ראשון ברשימה', '• פריט שני עם המספר 42', '• פריט שלישי'].forEach((t, i) => second.push(right(690 - i * 14, t)));
  const rows = [['שם', 'כמות', 'מחיר'], ['תפוחים', '12', '3.50'], ['בננות', '7', '2.10'], ['ענבים', '3', '8.00']];
  rows.forEach((r, i) => r.forEach((c, k) => second.push({ x: 540 - k * 120, y: 630 - i * 14, text: c, bold: i === 0, alignRight: true })));
  second.push(right(560, 'פסקה אחרי הטבלה.'));
  return buildUnicodePdf([first, second], HEBREW_FONTS);
}

/**
 * The generated documents. Each builder gives the same bytes on every run (no clock, no random;
 * buildTextDocument fixes its creation date, the others write none), so their goldens are stable.
 * The Hebrew PDF embeds the installed DejaVu Sans, so it also needs that font.
 */
const GENERATED: readonly { file: string; build: () => Uint8Array; unavailable?: () => string | null }[] = [
  { file: 'report.pdf', build: () => buildStructuredReport().pdf },
  { file: 'text-12p.pdf', build: () => buildTextDocument(12) },
  // Long enough to be read by several page threads (as the extraction-pool test's document).
  { file: 'text-400p.pdf', build: () => buildTextDocument(400) },
  { file: 'warm-up.pdf', build: warmUpDocument },
  {
    file: 'hebrew.pdf',
    build: hebrewDocument,
    unavailable: () => (fs.existsSync(HEBREW_FONTS.regular) && fs.existsSync(HEBREW_FONTS.bold) ? null : `${HEBREW_FONTS.regular} is missing: install the Debian package fonts-dejavu-core`),
  },
];

function once<T>(fn: () => T): () => T {
  let value: { v: T } | null = null;
  return () => (value ??= { v: fn() }).v;
}

/** Every golden document: the fixtures, then the generated ones (written under `tmpDir` when asked for). */
export function goldenCorpus(tmpDir: string, root = FIXTURES_DIR): GoldenDocument[] {
  const fixtures = fixtureDocuments(root).map((relative) => ({
    name: relative,
    path: () => path.join(root, ...relative.split('/')),
    unavailable: () => null,
  }));
  const generated = GENERATED.map(({ file, build, unavailable }) => ({
    name: `generated/${file}`,
    path: once(() => {
      const target = path.join(tmpDir, file);
      fs.writeFileSync(target, build());
      return target;
    }),
    unavailable: unavailable ?? (() => null),
  }));
  return [...fixtures, ...generated];
}
