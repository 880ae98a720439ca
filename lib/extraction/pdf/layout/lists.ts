/**
 * Pieces of block building that stand on their own: list markers and items (marker, hanging
 * text, nesting levels), re-flowing spans, and monospace code listings.
 */
import type { Block, Span } from './blocks';
import type { Run } from '../read/runs';
import { cleanText, joinLines } from '../read/text';
import { median, minOf, type Line } from './util';
import { CODE_BLANK_LINE_GAP, CODE_SPACE_GAP, LIST_HANG_TOLERANCE, LIST_LEVEL_STEP, LIST_MAX_LEVEL, LIST_RTL_HANG } from '../settings';

const SYMBOL_BULLET = /^([•●○◦▪▫■□◆◇►▸‣⁃∙·\uf0b7\uf0a7\uf0a8\uf0d8\uf076\uf0fc\uf0e0\uf06e\uf071\uf0d7])\s*(?=\S)/u;
const DASH_BULLET = /^([-–—*+])\s+(?=\S)/;
const NUMBERED = /^\(?(\d{1,3})[.)]\s+(?=\S)/;
const LETTERED = /^(\(?[a-z][.)]|\([ivx]{1,4}\)|[ivx]{1,4}\))\s+(?=\S)/;

export interface Marker {
  /** Characters of the line that make up the marker (with the following spaces). */
  length: number;
  ordered: boolean;
  /** Markdown marker: "-", "3." or "- a)". */
  render: string;
  strong: boolean;
}

export function listMarker(text: string): Marker | null {
  let m = SYMBOL_BULLET.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: '-', strong: true };
  m = DASH_BULLET.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: '-', strong: false };
  m = NUMBERED.exec(text);
  if (m) return { length: m[0].length, ordered: true, render: `${Number(m[1])}.`, strong: false };
  m = LETTERED.exec(text);
  if (m) return { length: m[0].length, ordered: false, render: `- ${m[1]}`, strong: false };
  return null;
}

export function stripPrefix(spans: Span[], length: number): Span[] {
  const out: Span[] = [];
  let remaining = length;
  for (const s of spans) {
    if (remaining <= 0) out.push({ ...s });
    else if (s.text.length <= remaining) remaining -= s.text.length;
    else {
      out.push({ text: s.text.slice(remaining), bold: s.bold });
      remaining = 0;
    }
  }
  if (out[0]) out[0].text = out[0].text.replace(/^\s+/, '');
  return out.filter((s) => s.text);
}

/** Appends `next` spans to `acc`, joining like re-flowed lines (de-hyphenation, CJK). */
export function appendSpans(acc: Span[], next: Span[]): void {
  if (next.length === 0) return;
  const rest = next.slice(1).map((s) => ({ ...s }));
  const last = acc[acc.length - 1];
  if (!last) {
    acc.push({ ...next[0] }, ...rest);
    return;
  }
  const first = next[0];
  // joinLines keeps the start of the next line intact at the end of its result.
  const head = first.text.replace(/^\s+/, '');
  const joined = joinLines(last.text, head);
  if (last.bold === first.bold) {
    last.text = joined;
    acc.push(...rest);
  } else {
    last.text = joined.slice(0, joined.length - head.length);
    acc.push({ text: head, bold: first.bold }, ...rest);
  }
}

/** Where the text of a list item starts (after its marker), for aligning wrapped lines. */
export function itemTextX(line: Line, marker: Marker): number {
  let remaining = line.text.slice(0, marker.length).trim();
  for (const r of line.runs.filter((x) => !x.space).sort((a, b) => a.x0 - b.x0)) {
    const t = cleanText(r.text).trimStart();
    if (!t) continue;
    if (!remaining) return r.x0;
    if (t.startsWith(remaining)) {
      const rest = t.slice(remaining.length).trimStart();
      remaining = '';
      if (rest) return r.x0 + ((r.x1 - r.x0) * (t.length - rest.length)) / t.length;
    } else if (remaining.startsWith(t)) {
      remaining = remaining.slice(t.length).trimStart();
    } else {
      return r.x0;
    }
  }
  return line.x0;
}

/** A line continues the current list item: it hangs under the item's text or its marker. */
export function itemContinues(item: { markerX: number; textX: number }, line: Line, hangingOnly = false): boolean {
  const x = line.rtl ? -line.x1 : line.x0;
  if (line.rtl) return x >= item.markerX - LIST_RTL_HANG * line.size;
  const tol = LIST_HANG_TOLERANCE * line.size;
  if (Math.abs(x - item.textX) <= tol) return true;
  return !hangingOnly && Math.abs(x - item.markerX) <= tol;
}

export function codeText(lines: Line[], pitchRatio: number): string {
  // Character width from runs without spaces (listings often draw spaces narrower or wider).
  const widths: number[] = [];
  const spaced: number[] = [];
  for (const l of lines)
    for (const r of l.runs) {
      if (r.space || r.text.length < 2) continue;
      (/\s/.test(r.text) ? spaced : widths).push((r.x1 - r.x0) / r.text.length);
    }
  const cw = median(widths.length ? widths : spaced) || lines[0].size * 0.6;
  const minX = minOf(lines, (l) => l.x0);
  const out: string[] = [];
  let prev: Line | null = null;
  for (const l of lines) {
    if (prev && l.y - prev.y > pitchRatio * l.size * CODE_BLANK_LINE_GAP) out.push('');
    let s = '';
    let last: Run | null = null;
    for (const r of l.runs.filter((x) => !x.space).sort((a, b) => a.x0 - b.x0)) {
      const text = cleanText(r.text);
      const col = Math.round((r.x0 - minX) / cw);
      if (col > s.length) s += ' '.repeat(col - s.length);
      else if (last && r.x0 - last.x1 > CODE_SPACE_GAP * cw && !/\s$/.test(s) && !/^\s/.test(text)) s += ' ';
      s += text;
      last = r;
    }
    out.push(s.replace(/\s+$/, ''));
    prev = l;
  }
  return out.join('\n').replace(/```/g, '`\u200b``');
}

/** Turns the marker x positions stored in `level` into nesting levels per run of list items. */
export function assignListLevels(blocks: Block[]): void {
  let i = 0;
  while (i < blocks.length) {
    if (blocks[i].kind !== 'list') {
      i++;
      continue;
    }
    let j = i;
    while (j < blocks.length && blocks[j].kind === 'list') j++;
    const items = blocks.slice(i, j) as Extract<Block, { kind: 'list' }>[];
    const xs = [...new Set(items.map((b) => b.level))].sort((a, b) => a - b);
    const levels: number[] = [];
    for (const x of xs) {
      const tol = LIST_LEVEL_STEP * (items[0].size || 10);
      if (levels.length === 0 || x - levels[levels.length - 1] > tol) levels.push(x);
    }
    for (const b of items) {
      let lvl = 0;
      for (let k = 0; k < levels.length; k++) if (b.level >= levels[k] - LIST_LEVEL_STEP * (b.size || 10)) lvl = k;
      b.level = Math.min(lvl, LIST_MAX_LEVEL);
    }
    i = j;
  }
}
