import type { Block, Inline, List, ListItem } from '@/lib/document/types';
import { throwIfAborted, type DocumentMetadata, type ExtractedDocument, type ExtractInput } from '../types';
import { decodeUtf8Text, readInputFile } from './common';
import { documentOf, text } from './model';

/*
 * Pieces shared by the plain-text markup readers (rst.ts, org.ts) and the data formats
 * (text-formats.ts): reading the text, finishing the document, list items by indentation, and
 * inline markup found by delimiters.
 */

/** Deepest nesting of lists and quotes read from indentation; deeper text stays at this depth. */
export const MAX_NESTING = 16;

export async function readTextFile(input: ExtractInput): Promise<string> {
  throwIfAborted(input.signal);
  return decodeUtf8Text(await readInputFile(input), 'text');
}

export function textDocument(input: ExtractInput, blocks: Block[], metadata: DocumentMetadata = {}): ExtractedDocument {
  input.onProgress(1, 1);
  return { document: documentOf(metadata, blocks), totalPages: 1 };
}

export function indentOf(line: string): number {
  return /^[ \t]*/.exec(line)![0].length;
}

export const isBlank = (line: string) => line.trim() === '';

/** Lines without their common leading whitespace (a loop: a spread of a huge block would overflow). */
export function dedent(lines: string[]): string[] {
  let indent = Infinity;
  for (const line of lines) if (line.trim()) indent = Math.min(indent, indentOf(line));
  return Number.isFinite(indent) ? lines.map((l) => l.slice(indent)) : lines;
}

/**
 * The lines of the block starting at `start` that are indented more than `indent` (blank lines
 * inside kept, blank lines after it not), dedented; and the index of the line after them. Each
 * line's indentation is measured once (nested blocks measure the same lines again, level by level).
 */
export function indentedBlock(lines: string[], start: number, indent: number): { body: string[]; next: number } {
  let end = start;
  let least = Infinity;
  for (let j = start; j < lines.length; j++) {
    const line = lines[j];
    const own = indentOf(line);
    const blank = own === line.length || (/\s/.test(line[own]) && isBlank(line));
    if (blank) continue;
    if (own <= indent) break;
    end = j + 1;
    least = Math.min(least, own);
  }
  const body = lines.slice(start, end);
  return { body: Number.isFinite(least) ? body.map((l) => l.slice(least)) : body, next: end };
}

/** A list item found by its marker. */
export interface ItemMarker {
  ordered: boolean;
  /** The number the source printed (ordered items; none for auto-numbered ones). */
  number?: number;
  checked?: boolean;
}

/** Adds an item to the list just before it in `out`, or starts a list. */
export function pushItem(out: Block[], marker: ItemMarker, content: Block[]): void {
  const last = out[out.length - 1];
  let list: List;
  if (last?.type === 'list' && last.ordered === marker.ordered) list = last;
  else {
    list = { type: 'list', ordered: marker.ordered, items: [] };
    if (marker.ordered && marker.number !== undefined && marker.number !== 1) list.start = marker.number;
    out.push(list);
  }
  const item: ListItem = { content };
  if (marker.checked !== undefined) item.checked = marker.checked;
  if (marker.ordered && marker.number !== undefined && marker.number !== (list.start ?? 1) + list.items.length) item.number = marker.number;
  list.items.push(item);
}

/**
 * Inline markup found by delimiters: `find` looks for markup at `at` and gives its runs and
 * length, or nothing; text between is plain. Neighbouring plain text runs are one run.
 */
export function scanInlines(source: string, starts: RegExp, find: (source: string, at: number) => { runs: Inline[]; length: number } | undefined): Inline[] {
  const out: Inline[] = [];
  let plain = '';
  const flush = () => {
    if (plain) out.push(text(plain));
    plain = '';
  };
  let i = 0;
  while (i < source.length) {
    starts.lastIndex = i;
    const m = starts.exec(source);
    if (!m) break;
    plain += source.slice(i, m.index);
    const found = find(source, m.index);
    if (found) {
      flush();
      out.push(...found.runs);
      i = m.index + found.length;
    } else {
      plain += source[m.index];
      i = m.index + 1;
    }
  }
  plain += source.slice(i);
  flush();
  return out;
}

/**
 * Where inline markup may close, found once per text: the positions of `delimiter` that `valid`
 * accepts, in order, so that each opening delimiter finds its closing one by a binary search
 * (text with thousands of unmatched delimiters stays linear).
 */
export class Closers {
  private readonly found = new Map<string, number[]>();

  constructor(
    private readonly source: string,
    private readonly valid: (delimiter: string, at: number) => boolean,
  ) {}

  /** The first closing `delimiter` after `from` and at most `max` characters on, or -1. */
  next(delimiter: string, from: number, max: number): number {
    let positions = this.found.get(delimiter);
    if (!positions) {
      positions = [];
      for (let at = this.source.indexOf(delimiter); at >= 0; at = this.source.indexOf(delimiter, at + 1)) {
        if (this.valid(delimiter, at)) positions.push(at);
      }
      this.found.set(delimiter, positions);
    }
    let lo = 0;
    let hi = positions.length;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (positions[mid] < from) lo = mid + 1;
      else hi = mid;
    }
    return lo < positions.length && positions[lo] - from <= max ? positions[lo] : -1;
  }
}

/** Punctuation that may stand right before an opening delimiter or after a closing one (reStructuredText's). */
export const OPENERS = /[\s\-'"([{<\/:‘“«]/;
export const CLOSERS = /[\s\-.,:;!?\\/'")\]}>’”»]/;

/** Whether `source[at]` may open inline markup (after start, space or opening punctuation). */
export function canOpen(source: string, at: number, openers: RegExp = OPENERS): boolean {
  return at === 0 || openers.test(source[at - 1]);
}

/** Whether markup ending before `end` may close there (before the end, space or closing punctuation). */
export function canClose(source: string, end: number, closers: RegExp = CLOSERS): boolean {
  return end >= source.length || closers.test(source[end]);
}
