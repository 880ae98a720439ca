/**
 * Headings from the font statistics of the whole document. The body size is the size carrying
 * most characters; a short block is a heading candidate when it is set larger than the body, in
 * bold at body size (when bold is rare enough to mean something), or when it starts with a section
 * number ("2", "1.2", "1.2.3", "A.", "IV.", "Chapter 3") that fits a numbering sequence of the
 * document. Levels come from clustering the candidates' styles (size, weight) ordered by
 * prominence; numbered headings take their level from the numbering depth, and un-numbered
 * headings set like a numbered level ("References" set like "2 Methods") share that level, so the
 * hierarchy stays the same on every page.
 */
import { collapseSpaces, isLetterCode, isSpaceCode } from '@/lib/text/classes';
import type { Block } from '../layout/blocks';
import { spansText } from '../layout/blocks';
import { isCaption, mayStartSectionNumber, sectionNumber, type SectionNumber } from '../layout/titles';
import {
  BOLD_HEADING_MAX_CHARS,
  BOLD_HEADING_MAX_LINES,
  BOLD_MEANINGFUL_SHARE,
  HEADING_LARGER,
  HEADING_MAX_CHARS,
  HEADING_MAX_COMMAS,
  HEADING_MAX_LINES,
  HEADING_MIN_CHARS,
  HEADING_MIN_LETTER_SHARE,
  HEADING_MIN_SIZE,
  HEADING_SENTENCE_WORDS,
  HEADING_STYLE_STEP,
  NUMBERED_MAX_REPEATS,
  NUMBERED_TITLE_MAX_CHARS,
  NUMBERED_TITLE_MAX_LINES,
  NUMBERED_TITLE_MAX_WORDS,
  TOC_MIN_NUMBERED,
  TOC_NUMBERED_SHARE,
} from '../settings';

type TextBlock = Extract<Block, { kind: 'text' }>;

export interface HeadingPlan {
  /** Markdown heading level (2–6) of a block, 0 when it is no heading. */
  level(block: TextBlock): number;
}

function sizeKey(size: number): number {
  return Math.round(size * 2) / 2;
}

function blockText(b: TextBlock): string {
  return collapseSpaces(spansText(b.spans));
}

/** A short block that could be a heading at all: not a sentence, caption, TOC entry or number. */
function shapeAllows(b: TextBlock, text: string): boolean {
  if (b.lines > HEADING_MAX_LINES || text.length > HEADING_MAX_CHARS || text.length < HEADING_MIN_CHARS) return false;
  // Letters (code points), UTF-16 units that are no space, and full stops, in one pass.
  let letters = 0;
  let nonSpace = 0;
  let stops = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.codePointAt(i)!;
    if (code === 0x2e) stops++;
    if (isLetterCode(code)) letters++;
    if (code > 0xffff) {
      nonSpace += 2;
      i++;
    } else if (!isSpaceCode(code)) nonSpace++;
  }
  if (letters === 0 || /[,;]$/.test(text)) return false;
  if (stops >= 4 && /(?:\.\s?){4,}\s*\S{0,6}$/.test(text)) return false; // a table-of-contents entry
  if (isCaption(text)) return false;
  if (letters < HEADING_MIN_LETTER_SHARE * nonSpace) return false; // numbers and symbols: a table or chart remnant
  if (/^(?:page|p\.|seite)\s*\d+\b/i.test(text)) return false; // a page label
  // A list of names or items (an author line) is no title.
  if ((text.match(/,/g)?.length ?? 0) >= HEADING_MAX_COMMAS) return false;
  // A sentence: ends with a full stop and has many words (headings are short titles).
  if (/[.!?]$/.test(text) && text.split(' ').length > HEADING_SENTENCE_WORDS) return false;
  return true;
}

/** A numbered line that reads like a section title rather than a sentence or list item. */
function numberedTitle(b: TextBlock, text: string, num: SectionNumber): boolean {
  if (b.lines > NUMBERED_TITLE_MAX_LINES || text.length > NUMBERED_TITLE_MAX_CHARS) return false;
  const rest = text.replace(/^\S+\s*/, '');
  if (num.kind !== 'word' && !/^[\p{Lu}\p{Lo}(“"']/u.test(rest)) return false;
  if (/[.:!?]$/.test(text) || rest.split(' ').length > NUMBERED_TITLE_MAX_WORDS) return false;
  // "16 March, 9:30": a top-level number followed by more numbers is a date or a quantity.
  if (num.kind === 'decimal' && num.parts.length === 1 && /\d/.test(rest)) return false;
  return true;
}

function romanValue(r: string): number {
  const v: Record<string, number> = { I: 1, V: 5, X: 10, L: 50, C: 100 };
  let n = 0;
  for (let i = 0; i < r.length; i++) {
    const cur = v[r[i]] ?? 0;
    n += i + 1 < r.length && cur < (v[r[i + 1]] ?? 0) ? -cur : cur;
  }
  return n;
}

function partValue(kind: SectionNumber['kind'], part: string): number {
  if (/^\d+$/.test(part)) return Number(part);
  if (kind === 'roman' || (kind === 'word' && /^[IVXLC]{2,}$/.test(part))) return romanValue(part);
  return part.charCodeAt(0) - 64;
}

/**
 * Which section numbers (in document order) belong to a numbering sequence. A top-level number
 * needs its predecessor just before it or its successor just after it among the top-level numbers
 * of its kind ("2 Methods" after "1 Introduction"), or a child after it ("2.1"); days of dated
 * entries ("16 March", later "25 March") and a lone "3 apples" line have neither. A deeper number
 * ("1.2") needs its parent or a sibling anywhere in the document. "Chapter 3" needs nothing.
 */
export function sequencedNumbers(numbers: (SectionNumber | null)[]): boolean[] {
  const ok = numbers.map((n) => n?.kind === 'word');
  const keys = new Set<string>();
  for (const n of numbers) if (n) keys.add(`${n.kind}:${n.parts.join('.')}`);
  const tops = new Map<string, number[]>();
  numbers.forEach((n, i) => {
    if (!n || n.kind === 'word') return;
    if (n.parts.length === 1) {
      const list = tops.get(n.kind) ?? [];
      list.push(i);
      tops.set(n.kind, list);
      return;
    }
    const parent = n.parts.slice(0, -1);
    const last = partValue(n.kind, n.parts[n.parts.length - 1]);
    const sibling = (d: number) => {
      const v = /^\d+$/.test(n.parts[n.parts.length - 1]) ? String(last + d) : String.fromCharCode(last + 64 + d);
      return keys.has(`${n.kind}:${[...parent, v].join('.')}`);
    };
    ok[i] = keys.has(`${n.kind}:${parent.join('.')}`) || sibling(-1) || sibling(1);
  });
  for (const [kind, list] of tops) {
    list.forEach((idx, k) => {
      const v = partValue(kind as SectionNumber['kind'], numbers[idx]!.parts[0]);
      const prev = k > 0 ? partValue(kind as SectionNumber['kind'], numbers[list[k - 1]]!.parts[0]) : NaN;
      const next = k + 1 < list.length ? partValue(kind as SectionNumber['kind'], numbers[list[k + 1]]!.parts[0]) : NaN;
      const end = k + 1 < list.length ? list[k + 1] : numbers.length;
      let child = false;
      for (let j = idx + 1; j < end && !child; j++) {
        const n = numbers[j];
        child = !!n && n.kind === kind && n.parts.length > 1 && n.parts[0] === numbers[idx]!.parts[0];
      }
      ok[idx] = prev === v - 1 || next === v + 1 || child;
    });
  }
  return ok;
}

interface Candidate {
  block: TextBlock;
  /** Index of the page in the document. */
  page: number;
  style: string;
  size: number;
  bold: boolean;
  num: SectionNumber | null;
}

/** Body size, the heading candidates and their levels, for all pages at once. */
export function planHeadings(pages: { blocks: Block[] }[]): HeadingPlan {
  const weights = new Map<number, number>();
  let boldChars = 0;
  let allChars = 0;
  for (const p of pages)
    for (const b of p.blocks) {
      if ((b.kind === 'text' || b.kind === 'list') && b.size > 0) {
        const chars = b.kind === 'text' ? b.chars : spansText(b.spans).length;
        weights.set(sizeKey(b.size), (weights.get(sizeKey(b.size)) ?? 0) + chars);
        allChars += chars;
        if (b.kind === 'text' && b.bold) boldChars += chars;
      }
    }
  let body = 0;
  let bestW = -1;
  for (const [size, w] of weights) if (w > bestW || (w === bestW && size < body)) [body, bestW] = [size, w];
  if (body <= 0) return { level: () => 0 };
  const boldUsable = allChars > 0 && boldChars < allChars * BOLD_MEANINGFUL_SHARE;

  // A block's text, normalised once (asked for again and again below).
  const texts = new Map<TextBlock, string>();
  const textOf = (b: TextBlock) => {
    let text = texts.get(b);
    if (text === undefined) texts.set(b, (text = blockText(b)));
    return text;
  };

  // First pass: every block that could be a heading, with its section number.
  const raw: Candidate[] = [];
  for (const [page, p] of pages.entries())
    for (const b of p.blocks) {
      // More than HEADING_MAX_LINES lines is no heading (shapeAllows), whatever its text.
      if (b.kind !== 'text' || b.size < body * HEADING_MIN_SIZE || b.lines > HEADING_MAX_LINES) continue;
      const text = textOf(b);
      if (!shapeAllows(b, text)) continue;
      const num = sectionNumber(text);
      raw.push({ block: b, page, style: '', size: sizeKey(b.size), bold: b.bold, num: num && numberedTitle(b, text, num) ? num : null });
    }
  const inSequence = sequencedNumbers(raw.map((c) => c.num));
  // Numbered lines that repeat (a running header "Chapter 3 …", a footer starting with the
  // section number) are furniture; a table of contents repeats each title only once. A page made
  // mostly of numbered titles is a table of contents: its entries are no headings.
  const repeats = new Map<string, number>();
  const perPage = new Map<number, { numbered: number; blocks: number }>();
  for (const c of raw) if (c.num) repeats.set(textOf(c.block), (repeats.get(textOf(c.block)) ?? 0) + 1);
  pages.forEach((p, k) => {
    let numbered = 0;
    let blocks = 0;
    for (const b of p.blocks) {
      if (b.kind !== 'text' && b.kind !== 'list') continue;
      blocks++;
      if (b.kind === 'text' && mayStartSectionNumber(b) && sectionNumber(textOf(b))) numbered++;
    }
    perPage.set(k, { numbered, blocks });
  });
  const tocPage = (k: number) => {
    const s = perPage.get(k)!;
    return s.numbered >= TOC_MIN_NUMBERED && s.numbered > TOC_NUMBERED_SHARE * s.blocks;
  };
  const accepted: Candidate[] = [];
  for (const [i, c] of raw.entries()) {
    const text = textOf(c.block);
    const numbered = c.num !== null && inSequence[i] && (repeats.get(text) ?? 0) <= NUMBERED_MAX_REPEATS && !tocPage(c.page);
    if (!numbered) c.num = null;
    const larger = c.size >= body * HEADING_LARGER;
    const boldHeading = boldUsable && c.bold && c.block.lines <= BOLD_HEADING_MAX_LINES && text.length <= BOLD_HEADING_MAX_CHARS && !/[.:]$/.test(text);
    if (!larger && !boldHeading && !numbered) continue;
    accepted.push(c);
  }
  if (accepted.length === 0) return { level: () => 0 };

  // Styles: sizes within 5% are one size; bold before regular at the same size.
  const sizes: number[] = [];
  for (const s of [...new Set(accepted.map((c) => c.size))].sort((a, b) => b - a)) {
    if (sizes.length === 0 || sizes[sizes.length - 1] - s > sizes[sizes.length - 1] * HEADING_STYLE_STEP) sizes.push(s);
  }
  const sizeRank = (s: number) => {
    for (let i = 0; i < sizes.length; i++) if (s >= sizes[i] - sizes[i] * HEADING_STYLE_STEP) return i;
    return sizes.length - 1;
  };
  for (const c of accepted) c.style = `${sizeRank(c.size)}|${c.bold ? 0 : 1}`;
  const prominence = (style: string) => style.split('|').map(Number) as [number, number];
  const byProminence = (a: string, b: string) => {
    const [sa, wa] = prominence(a);
    const [sb, wb] = prominence(b);
    return sa - sb || wa - wb;
  };

  // The style each numbering depth is mostly set in; depth levels are consecutive.
  const depthStyles = new Map<number, Map<string, number>>();
  for (const c of accepted) {
    if (!c.num) continue;
    const d = c.num.kind === 'word' ? 1 : c.num.parts.length;
    const m = depthStyles.get(d) ?? new Map<string, number>();
    m.set(c.style, (m.get(c.style) ?? 0) + 1);
    depthStyles.set(d, m);
  }
  const styleOfDepth = new Map<string, number>();
  for (const [d, m] of depthStyles) {
    const top = [...m.entries()].sort((a, b) => b[1] - a[1])[0][0];
    if (!styleOfDepth.has(top)) styleOfDepth.set(top, d);
  }
  const numberedTop = [...styleOfDepth.keys()].sort(byProminence)[0];
  // Un-numbered styles more prominent than every numbered heading (a title) come first.
  const above = [...new Set(accepted.filter((c) => !c.num && !styleOfDepth.has(c.style)).map((c) => c.style))]
    .filter((s) => numberedTop === undefined || byProminence(s, numberedTop) < 0)
    .sort(byProminence);
  const below = [...new Set(accepted.filter((c) => !c.num && !styleOfDepth.has(c.style)).map((c) => c.style))]
    .filter((s) => !above.includes(s))
    .sort(byProminence);
  const maxDepth = styleOfDepth.size ? Math.max(...depthStyles.keys()) : 0;
  const levelOf = new Map<TextBlock, number>();
  for (const c of accepted) {
    let level: number;
    if (c.num) level = above.length + (c.num.kind === 'word' ? 1 : c.num.parts.length);
    else if (styleOfDepth.has(c.style)) level = above.length + styleOfDepth.get(c.style)!;
    else if (above.includes(c.style)) level = above.indexOf(c.style) + 1;
    else level = above.length + maxDepth + below.indexOf(c.style) + 1;
    levelOf.set(c.block, Math.min(6, level + 1));
  }
  return { level: (b) => levelOf.get(b) ?? 0 };
}
