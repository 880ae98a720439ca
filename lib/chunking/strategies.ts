import { pageAt, sectionAt, type Block, type ParsedMarkdown } from './source';
import { Packer, pieceEnd, splitBlock, splitProse, type PackedChunk, type Piece } from './pieces';
import { sentenceSpans, tokenWindows } from './text';
import { countTokens } from './tokenizer';

/** A chunk before numbering: content plus the offsets its metadata is read from. */
export interface DraftChunk {
  content: string;
  tokens: number;
  page: number | null;
  section: string | null;
  /** The span of the parsed text the chunk was taken from. */
  start: number;
  end: number;
}

function leadingSpace(text: string): number {
  const i = text.search(/\S/);
  return i < 0 ? 0 : i;
}

function blockPiece(block: Block): Piece {
  const heading = block.type === 'heading';
  return {
    text: block.text,
    tokens: countTokens(block.text),
    offset: block.start + leadingSpace(block.text),
    end: block.end,
    heading,
    sep: '\n\n',
    breakBefore: heading,
  };
}

/** Page where the chunk starts; section of its first non-heading piece (after leading headings). */
function draftsFromPacked(doc: ParsedMarkdown, packed: PackedChunk[]): DraftChunk[] {
  return packed.map(({ pieces, content, tokens }) => {
    const body = pieces.find((p) => !p.heading) ?? pieces[pieces.length - 1];
    const start = pieces[0].offset;
    const end = pieces.reduce((e, p) => Math.max(e, pieceEnd(p)), start);
    return { content, tokens, page: pageAt(doc, start), section: sectionAt(doc, body.offset), start, end };
  });
}

// ---------------------------------------------------------------------------------------------
// fixed

export function fixedChunks(doc: ParsedMarkdown, size: number, overlap: number): DraftChunk[] {
  // Preferred cut points from the structure: before a heading (5), before any block (4).
  const structural = new Map<number, number>();
  const headingEnds = new Map<number, number>();
  for (const b of doc.blocks) {
    const first = b.start + leadingSpace(b.text);
    structural.set(first, b.type === 'heading' ? 5 : 4);
    if (b.type === 'heading') headingEnds.set(first, b.end);
  }
  const windows = tokenWindows(doc.text, {
    budget: () => size,
    overlap,
    structural: (at) => structural.get(at) ?? 0,
  });
  return windows.map((w) => {
    // The section is the one of the first text after any headings the window starts with.
    let at = w.start;
    for (;;) {
      const end = headingEnds.get(at);
      if (end === undefined || end >= w.end) break;
      let next = end;
      while (next < w.end && /\s/.test(doc.text[next])) next++;
      if (next >= w.end) break;
      at = next;
    }
    return { content: w.content, tokens: w.tokens, page: pageAt(doc, w.start), section: sectionAt(doc, at), start: w.start, end: w.end };
  });
}

// ---------------------------------------------------------------------------------------------
// paragraph

/** A lead-in no longer than this share of chunk_size is kept with the list it leads into. */
export const LEAD_IN_SHARE = 0.25;

/**
 * The part of a paragraph that leads into the list after it: the whole paragraph when it is
 * short, else its last sentence (null when even that is long), with the rest of the paragraph.
 */
function leadIn(block: Block, size: number): { body: Block | null; lead: Piece } | null {
  const limit = Math.floor(size * LEAD_IN_SHARE);
  const whole = blockPiece(block);
  if (whole.tokens <= limit) return { body: null, lead: whole };
  const spans = sentenceSpans(block.text).filter((span) => block.text.slice(span.start, span.end).trim());
  const last = spans[spans.length - 1];
  if (!last || last.start === 0) return null;
  const raw = block.text.slice(last.start, last.end);
  const text = raw.trim();
  const tokens = countTokens(text);
  if (tokens > limit) return null;
  const bodyText = block.text.slice(0, last.start).trimEnd();
  const gap = block.text.slice(bodyText.length, last.start + leadingSpace(raw));
  const body: Block = { type: 'paragraph', start: block.start, end: block.start + bodyText.length, text: bodyText };
  const offset = block.start + last.start + leadingSpace(raw);
  return { body, lead: { text, tokens, offset, end: offset + text.length, heading: false, sep: gap.includes('\n') ? '\n' : ' ', breakBefore: false } };
}

export function paragraphChunks(doc: ParsedMarkdown, size: number): DraftChunk[] {
  const packer = new Packer(size);
  const add = (block: Block) => {
    const p = blockPiece(block);
    if (p.heading) {
      if (p.tokens <= size) packer.add(p);
      // A heading longer than a chunk (pathological): cut as text.
      else for (const part of splitProse(block.text, block.start, () => size)) packer.add({ ...part, heading: true, breakBefore: true });
      return;
    }
    if (p.tokens <= packer.room || (p.tokens <= size && !packer.onlyHeadings)) {
      packer.add(p);
      return;
    }
    // An oversized block, or a block that does not fit next to the heading(s) it follows: its
    // first piece takes the room left in the current chunk when that is worth it.
    let first = size;
    if (!packer.isEmpty) {
      if (packer.room >= size / 4) first = packer.room;
      else packer.flush();
    }
    const pieces = splitBlock(block, (i) => (i === 0 ? first : size), doc.text);
    pieces.forEach((piece, i) => packer.add({ ...piece, breakBefore: i > 0 }));
  };
  /** A paragraph and the list it leads into: in one chunk, or its lead-in with the list's first items. */
  const addLeadingInto = (block: Block, list: Block): boolean => {
    const p = blockPiece(block);
    const l = blockPiece(list);
    if (p.tokens + 1 + l.tokens <= size) {
      if (!packer.isEmpty && !packer.onlyHeadings && p.tokens + 1 + l.tokens > packer.room) packer.flush();
      packer.add(p);
      packer.add(l);
      return true;
    }
    const split = leadIn(block, size);
    if (!split) return false;
    if (split.body) add(split.body);
    const firstItem = list.items?.[0];
    const firstTokens = firstItem ? countTokens(doc.text.slice(firstItem[0], firstItem[1])) : 0;
    const needed = split.lead.tokens + 1 + Math.min(firstTokens, size - split.lead.tokens - 1);
    if (!packer.isEmpty && !packer.onlyHeadings && packer.room < needed) packer.flush();
    packer.add(split.lead);
    const room = packer.room;
    const pieces = splitBlock(list, (i) => (i === 0 ? room : size), doc.text);
    pieces.forEach((piece, i) => packer.add({ ...piece, breakBefore: i > 0 }));
    return true;
  };
  for (let i = 0; i < doc.blocks.length; i++) {
    const block = doc.blocks[i];
    const next = doc.blocks[i + 1];
    if (block.leadsIn && next?.type === 'list' && addLeadingInto(block, next)) {
      i++;
      continue;
    }
    add(block);
  }
  return draftsFromPacked(doc, packer.finish());
}

// ---------------------------------------------------------------------------------------------
// semantic

export type EmbedFunction = (texts: string[]) => Promise<number[][]>;

export const EMBED_BATCH_SIZE = 64;
/** A new chunk starts where the similarity of consecutive sentences is below this percentile. */
export const SIMILARITY_BREAK_PERCENTILE = 20;

interface Unit extends Piece {
  /** Units whose similarity to the previous unit is measured (not headings, not first in a section). */
  compare: boolean;
}

/** Sentences (prose) or whole blocks (tables, code; split when oversized) in document order. */
function semanticUnits(doc: ParsedMarkdown, size: number): Unit[] {
  const units: Unit[] = [];
  let afterHeading = true;
  doc.blocks.forEach((block, index) => {
    const whole = blockPiece(block);
    // A list's first sentence stays with the paragraph leading into it (no topic break there).
    if (block.type === 'list' && doc.blocks[index - 1]?.leadsIn) afterHeading = true;
    if (block.type === 'heading') {
      const parts = whole.tokens <= size ? [whole] : splitProse(block.text, block.start, () => size);
      for (const part of parts) units.push({ ...part, heading: true, breakBefore: true, compare: false });
      afterHeading = true;
      return;
    }
    const prose = block.type === 'paragraph' || block.type === 'list' || block.type === 'quote';
    if (!prose) {
      const parts = whole.tokens <= size ? [whole] : splitBlock(block, () => size, doc.text);
      parts.forEach((part, i) => {
        units.push({ ...part, heading: false, sep: '\n\n', breakBefore: i > 0, compare: !afterHeading });
        afterHeading = false;
      });
      return;
    }
    let sep = '\n\n';
    for (const span of sentenceSpans(block.text)) {
      const raw = block.text.slice(span.start, span.end);
      const text = raw.trimEnd();
      const trailing = raw.slice(text.length);
      if (text.trim()) {
        const offset = block.start + span.start + leadingSpace(text);
        const tokens = countTokens(text);
        const end = block.start + span.start + text.length;
        const parts: Pick<Piece, 'text' | 'tokens' | 'offset' | 'end'>[] =
          tokens <= size ? [{ text, tokens, offset, end }] : splitProse(text, block.start + span.start, () => size);
        parts.forEach((part, i) => {
          units.push({
            text: part.text,
            tokens: part.tokens,
            offset: part.offset,
            end: part.end,
            heading: false,
            sep: i === 0 ? sep : ' ',
            breakBefore: i > 0,
            compare: !afterHeading && i === 0,
          });
          afterHeading = false;
        });
      }
      sep = trailing.includes('\n') ? '\n' : trailing ? ' ' : '';
    }
  });
  return units;
}

function cosine(a: number[], b: number[]): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i];
    na += a[i] * a[i];
    nb += b[i] * b[i];
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb);
}

/** Linear-interpolation percentile (p in 0-100) of the values. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((x, y) => x - y);
  if (sorted.length === 0) return -Infinity;
  const pos = ((sorted.length - 1) * p) / 100;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (pos - lo);
}

async function embedAll(embed: EmbedFunction, texts: string[]): Promise<number[][]> {
  const vectors: number[][] = [];
  let dimension = -1;
  for (let i = 0; i < texts.length; i += EMBED_BATCH_SIZE) {
    const batch = texts.slice(i, i + EMBED_BATCH_SIZE);
    const result = await embed(batch);
    if (!Array.isArray(result) || result.length !== batch.length) {
      throw new Error(`Semantic chunking: embed() returned ${Array.isArray(result) ? result.length : 'no'} vectors for ${batch.length} texts`);
    }
    for (const v of result) {
      if (!Array.isArray(v) || v.length === 0 || (dimension >= 0 && v.length !== dimension) || !v.every(Number.isFinite)) {
        throw new Error('Semantic chunking: embed() must return one non-empty numeric vector per text, all of the same length');
      }
      dimension = v.length;
      vectors.push(v);
    }
  }
  return vectors;
}

export async function semanticChunks(doc: ParsedMarkdown, size: number, embed: EmbedFunction): Promise<DraftChunk[]> {
  const units = semanticUnits(doc, size);
  const embedded = units.filter((u) => !u.heading);
  const vectors = await embedAll(
    embed,
    embedded.map((u) => u.text.trim()),
  );
  const similarity = new Map<Unit, number>();
  for (let i = 1; i < embedded.length; i++) {
    if (embedded[i].compare) similarity.set(embedded[i], cosine(vectors[i - 1], vectors[i]));
  }
  const threshold = percentile([...similarity.values()], SIMILARITY_BREAK_PERCENTILE);
  const packer = new Packer(size);
  for (const unit of units) {
    const sim = similarity.get(unit);
    packer.add({ ...unit, breakBefore: unit.breakBefore || (sim !== undefined && sim < threshold) });
  }
  return draftsFromPacked(doc, packer.finish());
}
