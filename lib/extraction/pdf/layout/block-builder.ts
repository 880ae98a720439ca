/**
 * Lines of one column → blocks: consecutive lines split at larger gaps, font size or weight
 * changes, first-line indents, short lines ending a sentence, list markers and monospace runs;
 * the borderless tables found among the lines (tables/line-tables.ts) and bordered ones placed
 * where they stand.
 */
import type { TableCell } from '@/lib/document/types';
import type { Block, Span } from './blocks';
import { isCaption, sectionNumber } from './titles';
import { lineGeom, tableGeom } from './geometry';
import { appendSpans, assignListLevels, codeText, itemContinues, itemTextX, listMarker, stripPrefix, type Marker } from './lists';
import { dominantSize, maxOf, medianOf, minOf, type Line } from './util';
import {
  BODY_SIZE_TOLERANCE,
  BOLD_BREAK_MAX_CHARS,
  CODE_MAX_GAP,
  CODE_MIN_LINES,
  INDENT_MAX,
  INDENT_MIN,
  INDENT_PREV_MAX,
  INLINE_CODE_INDENT,
  LIST_AFTER_SHORT_LINE,
  NUMBERED_HEADING_MAX_CHARS,
  NUMBERED_HEADING_SIZE,
  PARAGRAPH_GAP,
  PARAGRAPH_GAP_PT,
  PITCH_DEFAULT,
  PITCH_MAX,
  PITCH_MIN,
  PITCH_QUANTILE,
  PITCH_SAMPLE_SIZE_CHANGE,
  SECTION_TITLE_MAX_CHARS,
  SECTION_TITLE_SHORTFALL_EMS,
  SECTION_TITLE_SHORTFALL_SHARE,
  SHORT_LINE_EMS,
  SHORT_LINE_MIN_LINES,
  SHORT_LINE_SHARE,
  SIZE_CHANGE,
  TITLE_MAX_CHARS,
  TITLE_NEXT_MAX_CHARS,
} from '../settings';

/** A borderless table among a column's lines (tables/line-tables.ts), by the index of its first line. */
export interface LineTable {
  /** Index of its last line. */
  end: number;
  rows: string[][];
  cells: TableCell[][];
}

interface BlockContext {
  bodySize: number;
  leftEdge: number;
  rightEdge: number;
  width: number;
  lineCount: number;
  pitchRatio: number;
}

const SENTENCE_END = /[.!?:;。！？：]["'”’»)\]]*$/;

function startOffset(line: Line, ctx: BlockContext): number {
  return line.rtl ? ctx.rightEdge - line.x1 : line.x0 - ctx.leftEdge;
}

function endShortfall(line: Line, ctx: BlockContext): number {
  return line.rtl ? line.x0 - ctx.leftEdge : ctx.rightEdge - line.x1;
}

function breaksBefore(prev: Line, line: Line, ctx: BlockContext): boolean {
  // Running header/footer candidates stay single lines, so that repeats can be matched per line.
  if (prev.furniture || line.furniture) return true;
  // A rule drawn with characters ("───────", "* * *") separates what is above from what is below.
  if (TEXT_RULE.test(prev.text) || TEXT_RULE.test(line.text)) return true;
  // A numbered title wrapped over two lines (both bold, or the first ends with "&", "of", "and")
  // goes on, even under a hanging indent.
  // (Cheap tests first: this runs for every pair of lines.)
  const titleGoesOn =
    prev.chars <= TITLE_MAX_CHARS &&
    line.chars <= TITLE_NEXT_MAX_CHARS &&
    line.y - prev.y <= ctx.pitchRatio * prev.size * PARAGRAPH_GAP + PARAGRAPH_GAP_PT &&
    Math.abs(prev.size - line.size) <= SIZE_CHANGE * prev.size &&
    sectionNumber(prev.text) !== null &&
    ((prev.bold && line.bold) || TITLE_CONTINUES.test(prev.text.slice(-6)));
  if (titleGoesOn && !SENTENCE_END.test(prev.text)) return false;
  const size = Math.max(prev.size, line.size);
  if (Math.abs(prev.size - line.size) > SIZE_CHANGE * size) return true;
  const pitch = line.y - prev.y;
  if (pitch > ctx.pitchRatio * size * PARAGRAPH_GAP + PARAGRAPH_GAP_PT) return true;
  if (prev.mono !== line.mono) return true;
  if (prev.bold !== line.bold && (prev.bold ? prev.chars : line.chars) < BOLD_BREAK_MAX_CHARS) return true;
  const start = startOffset(line, ctx);
  if (start >= INDENT_MIN * size && start <= INDENT_MAX * size && startOffset(prev, ctx) < INDENT_PREV_MAX * size) return true;
  if (ctx.lineCount >= SHORT_LINE_MIN_LINES && endShortfall(prev, ctx) > Math.max(SHORT_LINE_SHARE * ctx.width, SHORT_LINE_EMS * size) && SENTENCE_END.test(prev.text)) return true;
  // A numbered section title set like the body ("1.2 Scope") stands on a line of its own.
  if (sectionTitleLine(prev, ctx) || (sectionTitleLine(line, ctx) && SENTENCE_END.test(prev.text))) return true;
  // A caption ("Figure 3: …", "Table 2. …") is a paragraph of its own, next to its figure or table.
  if (isCaption(line.text) && SENTENCE_END.test(prev.text)) return true;
  return false;
}

/** Three or more rule characters (box drawing, dashes, underscores, equals signs, tildes, asterisks), single spaces between them allowed. */
const TEXT_RULE = /^(?:[\u2500-\u257f\u2010-\u2015_=~*\-]\s?){3,}$/;

const TITLE_CONTINUES = /(?:[&,\-–/]|\b(?:and|or|of|the|for|in|on|with|to|a|an|und|et|de)\b)$/i;

/** A short line that starts with a section number and does not read like a sentence. */
function sectionTitleLine(line: Line, ctx: BlockContext): boolean {
  if (line.chars > SECTION_TITLE_MAX_CHARS || ctx.lineCount < 2 || endShortfall(line, ctx) <= Math.max(SECTION_TITLE_SHORTFALL_SHARE * ctx.width, SECTION_TITLE_SHORTFALL_EMS * line.size)) return false;
  return !SENTENCE_END.test(line.text) && sectionNumber(line.text) !== null;
}

/** Table-of-contents entries: dot leaders before a page number. */
const TOC_LINE = /(?:\.\s?){4,}\s*(?:\d{1,4}|[ivxlcdm]{1,6})$|…{2,}\s*\d{1,4}$/i;
type Builder =
  | { kind: 'para'; lines: Line[] }
  | { kind: 'list'; lines: Line[]; marker: Marker; markerX: number; textX: number }
  | { kind: 'code'; lines: Line[] };

function blockContext(lines: Line[]): BlockContext {
  const textLines = lines.filter((l) => !l.table);
  const size = medianOf(textLines, (l) => l.size) || 10;
  const body = textLines.filter((l) => Math.abs(l.size - size) <= BODY_SIZE_TOLERANCE * size);
  const leftEdge = minOf(body, (l) => l.x0);
  const rightEdge = maxOf(body, (l) => l.x1);
  const ratios: number[] = [];
  for (let i = 1; i < textLines.length; i++) {
    const a = textLines[i - 1];
    const b = textLines[i];
    if (Math.abs(a.size - b.size) > PITCH_SAMPLE_SIZE_CHANGE * a.size) continue;
    const r = (b.y - a.y) / a.size;
    if (r >= PITCH_MIN && r <= PITCH_MAX) ratios.push(r);
  }
  const sorted = ratios.sort((a, b) => a - b);
  const pitchRatio = sorted.length >= 2 ? sorted[Math.floor(sorted.length * PITCH_QUANTILE)] : PITCH_DEFAULT;
  return { bodySize: size, leftEdge, rightEdge, width: Math.max(1, rightEdge - leftEdge), lineCount: textLines.length, pitchRatio };
}

export function buildBlocks(lines: Line[], tableAt: ReadonlyMap<number, LineTable>): Block[] {
  if (lines.length === 0) return [];
  const ctx = blockContext(lines);
  const blocks: Block[] = [];

  let cur: Builder | null = null;
  const flush = () => {
    if (!cur) return;
    const b = cur;
    cur = null;
    if (b.kind === 'code') {
      if (b.lines.length >= CODE_MIN_LINES || b.lines.every((l) => l.monoKnown)) {
        blocks.push({ kind: 'code', text: codeText(b.lines, ctx.pitchRatio), geom: b.lines.map(lineGeom) });
        return;
      }
      emitParagraph(b.lines);
      return;
    }
    if (b.kind === 'list') {
      const spans: Span[] = [];
      for (const [i, l] of b.lines.entries()) appendSpans(spans, i === 0 ? stripPrefix(l.spans, b.marker.length) : l.spans);
      blocks.push({
        kind: 'list',
        marker: b.marker.render,
        ordered: b.marker.ordered,
        level: b.markerX,
        spans,
        size: b.lines[0].size,
        geom: b.lines.map(lineGeom),
      });
      return;
    }
    emitParagraph(b.lines);
  };
  const emitParagraph = (ls: Line[]) => {
    const spans: Span[] = [];
    for (const l of ls) appendSpans(spans, l.spans);
    const chars = ls.reduce((n, l) => n + l.chars, 0);
    const block: Block = {
      kind: 'text',
      spans,
      lines: ls.length,
      size: dominantSize(ls.flatMap((l) => l.runs)),
      bold: ls.every((l) => l.bold),
      chars,
      geom: ls.map(lineGeom),
    };
    const f = ls.length === 1 ? ls[0].furniture : undefined;
    if (f) {
      block.furniture = f.key;
      if (f.label !== undefined) block.pageLabel = f.label;
    }
    blocks.push(block);
  };

  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    const table = tableAt.get(i);
    if (table) {
      flush();
      blocks.push({ kind: 'table', rows: table.rows, cells: table.cells, geom: lines.slice(i, table.end + 1).map(lineGeom) });
      i = table.end;
      continue;
    }
    if (line.table) {
      flush();
      blocks.push({ kind: 'table', rows: line.table.rows, cells: line.table.cells, geom: [tableGeom(line.table)] });
      continue;
    }
    const prev: Line | null = i > 0 && !lines[i - 1].table ? lines[i - 1] : null;
    const c = cur as Builder | null;
    // "* * *" is a rule, not a bulleted item.
    const marker = TEXT_RULE.test(line.text) ? null : listMarker(line.text);
    const closeBelow =
      prev !== null &&
      line.y - prev.y <= ctx.pitchRatio * line.size * PARAGRAPH_GAP + PARAGRAPH_GAP_PT &&
      Math.abs(prev.size - line.size) <= SIZE_CHANGE * Math.max(prev.size, line.size);
    if (line.mono && !marker?.strong) {
      if (c?.kind === 'code' && prev && line.y - prev.y <= ctx.pitchRatio * line.size * CODE_MAX_GAP + PARAGRAPH_GAP_PT) {
        c.lines.push(line);
        continue;
      }
      // Inline code that wrapped to the start of a line inside a paragraph or list item.
      const next = lines[i + 1];
      const nextMono = !!next && !next.table && next.mono;
      if (c && c.kind !== 'code' && closeBelow && !nextMono && !prev!.mono) {
        const fits = c.kind === 'list' ? itemContinues(c, line) : Math.abs(startOffset(line, ctx)) < INLINE_CODE_INDENT * line.size;
        if (fits) {
          c.lines.push(line);
          continue;
        }
      }
      flush();
      cur = { kind: 'code', lines: [line] };
      continue;
    }
    const toc = TOC_LINE.test(line.text) || (prev !== null && TOC_LINE.test(prev.text));
    const brk = !c || !prev || toc || breaksBefore(prev, line, ctx);
    // "1. Introduction" set large or bold is a numbered heading, not a list.
    const headingLike = !marker?.strong && line.chars <= NUMBERED_HEADING_MAX_CHARS && (line.size > ctx.bodySize * NUMBERED_HEADING_SIZE || (line.bold && !/[.,;:]$/.test(line.text)));
    if (marker && !headingLike) {
      const accept =
        marker.strong || brk || c?.kind === 'list' || (prev !== null && (SENTENCE_END.test(prev.text) || endShortfall(prev, ctx) > LIST_AFTER_SHORT_LINE * ctx.width));
      if (accept) {
        flush();
        cur = { kind: 'list', lines: [line], marker, markerX: line.rtl ? -line.x1 : line.x0, textX: line.rtl ? -line.x1 : itemTextX(line, marker) };
        continue;
      }
    }
    if (c && !brk) {
      if (c.kind === 'para' || (c.kind === 'list' && itemContinues(c, line))) {
        c.lines.push(line);
        continue;
      }
    } else if (c?.kind === 'list' && !marker && !toc && closeBelow && itemContinues(c, line, true)) {
      // A wrapped list item whose lines hang under its text (looks like an indent otherwise).
      c.lines.push(line);
      continue;
    }
    flush();
    cur = { kind: 'para', lines: [line] };
  }
  flush();
  assignListLevels(blocks);
  return blocks;
}
