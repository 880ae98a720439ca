/** Types and small helpers shared by the layout stages (layout/, order/, tables/line-tables.ts). */
import { isLetterCode } from '@/lib/text/classes';
import type { DetectedTable, Span } from './blocks';
import type { Run } from '../read/runs';

export { byLeft, sortedView } from './sort';

export interface Segment {
  runs: Run[];
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
  row: number;
  chars: number;
  table?: DetectedTable;
  furniture?: Furniture;
}

/** A line isolated in the top or bottom margin: maybe a running header or footer. */
export interface Furniture {
  /** Lower-cased text with digits replaced by "#". */
  key: string;
  /** A number at the start or end of the line (a page number inside a running header). */
  label?: number;
}

export interface Line {
  runs: Run[];
  segs: Segment[];
  x0: number;
  x1: number;
  y: number;
  top: number;
  bottom: number;
  size: number;
  chars: number;
  bold: boolean;
  mono: boolean;
  monoKnown: boolean;
  rtl: boolean;
  spans: Span[];
  text: string;
  table?: DetectedTable;
  furniture?: Furniture;
}

/** Smallest / largest value of `f` over `items` (no argument spreading: pages can be huge). */
export function minOf<T>(items: readonly T[], f: (item: T) => number): number {
  let m = Infinity;
  for (const it of items) {
    const v = f(it);
    if (v < m) m = v;
  }
  return m;
}

export function maxOf<T>(items: readonly T[], f: (item: T) => number): number {
  let m = -Infinity;
  for (const it of items) {
    const v = f(it);
    if (v > m) m = v;
  }
  return m;
}

export function median(values: readonly number[]): number {
  return medianOf(values, (v) => v);
}

/** The median of `key` over `items` (the upper one of an even count), 0 for none. */
export function medianOf<T>(items: readonly T[], key: (item: T) => number): number {
  if (items.length === 0) return 0;
  // A typed array sorts numbers natively, without calling back into JavaScript per comparison.
  const s = new Float64Array(items.length);
  for (let i = 0; i < items.length; i++) s[i] = key(items[i]);
  s.sort();
  return s[s.length >> 1];
}

/** Characters (code points) other than space, tab and line feed. */
export function nonSpaceLength(text: string): number {
  let n = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    // A surrogate pair is one character.
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length) {
      const d = text.charCodeAt(i + 1);
      if (d >= 0xdc00 && d <= 0xdfff) i++;
    }
    if (c !== 0x20 && c !== 0x09 && c !== 0x0a) n++;
  }
  return n;
}

/** `/\p{L}/u.test(text)`: whether the text has a letter of any script. */
export function hasLetter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const cp = text.codePointAt(i)!;
    if (isLetterCode(cp)) return true;
    if (cp > 0xffff) i++;
  }
  return false;
}

export interface Row {
  y: number;
  top: number;
  bottom: number;
  size: number;
  runs: Run[];
}

export function dominantSize(runs: Run[]): number {
  // Nearly always every piece of text has the same size (to half a point): the size is then the
  // last one's, as the weighing below gives it.
  let key = NaN;
  let last: Run | null = null;
  for (const r of runs) {
    if (r.space) continue;
    const k = Math.round(r.size * 2) / 2;
    if (last !== null && k !== key) return weighedSize(runs);
    key = k;
    last = r;
  }
  return last?.size || runs[0]?.size || 10;
}

/** The size carrying most of the runs' text (to half a point): the last size to lead the tally. */
export function weighedSize(runs: Run[]): number {
  const weight = new Map<number, number>();
  let best = 0;
  let bestW = -1;
  for (const r of runs) {
    if (r.space) continue;
    const key = Math.round(r.size * 2) / 2;
    const w = (weight.get(key) ?? 0) + Math.max(1, r.text.length);
    weight.set(key, w);
    if (w > bestW) {
      bestW = w;
      best = r.size;
    }
  }
  return best || runs[0]?.size || 10;
}
