import { sql } from 'drizzle-orm';
import { bigint, boolean, customType, index, integer, jsonb, pgTable, primaryKey, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';
import { DOCUMENT_STATUSES, EMBEDDING_PROVIDERS } from './enums';
import { extractions } from './extractions';
import { files } from './files';

export { DOCUMENT_STATUSES, type DocumentStatus } from './enums';

export interface ChunkingStrategyValue {
  type: 'fixed' | 'semantic' | 'paragraph';
  chunk_size: number;
  overlap: number;
}

/** A pgvector `vector` of any dimension; written as its text form `[0.1,0.2,…]`. */
export const vectorAny = customType<{ data: string; driverData: string }>({
  dataType: () => 'vector',
});

/** Raw bytes (the driver returns a Buffer or Uint8Array). */
export const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({
  dataType: () => 'bytea',
});

/** A full-text `tsvector`, written as its text form (`'term':1,2 'other':1`). */
export const tsvector = customType<{ data: string; driverData: string }>({
  dataType: () => 'tsvector',
});

export const knowledgeBases = pgTable(
  'knowledge_bases',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    description: text('description').notNull().default(''),
    chunkingStrategy: jsonb('chunking_strategy').$type<ChunkingStrategyValue>().notNull(),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    embeddingProvider: text('embedding_provider', { enum: EMBEDDING_PROVIDERS }).notNull(),
    embeddingModel: text('embedding_model').notNull(),
    embeddingDimensions: integer('embedding_dimensions').notNull(),
    /** The index generation searches read. */
    generation: integer('generation').notNull().default(1),
    /** While a re-index runs: the generation being built, and the strategy it is built with. */
    pendingGeneration: integer('pending_generation'),
    pendingChunkingStrategy: jsonb('pending_chunking_strategy').$type<ChunkingStrategyValue>(),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('knowledge_bases_created_at_idx').on(t.createdAt)],
);

export const kbDocuments = pgTable(
  'kb_documents',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    fileId: text('file_id')
      .notNull()
      .references(() => files.id, { onDelete: 'cascade' }),
    extractionId: text('extraction_id')
      .notNull()
      .references(() => extractions.id, { onDelete: 'cascade' }),
    title: text('title').notNull(),
    status: text('status', { enum: DOCUMENT_STATUSES }).notNull(),
    /**
     * A pending document whose extraction was still running when it was added: released to
     * indexing (or failed) when that extraction ends, by the workflows in waiting-workflow.ts.
     */
    awaitingExtraction: boolean('awaiting_extraction').notNull().default(false),
    /** The title fell back to the filename while the extraction ran: its own title replaces it once known. */
    titleFromFilename: boolean('title_from_filename').notNull().default(false),
    /** Chunks in the knowledge base's active generation. */
    chunkCount: integer('chunk_count').notNull().default(0),
    /** Chunks in the generation a re-index is building; null until this document is done there. */
    pendingChunkCount: integer('pending_chunk_count'),
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull().default({}),
    errorCode: text('error_code'),
    errorMessage: text('error_message'),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    indexedAt: timestamp('indexed_at', { withTimezone: true }),
    /**
     * The extraction and file version its chunks were made from, set with them: while a new
     * version is being indexed, search still serves (and cites) the chunks of these.
     */
    indexedExtractionId: text('indexed_extraction_id'),
    indexedFileVersion: integer('indexed_file_version'),
  },
  (t) => [
    uniqueIndex('kb_documents_kb_file_idx').on(t.kbId, t.fileId),
    index('kb_documents_kb_created_at_idx').on(t.kbId, t.createdAt),
    index('kb_documents_file_id_idx').on(t.fileId),
    index('kb_documents_extraction_id_idx').on(t.extractionId),
  ],
);

export const kbChunks = pgTable(
  'kb_chunks',
  {
    id: text('id').primaryKey(),
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    documentId: text('document_id')
      .notNull()
      .references(() => kbDocuments.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    chunkIndex: integer('chunk_index').notNull(),
    /** The chunk's number in its generation (kb_index_stats.next_ordinal): how keyword postings name it. */
    ordinal: integer('ordinal').notNull(),
    content: text('content').notNull(),
    /** The document's metadata plus page, section and chunk_index. */
    metadata: jsonb('metadata').$type<Record<string, unknown>>().notNull(),
    tokenCount: integer('token_count').notNull(),
    /** BM25 document length: the number of analysed terms. */
    termCount: integer('term_count').notNull(),
    /** The distinct analysed terms (what deleting the chunk takes out of the statistics and postings). */
    terms: tsvector('terms').notNull(),
    dimensions: integer('dimensions').notNull(),
    embedding: vectorAny('embedding').notNull(),
    /**
     * Whether the row is in its dimension's HNSW index (whose predicate includes this). Chunks are
     * written with false and put into the index in the background (lib/search/vector-backlog.ts);
     * until then searches compare them with the query exactly.
     */
    vectorIndexed: boolean('vector_indexed').notNull().default(true),
  },
  (t) => [
    uniqueIndex('kb_chunks_kb_generation_ordinal_idx').on(t.kbId, t.generation, t.ordinal),
    index('kb_chunks_document_idx').on(t.documentId, t.generation),
    index('kb_chunks_vector_pending_idx').on(t.kbId, t.generation).where(sql`not ${t.vectorIndexed}`),
  ],
);

/** Per generation of a knowledge base's index: BM25 collection statistics. */
export const kbIndexStats = pgTable(
  'kb_index_stats',
  {
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    chunkTotal: bigint('chunk_total', { mode: 'number' }).notNull().default(0),
    termTotal: bigint('term_total', { mode: 'number' }).notNull().default(0),
    /** The ordinal the next chunk written to this generation gets. */
    nextOrdinal: bigint('next_ordinal', { mode: 'number' }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.kbId, t.generation] })],
);

/**
 * Keyword postings (lib/search/postings.ts): per generation and term, blocks of up to 64 packed
 * records (chunk ordinal, term frequency, chunk length) in ordinal order, each keyed by its
 * first ordinal.
 */
export const kbPostings = pgTable(
  'kb_postings',
  {
    kbId: text('kb_id')
      .notNull()
      .references(() => knowledgeBases.id, { onDelete: 'cascade' }),
    generation: integer('generation').notNull(),
    term: text('term').notNull(),
    block: integer('block').notNull(),
    data: bytea('data').notNull(),
  },
  (t) => [primaryKey({ columns: [t.kbId, t.generation, t.term, t.block] })],
);

export type KnowledgeBaseRow = typeof knowledgeBases.$inferSelect;
export type KbDocumentRow = typeof kbDocuments.$inferSelect;
export type KbChunkRow = typeof kbChunks.$inferSelect;


/**
 * How far the writing of a document's chunks has come, while it is indexing. Kept apart from
 * kb_documents (no foreign key) because the writing transaction holds that row locked; written
 * from outside it, so other processes see it.
 */
export const kbIndexingProgress = pgTable('kb_indexing_progress', {
  documentId: text('document_id').primaryKey(),
  chunksWritten: integer('chunks_written').notNull(),
  chunkTotal: integer('chunk_total').notNull(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
