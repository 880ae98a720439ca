import { chunkMarkdown, type ChunkingStrategy, type ExtractionLayout } from '@/lib/chunking';
import type { QuarryDocument } from '@/lib/document/types';
import type { EmbeddingProvider } from '@/lib/embeddings/types';
import { termVector } from '@/lib/search/analyze';
import { lexemesLiteral } from '@/lib/search/tsvector';
import { toVectorLiteral } from '@/lib/search/vectors';
import { IndexingError } from './errors';

/*
 * Chunking, embedding and keyword analysis of one document (its Markdown and document model): the CPU work of indexing.
 * It runs in an indexing thread (prepare-thread.ts), which keeps the result and hands it to the
 * server a batch of rows at a time while they are written (store.ts), so the server never holds
 * a whole large document's chunks. Rows are kept in the form the INSERT takes (JSON and tsvector
 * text); vectors are turned into pgvector text while the thread waits for the server to ask for
 * them (vectorTextAhead), or when their batch is asked for first.
 */

/** Texts embedded per call, so a long document's vectors are not all requested at once. */
const EMBED_BATCH = 256;

/** One chunk as the INSERT into kb_chunks takes it. */
export interface ChunkRow {
  content: string;
  /** JSON object: the document's metadata plus the chunk's (lib/chunking/index.ts: page, section, char span, boxes…). */
  metadata: string;
  tokenCount: number;
  termCount: number;
  /** tsvector text of the distinct terms. */
  lexemes: string;
  /**
   * The distinct terms, separated by line feeds (terms hold no whitespace), in the order of
   * `termCounts`: one string and one typed array cross from the indexing thread at almost no cost,
   * where an object per chunk would be parsed on the server's main thread.
   */
  terms: string;
  /** How often each of `terms` occurs in the chunk. */
  termCounts: Uint32Array;
  /** pgvector text. */
  vector: string;
}

type HeldChunk = Omit<ChunkRow, 'vector'> & { vector: number[] | string };

/** What the server needs before writing: counts and the BM25 statistics to add. */
export interface PreparedSummary {
  count: number;
  termTotal: number;
}

/** Prepared chunks to store, read in batches (from this thread's memory or from an indexing thread). */
export interface ChunkSource extends PreparedSummary {
  rows(start: number, count: number): Promise<ChunkRow[]>;
}

export interface PreparedChunks extends PreparedSummary {
  chunks: HeldChunk[];
}

export interface PrepareLimits {
  maxChunks: number;
}

function tooManyChunks(count: number, strategy: ChunkingStrategy, max: number): IndexingError {
  return new IndexingError(
    'TOO_MANY_CHUNKS',
    `This document makes ${count.toLocaleString('en-US')} chunks with the chunking strategy ${strategy.type} (chunk_size ${strategy.chunk_size}), ` +
      `more than the limit of ${max.toLocaleString('en-US')} chunks per document (QUARRY_INDEXING_MAX_CHUNKS): ` +
      `split the document, or use a larger chunk_size`,
  );
}

/**
 * Chunks, embeds and analyses a document's Markdown, read through its document model when it
 * has one; fails with TOO_MANY_CHUNKS before embedding when it is over the limit.
 */
export async function prepareChunks(
  markdown: string,
  strategy: ChunkingStrategy,
  provider: EmbeddingProvider,
  documentMetadata: Record<string, unknown>,
  limits: PrepareLimits,
  layout?: ExtractionLayout | null,
  document?: QuarryDocument | null,
): Promise<PreparedChunks> {
  const chunks = await chunkMarkdown(markdown, strategy, { embed: (texts) => provider.embed(texts), layout, document });
  if (chunks.length > limits.maxChunks) throw tooManyChunks(chunks.length, strategy, limits.maxChunks);
  const held: HeldChunk[] = [];
  let termTotal = 0;
  for (let start = 0; start < chunks.length; start += EMBED_BATCH) {
    const batch = chunks.slice(start, start + EMBED_BATCH);
    const vectors = await provider.embed(batch.map((c) => c.embedText));
    if (vectors.length !== batch.length) throw new Error(`The embedder returned ${vectors.length} vectors for ${batch.length} texts`);
    batch.forEach((chunk, i) => {
      if (vectors[i].length !== provider.dimensions) {
        throw new Error(`The embedder returned a vector of ${vectors[i].length} dimensions; this knowledge base uses ${provider.dimensions}`);
      }
      const terms = termVector(chunk.embedText);
      termTotal += terms.length;
      held.push({
        content: chunk.content,
        metadata: JSON.stringify({ ...documentMetadata, ...chunk.metadata }),
        tokenCount: chunk.tokenCount,
        termCount: terms.length,
        lexemes: lexemesLiteral(terms.frequencies.keys()),
        terms: [...terms.frequencies.keys()].join('\n'),
        termCounts: Uint32Array.from(terms.frequencies.values()),
        vector: vectors[i],
      });
    });
  }
  return { count: held.length, termTotal, chunks: held };
}

export function summaryOf(prepared: PreparedChunks): PreparedSummary {
  return { count: prepared.count, termTotal: prepared.termTotal };
}

/** Rows [start, start + count) ready for the INSERT. */
export function chunkRows(prepared: PreparedChunks, start: number, count: number): ChunkRow[] {
  return prepared.chunks.slice(start, start + count).map((c) => ({ ...c, vector: typeof c.vector === 'string' ? c.vector : toVectorLiteral(c.vector) }));
}

/** Longest stretch of vectorTextAhead's work between two turns of the thread's event loop. */
const AHEAD_SLICE_MS = 2;

/**
 * Turns the held vectors into pgvector text in the background, a couple of milliseconds at a
 * time, so that a request for rows (answered between the slices) finds them ready: the server
 * asks while it holds the knowledge base's lock, the thread is idle before. Stops when `current`
 * turns false (the chunks were released or replaced).
 */
export function vectorTextAhead(sets: PreparedChunks[], current: () => boolean): void {
  let set = 0;
  let next = 0;
  const slice = () => {
    if (!current()) return;
    const until = performance.now() + AHEAD_SLICE_MS;
    while (set < sets.length && performance.now() < until) {
      const chunks = sets[set].chunks;
      if (next >= chunks.length) {
        set++;
        next = 0;
        continue;
      }
      const chunk = chunks[next++];
      if (typeof chunk.vector !== 'string') chunk.vector = toVectorLiteral(chunk.vector);
    }
    if (set < sets.length) setImmediate(slice);
  };
  setImmediate(slice);
}

/** The prepared chunks as a source read on this thread (benchmarks and tests; the server reads them from its indexing thread). */
export function localChunkSource(prepared: PreparedChunks): ChunkSource {
  return { ...summaryOf(prepared), rows: async (start, count) => chunkRows(prepared, start, count) };
}
