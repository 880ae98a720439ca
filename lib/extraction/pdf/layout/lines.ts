/** Segments of one row of a column → a line: runs in logical order (bidi), spans, weight, size. */
import type { Span } from './blocks';
import type { Run } from '../read/runs';
import { cleanText, isCjk, repairArabicLigatures } from '../read/text';
import { byLeft, dominantSize, hasLetter, maxOf, minOf, nonSpaceLength, sortedView, type Line, type Segment } from './util';
import { CJK_JOIN_GAP, LINE_BOLD_SHARE, LINE_MONO_SHARE, SPACE_GAP } from '../settings';

/**
 * A Latin letter next to a Hebrew/Arabic letter: words never mix these scripts, so the two runs
 * are separate words even when the space glyph sits inside the right-to-left run's box.
 */
const SCRIPT_CHANGE = /^(?:[\p{Script=Latin}][\p{Script=Arabic}\p{Script=Hebrew}]|[\p{Script=Arabic}\p{Script=Hebrew}][\p{Script=Latin}])$/u;

/** Runs of a right-to-left line in logical order: right to left, left-to-right islands kept. */
function bidiOrder(runs: Run[]): Run[] {
  const visual = runs.filter((r) => !r.space).sort((a, b) => b.x1 - a.x1);
  const out: Run[] = [];
  let island: Run[] = [];
  for (const r of visual) {
    if (r.rtl) {
      if (island.length) out.push(...island.reverse());
      island = [];
      out.push(r);
    } else {
      island.push(r);
    }
  }
  if (island.length) out.push(...island.reverse());
  return out;
}

export function buildSpans(runs: Run[], rtl: boolean): Span[] {
  const ordered = rtl ? bidiOrder(runs) : sortedView(runs, byLeft);
  const spans: Span[] = [];
  let prev: Run | null = null;
  let pendingSpace = false;
  for (const r of ordered) {
    if (r.space) {
      pendingSpace = prev !== null;
      continue;
    }
    const text = cleanText(r.text);
    if (!text) continue;
    let sep = '';
    if (prev) {
      const gap = Math.max(r.x0 - prev.x1, prev.x0 - r.x1);
      const last = spans[spans.length - 1].text;
      if (!/\s$/.test(last) && !/^\s/.test(text) && (pendingSpace || gap > SPACE_GAP * Math.min(r.size, prev.size) || SCRIPT_CHANGE.test(last.charAt(last.length - 1) + text.charAt(0)))) {
        sep = isCjk(last.charAt(last.length - 1)) && isCjk(text.charAt(0)) && gap < CJK_JOIN_GAP * r.size ? '' : ' ';
      }
    }
    const cur = spans[spans.length - 1];
    if (cur && cur.bold === r.bold) cur.text += sep + text;
    else {
      if (cur && sep) cur.text += sep;
      spans.push({ text, bold: r.bold });
    }
    prev = r;
    pendingSpace = false;
  }
  if (rtl) for (const s of spans) s.text = repairArabicLigatures(s.text);
  const first = spans[0];
  if (first) first.text = first.text.replace(/^\s+/, '');
  const last = spans[spans.length - 1];
  if (last) last.text = last.text.replace(/\s+$/, '');
  return spans.filter((s) => s.text);
}

function buildLine(segs: Segment[]): Line {
  const runs = segs.flatMap((s) => s.runs);
  let rtlChars = 0;
  let ltrChars = 0;
  let boldChars = 0;
  let monoChars = 0;
  let monoKnown = true;
  let chars = 0;
  for (const r of runs) {
    if (r.space) continue;
    const n = nonSpaceLength(r.text);
    chars += n;
    if (r.rtl) rtlChars += n;
    else if (hasLetter(r.text)) ltrChars += n;
    if (r.bold) boldChars += n;
    if (r.mono || r.monoGuess) monoChars += n;
    if (r.monoGuess) monoKnown = false;
  }
  const rtl = rtlChars > ltrChars;
  const spans = buildSpans(runs, rtl);
  const sortedSegs = sortedView(segs, byLeft) as Segment[];
  return {
    runs,
    segs: sortedSegs,
    x0: minOf(segs, (s) => s.x0),
    x1: maxOf(segs, (s) => s.x1),
    y: segs[0].y,
    top: minOf(segs, (s) => s.top),
    bottom: maxOf(segs, (s) => s.bottom),
    size: dominantSize(runs),
    chars,
    bold: chars > 0 && boldChars >= chars * LINE_BOLD_SHARE,
    mono: chars > 0 && monoChars >= chars * LINE_MONO_SHARE,
    monoKnown,
    rtl,
    spans,
    text: spans.map((s) => s.text).join(''),
    furniture: segs.every((s) => s.furniture) ? segs[0].furniture : undefined,
  };
}

export function leafLines(leaf: Segment[]): Line[] {
  const byRow = new Map<number, Segment[]>();
  const lines: Line[] = [];
  for (const s of leaf) {
    if (s.table) {
      lines.push({
        runs: [], segs: [s], x0: s.x0, x1: s.x1, y: s.top, top: s.top, bottom: s.bottom, size: s.size, chars: 0,
        bold: false, mono: false, monoKnown: true, rtl: false, spans: [], text: '', table: s.table,
      });
      continue;
    }
    const list = byRow.get(s.row);
    if (list) list.push(s);
    else byRow.set(s.row, [s]);
  }
  for (const segs of byRow.values()) {
    const line = buildLine(segs);
    if (line.spans.length) lines.push(line);
  }
  return lines.sort((a, b) => a.y - b.y || a.x0 - b.x0);
}
