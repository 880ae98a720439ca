/**
 * Structure metrics for comparing extraction output with reference Markdown: which of the
 * reference's headings come out as headings (and at a consistent level), and how many of the
 * reference's table cells come out inside tables. Text similarity (quality.ts) cannot see either:
 * a heading written as a paragraph, or a table flattened into lines, keeps every word.
 */

export interface MarkdownHeading {
  level: number;
  text: string;
}

export interface MarkdownStructure {
  headings: MarkdownHeading[];
  /** Every GFM table: rows of cell texts (the header row first, the delimiter row left out). */
  tables: string[][][];
}

const FENCE = /^\s{0,3}(```|~~~)/;
const ATX = /^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$/;
const DELIMITER_ROW = /^\s*\|?\s*:?-+:?\s*(?:\|\s*:?-+:?\s*)*\|?\s*$/;

/** Cells of one GFM table row; `\|` is a literal pipe inside a cell. */
export function splitTableRow(line: string): string[] {
  let s = line.trim();
  if (s.startsWith('|')) s = s.slice(1);
  if (s.endsWith('|') && !s.endsWith('\\|')) s = s.slice(0, -1);
  const cells: string[] = [];
  let cur = '';
  for (let i = 0; i < s.length; i++) {
    const ch = s[i];
    if (ch === '\\' && s[i + 1] === '|') {
      cur += '|';
      i++;
    } else if (ch === '|') {
      cells.push(cur.trim());
      cur = '';
    } else cur += ch;
  }
  cells.push(cur.trim());
  return cells;
}

/** Headings (ATX) and GFM tables of a Markdown document; fenced code is skipped. */
export function parseMarkdownStructure(markdown: string): MarkdownStructure {
  const lines = markdown.split(/\r?\n/);
  const headings: MarkdownHeading[] = [];
  const tables: string[][][] = [];
  let fence: string | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const f = FENCE.exec(line);
    if (fence) {
      if (f && f[1] === fence) fence = null;
      continue;
    }
    if (f) {
      fence = f[1];
      continue;
    }
    const h = ATX.exec(line);
    if (h) {
      headings.push({ level: h[1].length, text: h[2] });
      continue;
    }
    // A table: a row with a pipe directly followed by a delimiter row.
    if (line.includes('|') && i + 1 < lines.length && DELIMITER_ROW.test(lines[i + 1]) && lines[i + 1].includes('-')) {
      const rows = [splitTableRow(line)];
      let j = i + 2;
      while (j < lines.length && lines[j].trim().length > 0 && lines[j].includes('|')) rows.push(splitTableRow(lines[j++]));
      tables.push(rows);
      i = j - 1;
    }
  }
  return { headings, tables };
}

/**
 * Text for matching: NFKC, case folded, emphasis and escapes removed, punctuation and whitespace
 * collapsed, so "**1.2 Scope**" and "1.2  scope" compare equal.
 */
export function normalizeStructureText(text: string): string {
  return text
    .normalize('NFKC')
    .replace(/<!--[\s\S]*?-->/g, ' ')
    .replace(/<\/?[a-z][^>]*>/gi, ' ')
    .replace(/\\([\\`*_{}[\]()#+\-.!|<>])/g, '$1')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\p{M}]+/gu, ' ')
    .trim();
}

export interface HeadingScore {
  /** Reference headings found as headings with the same normalised text. */
  found: number;
  /** Headings in the reference. */
  total: number;
  /** found / total, or null when the reference has no headings. */
  recall: number | null;
  /** Headings in the output (for spotting false positives). */
  output: number;
  /** found / output headings, or null when the output has none. */
  precision: number | null;
  /**
   * Share of the found headings whose level rank is the same in both documents (rank = position of
   * the heading's level among the distinct levels that document uses), null when none was found.
   */
  levelAgreement: number | null;
}

function levelRanks(headings: MarkdownHeading[]): Map<number, number> {
  const levels = [...new Set(headings.map((h) => h.level))].sort((a, b) => a - b);
  return new Map(levels.map((l, i) => [l, i]));
}

/** Heading recall of `actual` against `expected`, matched in document order. */
export function headingRecall(actual: string, expected: string): HeadingScore {
  const ref = parseMarkdownStructure(expected).headings.filter((h) => normalizeStructureText(h.text));
  const out = parseMarkdownStructure(actual).headings.filter((h) => normalizeStructureText(h.text));
  const refRanks = levelRanks(ref);
  const outRanks = levelRanks(out);
  // Output headings by text, each usable once, earliest first.
  const byText = new Map<string, MarkdownHeading[]>();
  for (const h of out) {
    const key = normalizeStructureText(h.text);
    const list = byText.get(key);
    if (list) list.push(h);
    else byText.set(key, [h]);
  }
  let found = 0;
  let sameLevel = 0;
  for (const h of ref) {
    const match = byText.get(normalizeStructureText(h.text))?.shift();
    if (!match) continue;
    found++;
    if (refRanks.get(h.level) === outRanks.get(match.level)) sameLevel++;
  }
  return {
    found,
    total: ref.length,
    recall: ref.length ? found / ref.length : null,
    output: out.length,
    precision: out.length ? found / out.length : null,
    levelAgreement: found ? sameLevel / found : null,
  };
}

export interface TableScore {
  /** Reference cells (non-empty, over all its tables) found in the output's tables. */
  matched: number;
  referenceCells: number;
  outputCells: number;
  referenceTables: number;
  outputTables: number;
  /** F1 of cell matching, or null when the reference has no table. */
  f1: number | null;
}

function cellCounts(tables: string[][][]): Map<string, number> {
  const counts = new Map<string, number>();
  for (const t of tables)
    for (const row of t)
      for (const cell of row) {
        const key = normalizeStructureText(cell);
        if (key) counts.set(key, (counts.get(key) ?? 0) + 1);
      }
  return counts;
}

/**
 * Table cell F1: the non-empty cells of the reference's tables and of the output's tables as two
 * multisets of normalised texts; a cell matches an equal cell of the other side once. Cells whose
 * text lands outside any table (flattened tables) or merged with a neighbour (lost column
 * boundaries) count as missed; cells split in two count as missed and spurious.
 */
export function tableCellF1(actual: string, expected: string): TableScore {
  const refTables = parseMarkdownStructure(expected).tables;
  const outTables = parseMarkdownStructure(actual).tables;
  const ref = cellCounts(refTables);
  const out = cellCounts(outTables);
  let refCells = 0;
  let outCells = 0;
  let matched = 0;
  for (const n of ref.values()) refCells += n;
  for (const n of out.values()) outCells += n;
  for (const [key, n] of ref) matched += Math.min(n, out.get(key) ?? 0);
  let f1: number | null = null;
  if (refTables.length > 0) {
    const p = outCells ? matched / outCells : 0;
    const r = refCells ? matched / refCells : 0;
    f1 = p + r > 0 ? (2 * p * r) / (p + r) : 0;
  }
  return { matched, referenceCells: refCells, outputCells: outCells, referenceTables: refTables.length, outputTables: outTables.length, f1 };
}
