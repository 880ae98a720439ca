import { LayoutIndex, type CitationBox, type ExtractionLayout } from '@/lib/document/layout';
import type { QuarryDocument } from '@/lib/document/types';
import { chunkSource, pageAt, sourceOffset, type ParsedMarkdown } from './source';
import { fixedChunks, paragraphChunks, semanticChunks, type DraftChunk, type EmbedFunction } from './strategies';
import { countTokens } from './tokenizer';

/*
 * Chunking of an extraction for knowledge bases. Pure: no database, no framework.
 *
 * The chunker reads the document model (source.ts): its blocks placed in the extraction's
 * Markdown by their spans, so a chunk's content is the Markdown served and its structure is the
 * model's (a Markdown text alone is read into a model by the Markdown parser first).
 *
 * Tokens are cl100k_base tokens (the vocabulary shipped in js-tiktoken, see ./tokenizer.ts).
 *
 * Strategies
 *  - fixed: windows of chunk_size tokens; each next window starts exactly `overlap` tokens before
 *    the previous one ended. A window's end moves back (within the second half of its stride) to
 *    the best cut: before a heading, between blocks, after a sentence or line, at whitespace (or
 *    between characters of CJK/Thai text). Markdown structure is otherwise ignored (a table or
 *    fence may be cut like text).
 *  - paragraph: the model's blocks packed up to chunk_size; every heading starts a new chunk (the
 *    heading stays with the content that follows it). A table is kept whole up to chunk_size;
 *    an oversized block is split: tables between rows with the caption and header rows repeated,
 *    fenced code between lines and re-fenced, lists between top-level items, prose at
 *    sentence/word boundaries. A paragraph right before a list leads into it: the two go in
 *    one chunk when they fit one, else the paragraph's lead-in (the whole paragraph up to a
 *    quarter of chunk_size, or its last sentence) goes with the list's first items.
 *  - semantic: sentences (and whole tables / code blocks) embedded in batches; a new chunk starts
 *    at every heading, where the cosine similarity of consecutive sentences is below the 20th
 *    percentile of the document's similarities (never between a lead-in paragraph and its
 *    list), or when chunk_size would be exceeded.
 *  paragraph and semantic cut at natural boundaries and do not overlap chunks; `overlap` is
 *  validated for every strategy but only used by `fixed`.
 *
 * Metadata
 *  - page: the page where the chunk's content starts (the model's page sections, whose
 *    `<!-- page N -->` markers never appear in content; a chunk that spans pages gets its first page). Content before the first marker is page 1 when the
 *    document has markers; null throughout when it has none. Markers never appear in content.
 *  - section: heading path joined with " > ", taken where the chunk's text starts (after any
 *    headings the chunk begins with); null before the first heading.
 *  - page_end: the page where the chunk's content ends, only when it is not `page`. With a layout
 *    record, the pages of the regions the chunk came from count too: rows of a table continued
 *    over pages are written on its first page but cite their own.
 *  - char_start / char_end: the span of the Markdown as given (UTF-16 offsets, end exclusive)
 *    the chunk was taken from; its content is that text, except that a piece of a split table
 *    repeats the header rows and a piece of split code is fenced again.
 *  - boxes: with a layout record (./layout.ts), the page regions the span came from, one per
 *    block it touches (the union of the block's lines it overlaps); [] when none is known.
 *  - embedText = section + "\n\n" + content when there is a section, else content.
 */

export type ChunkingStrategy = { type: 'fixed' | 'semantic' | 'paragraph'; chunk_size: number; overlap: number };

export interface Chunk {
  content: string;
  embedText: string;
  tokenCount: number;
  metadata: ChunkMetadata;
}

export interface ChunkMetadata {
  chunk_index: number;
  page: number | null;
  page_end?: number;
  section: string | null;
  char_start: number;
  char_end: number;
  boxes?: CitationBox[];
}

export interface ChunkMarkdownOptions {
  /**
   * The document model the Markdown was rendered from (or parsed into), with its blocks' spans
   * (GET /v1/extractions/{id}/document's `prov.span`). Without it, or when its spans do not fit
   * the Markdown, the Markdown is parsed into a model here.
   */
  document?: QuarryDocument | null;
  /** Required by the semantic strategy: embeds texts, one vector per text, in order. */
  embed?: EmbedFunction;
  /** Where the Markdown's text sits on its pages: chunks then carry `boxes`. */
  layout?: ExtractionLayout | null;
}

export const MIN_CHUNK_SIZE = 64;
export const MAX_CHUNK_SIZE = 8192;
export const CHUNKING_STRATEGY_TYPES = ['fixed', 'semantic', 'paragraph'] as const;

export { countTokens };
export type { CitationBox, ExtractionLayout } from '@/lib/document/layout';
export { EMBED_BATCH_SIZE, SIMILARITY_BREAK_PERCENTILE, type EmbedFunction } from './strategies';

/** Throws a RangeError/TypeError describing the first problem with the strategy. */
export function validateChunkingStrategy(strategy: ChunkingStrategy): void {
  if (!strategy || typeof strategy !== 'object') throw new TypeError('chunking strategy must be an object');
  if (!(CHUNKING_STRATEGY_TYPES as readonly string[]).includes(strategy.type)) {
    throw new RangeError(`chunking strategy type must be one of ${CHUNKING_STRATEGY_TYPES.join(', ')}`);
  }
  const { chunk_size: size, overlap } = strategy;
  if (!Number.isInteger(size) || size < MIN_CHUNK_SIZE || size > MAX_CHUNK_SIZE) {
    throw new RangeError(`chunk_size must be an integer from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE} tokens`);
  }
  if (!Number.isInteger(overlap) || overlap < 0 || overlap >= size) {
    throw new RangeError('overlap must be an integer >= 0 and less than chunk_size');
  }
}

export async function chunkMarkdown(
  markdown: string,
  strategy: ChunkingStrategy,
  options: ChunkMarkdownOptions = {},
): Promise<Chunk[]> {
  validateChunkingStrategy(strategy);
  if (strategy.type === 'semantic' && typeof options.embed !== 'function') {
    throw new Error('The semantic chunking strategy needs an embed function (options.embed)');
  }
  const doc = chunkSource(markdown, options.document);
  let drafts: DraftChunk[];
  switch (strategy.type) {
    case 'fixed':
      drafts = fixedChunks(doc, strategy.chunk_size, strategy.overlap);
      break;
    case 'paragraph':
      drafts = paragraphChunks(doc, strategy.chunk_size);
      break;
    case 'semantic':
      drafts = await semanticChunks(doc, strategy.chunk_size, options.embed as EmbedFunction);
      break;
  }
  const index = options.layout ? new LayoutIndex(options.layout) : null;
  return drafts
    .filter((d) => d.content.length > 0)
    .map((d, i) => {
      const metadata: ChunkMetadata = { chunk_index: i, page: d.page, section: d.section, ...sourceSpan(doc, d.start, d.end) };
      let pageEnd = d.end > d.start ? pageAt(doc, d.end - 1) : null;
      if (index) metadata.boxes = index.boxes(metadata.char_start, metadata.char_end);
      // A table continued over pages is written on its first page; its rows' regions say where they are.
      if (metadata.boxes?.length && metadata.page !== null) {
        const pages = metadata.boxes.map((b) => b.page);
        metadata.page = Math.max(metadata.page, Math.min(...pages));
        pageEnd = Math.max(pageEnd ?? metadata.page, ...pages);
      }
      if (pageEnd !== null && metadata.page !== null && pageEnd > metadata.page) metadata.page_end = pageEnd;
      return {
        content: d.content,
        embedText: d.section ? `${d.section}\n\n${d.content}` : d.content,
        tokenCount: d.tokens,
        metadata,
      };
    });
}

/** A span of the parsed text as offsets in the Markdown as given (end exclusive). */
function sourceSpan(doc: ParsedMarkdown, start: number, end: number): { char_start: number; char_end: number } {
  const charStart = sourceOffset(doc, start);
  return { char_start: charStart, char_end: end > start ? sourceOffset(doc, end - 1) + 1 : charStart };
}
