import { z } from 'zod';
import { MAX_CHUNK_SIZE, MIN_CHUNK_SIZE } from '@/lib/chunking';
import { DOCUMENT_STATUSES, EMBEDDING_PROVIDERS } from '@/lib/db/schema';
import { DEFAULT_FUSION, DEFAULT_KEYWORD_WEIGHT, DEFAULT_RERANK_TOP_N, DEFAULT_TOP_K, DEFAULT_VECTOR_WEIGHT, MAX_TOP_K } from '@/lib/knowledge-bases/search';
import { DEFAULT_RRF_K, FUSION_METHODS } from '@/lib/search/fusion';
import { batchResultOf, idParam, label, metadataObject, listOf, paginationQuery, sortQuery, timestamp } from './common';
import { extractRequest } from './extractions';

const MAX_QUERY_LENGTH = 8000;

/** A JSON object of at most 16 KB. */
const strategyFields = z.object({
  type: z
    .enum(['fixed', 'semantic', 'paragraph'], { error: 'chunking_strategy.type must be one of: fixed, semantic, paragraph' })
    .optional()
    .meta({ description: 'fixed: token windows with overlap; paragraph: Markdown blocks packed to chunk_size; semantic: sentences grouped by embedding similarity. Default paragraph' }),
  chunk_size: z
    .number({ error: 'chunk_size must be an integer' })
    .int('chunk_size must be an integer')
    .min(MIN_CHUNK_SIZE, `chunk_size must be at least ${MIN_CHUNK_SIZE} tokens`)
    .max(MAX_CHUNK_SIZE, `chunk_size must be at most ${MAX_CHUNK_SIZE} tokens`)
    .optional()
    .meta({ description: `Maximum tokens per chunk (cl100k_base), ${MIN_CHUNK_SIZE}–${MAX_CHUNK_SIZE}. Default 512` }),
  overlap: z
    .number({ error: 'overlap must be an integer' })
    .int('overlap must be an integer')
    .min(0, 'overlap must be 0 or more')
    .optional()
    .meta({ description: 'Tokens shared by consecutive chunks (fixed strategy); less than chunk_size. Default min(64, chunk_size/8)' }),
});

/** Checks overlap < chunk_size once defaults are known (the stored strategy fills omitted fields on update). */
export const chunkingStrategyInput = strategyFields
  .strict()
  .superRefine((s, ctx) => {
    if (s.overlap !== undefined && s.chunk_size !== undefined && s.overlap >= s.chunk_size) {
      ctx.addIssue({ code: 'custom', path: ['overlap'], message: 'overlap must be less than chunk_size' });
    }
  })
  .meta({ id: 'ChunkingStrategyInput' });

export const chunkingStrategySchema = z
  .object({ type: z.enum(['fixed', 'semantic', 'paragraph']), chunk_size: z.number().int(), overlap: z.number().int() })
  .meta({ id: 'ChunkingStrategy' });

const name = label('name')
  .min(1, 'name must not be empty')
  .max(200, 'name must be at most 200 characters');
const description = z.string({ error: 'description must be a string' }).max(2000, 'description must be at most 2000 characters');

export const createKnowledgeBaseBody = z
  .object({
    name: name.meta({ example: 'Contracts' }),
    description: description.optional(),
    chunking_strategy: chunkingStrategyInput.optional(),
    metadata: metadataObject('metadata').optional(),
  })
  .meta({ id: 'CreateKnowledgeBase' });

export const updateKnowledgeBaseBody = z
  .object({
    name: name.optional(),
    description: description.optional(),
    chunking_strategy: chunkingStrategyInput.optional().meta({ description: 'A change re-indexes every document in the background; searches keep using the current chunks until the new ones replace them at once' }),
    metadata: metadataObject('metadata').optional().meta({ description: 'Replaces the metadata' }),
  })
  .meta({ id: 'UpdateKnowledgeBase' });

export const kbIdParams = idParam('kb_id', 'kb_01jd0000000000000000000000');
export const documentIdParams = kbIdParams.extend(idParam('document_id', 'doc_01jd0000000000000000000000').shape);

export const KB_SORT_FIELDS = ['created_at', 'name'] as const;
export const kbListQuery = paginationQuery.extend(sortQuery(KB_SORT_FIELDS, 'created_at', 'asc').shape);

export const DOCUMENT_SORT_FIELDS = ['created_at', 'title', 'status', 'chunk_count'] as const;
export const documentListQuery = paginationQuery.extend(sortQuery(DOCUMENT_SORT_FIELDS, 'created_at', 'asc').shape).extend({
  status: z
    .enum(DOCUMENT_STATUSES, { error: `status must be one of: ${DOCUMENT_STATUSES.join(', ')}` })
    .optional()
    .meta({ description: 'Only documents in this status' }),
  file_id: z.string().max(200).optional().meta({ description: 'Only the document of this file' }),
});

export const addDocumentBody = z
  .object({
    file_id: z.string({ error: 'file_id is required and must be a string' }).meta({ example: 'file_01jd0000000000000000000000' }),
    title: label('title')
      .max(500, 'title must be at most 500 characters')
      .optional()
      .meta({ description: "Default: the extraction's title, else the filename" }),
    metadata: metadataObject('metadata').optional().meta({ description: 'Copied into every chunk; search filters match it as metadata.<key>' }),
    extraction_id: z
      .string({ error: 'extraction_id must be a string' })
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A completed extraction of the file to index. Default: the file's latest completed extraction, else the one still running (the document waits for it)" }),
    extract: extractRequest
      .optional()
      .meta({ description: 'For a file never extracted: start an extraction now; the document waits for it and is indexed when it completes' }),
  })
  .meta({ id: 'AddDocument' });

const indexingProgress = z
  .object({ chunks_written: z.number().int(), chunk_total: z.number().int() })
  .optional()
  .meta({ description: 'While an indexing document\'s chunks are written (PostgreSQL): how many so far, of how many' });

const topK = z
  .number({ error: 'top_k must be an integer' })
  .int('top_k must be an integer')
  .min(1, 'top_k must be at least 1')
  .max(MAX_TOP_K, `top_k must be at most ${MAX_TOP_K}`)
  .default(DEFAULT_TOP_K)
  .meta({ description: `Number of chunks (1–${MAX_TOP_K}, default ${DEFAULT_TOP_K})` });
const threshold = z
  .number({ error: 'threshold must be a number' })
  .min(0, 'threshold must be between 0 and 1')
  .max(1, 'threshold must be between 0 and 1')
  .optional()
  .meta({ description: 'Minimum score (0–1)' });
const filter = z
  .record(z.string(), z.unknown(), { error: 'filter must be an object' })
  .optional()
  .meta({
    description:
      'metadata.<key>: a value (equal, or contained in an array value), an array (any of), or operators $eq $ne $in $nin $gt $gte $lt $lte $exists; document_id: an id or array of ids',
    example: { 'metadata.lang': 'en', 'metadata.page': { $lte: 10 } },
  });
const query = z
  .string({ error: 'query is required and must be a string' })
  .trim()
  .min(1, 'query must not be empty')
  .max(MAX_QUERY_LENGTH, `query must be at most ${MAX_QUERY_LENGTH} characters`);

const rerank = z
  .union(
    [
      z.boolean(),
      z
        .object({
          top_n: z
            .number({ error: 'rerank.top_n must be an integer' })
            .int('rerank.top_n must be an integer')
            .min(1, 'rerank.top_n must be at least 1')
            .max(MAX_TOP_K, `rerank.top_n must be at most ${MAX_TOP_K}`)
            .optional(),
        })
        .strict(),
    ],
    { error: 'rerank must be true, false or {"top_n": n}' },
  )
  .optional()
  .meta({
    description: `Reorder the best top_n first-stage results (default ${DEFAULT_RERANK_TOP_N}, at least top_k) with the configured reranker; adds rerank_score. 400 RERANK_NOT_CONFIGURED when the server has none`,
  });

export const searchBody = z.object({ query, top_k: topK, threshold, filter, rerank }).meta({ id: 'SearchRequest' });

const weight = (which: string) =>
  z
    .number({ error: `${which} must be a number` })
    .min(0, `${which} must be between 0 and 1`)
    .max(1, `${which} must be between 0 and 1`)
    .optional();

export const hybridSearchBody = z
  .object({
    query,
    vector_weight: weight('vector_weight').meta({
      description: `How much the semantic side counts. Default ${DEFAULT_VECTOR_WEIGHT} (0.15 for knowledge bases using the built-in embedder), or 1 − keyword_weight when only that is given`,
    }),
    keyword_weight: weight('keyword_weight').meta({
      description: `How much the keyword (BM25) side counts. Default ${DEFAULT_KEYWORD_WEIGHT} (0.85 with the built-in embedder), or 1 − vector_weight when only that is given`,
    }),
    fusion: z
      .enum(FUSION_METHODS, { error: `fusion must be one of: ${FUSION_METHODS.join(', ')}` })
      .optional()
      .meta({ description: `How the two sides' scores become one (default ${DEFAULT_FUSION}); see the README` }),
    rrf_k: z
      .number({ error: 'rrf_k must be an integer' })
      .int('rrf_k must be an integer')
      .min(1, 'rrf_k must be between 1 and 1000')
      .max(1000, 'rrf_k must be between 1 and 1000')
      .optional()
      .meta({ description: `With fusion "rrf": the rank constant k in weight / (k + rank); default ${DEFAULT_RRF_K}` }),
    top_k: topK,
    threshold,
    filter,
    rerank,
  })
  .transform((b, ctx) => {
    if (b.rrf_k !== undefined && b.fusion !== 'rrf') {
      ctx.addIssue({ code: 'custom', path: ['rrf_k'], message: 'rrf_k applies only with fusion "rrf"' });
      return z.NEVER;
    }
    if (b.vector_weight === undefined && b.keyword_weight === undefined) return { ...b, vector_weight: undefined, keyword_weight: undefined };
    const vector = b.vector_weight ?? Math.max(0, 1 - b.keyword_weight!);
    const keyword = b.keyword_weight ?? Math.max(0, 1 - b.vector_weight!);
    if (vector + keyword === 0) {
      ctx.addIssue({ code: 'custom', path: ['vector_weight'], message: 'vector_weight and keyword_weight cannot both be 0' });
      return z.NEVER;
    }
    if (vector + keyword > 1 + 1e-9) {
      ctx.addIssue({ code: 'custom', path: ['keyword_weight'], message: 'vector_weight + keyword_weight must not exceed 1' });
      return z.NEVER;
    }
    return { ...b, vector_weight: vector, keyword_weight: keyword };
  })
  .meta({ id: 'HybridSearchRequest' });

const embeddingSchema = z.object({
  provider: z.enum(EMBEDDING_PROVIDERS),
  model: z.string(),
  dimensions: z.number().int(),
});

export const knowledgeBaseSchema = z
  .object({
    id: z.string().meta({ example: 'kb_01jd0000000000000000000000' }),
    name: z.string(),
    description: z.string(),
    chunking_strategy: chunkingStrategySchema,
    metadata: z.record(z.string(), z.unknown()),
    embedding: embeddingSchema.meta({ description: 'The vector space, fixed at creation' }),
    index_status: z.enum(['ready', 'reindexing']),
    reindex: z
      .object({ serving_chunking_strategy: chunkingStrategySchema, documents_done: z.number().int() })
      .optional()
      .meta({ description: 'While re-indexing: the strategy of the chunks searches still read, and documents re-chunked so far' }),
    document_count: z.number().int(),
    chunk_count: z.number().int(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'KnowledgeBase' });

export const knowledgeBaseListSchema = listOf(
  z
    .object({
      id: z.string(),
      name: z.string(),
      description: z.string(),
      document_count: z.number().int(),
      chunk_count: z.number().int(),
      created_at: timestamp,
    })
    .meta({ id: 'KnowledgeBaseListItem' }),
  'KnowledgeBaseList',
);

const documentStatus = z.enum(DOCUMENT_STATUSES);

const documentOrigin = {
  file_version: z.number().int().nullable().meta({ description: 'The version of the file its chunks were made from (null until first indexed)' }),
  latest_file_version: z
    .number()
    .int()
    .meta({ description: "The file's version now: ahead of file_version while a newer version (synced from its source) is extracted and indexed" }),
  source_item: z
    .object({ id: z.string(), source_id: z.string(), key: z.string(), url: z.string() })
    .nullable()
    .meta({ description: 'The source item it is kept in step with (key, and a URL to open it); null for uploads' }),
};

export const documentSchema = z
  .object({
    id: z.string().meta({ example: 'doc_01jd0000000000000000000000' }),
    kb_id: z.string(),
    file_id: z.string(),
    extraction_id: z.string().meta({ description: 'The extraction whose Markdown was indexed' }),
    title: z.string(),
    status: documentStatus,
    waiting_for: z
      .literal('extraction')
      .optional()
      .meta({ description: 'A pending document whose extraction is still running: it is indexed when that completes' }),
    extraction_progress: z.number().int().min(0).max(100).optional().meta({ description: 'With waiting_for: the extraction\'s progress in percent' }),
    indexing_progress: indexingProgress,
    chunk_count: z.number().int(),
    metadata: z.record(z.string(), z.unknown()),
    ...documentOrigin,
    error: z
      .object({ code: z.string(), message: z.string() })
      .optional()
      .meta({ description: 'When failed: INDEXING_FAILED, EMBEDDING_FAILED…, or EXTRACTION_FAILED with the extraction\'s error' }),
    created_at: timestamp,
    updated_at: timestamp,
    indexed_at: timestamp.nullable(),
  })
  .meta({ id: 'Document' });

export const createdDocumentSchema = z
  .object({
    id: z.string(),
    kb_id: z.string(),
    file_id: z.string(),
    extraction_id: z.string().meta({ description: 'The extraction it is indexed from (or waits for)' }),
    title: z.string(),
    status: z.literal('pending'),
    metadata: z.record(z.string(), z.unknown()),
    created_at: timestamp,
  })
  .meta({ id: 'CreatedDocument' });

export const documentListSchema = listOf(
  z
    .object({
      id: z.string(),
      file_id: z.string(),
      title: z.string(),
      status: documentStatus,
      waiting_for: z.literal('extraction').optional(),
      extraction_progress: z.number().int().min(0).max(100).optional(),
      indexing_progress: indexingProgress,
      chunk_count: z.number().int(),
      ...documentOrigin,
      error: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: 'When failed: why, as in the document detail' }),
      created_at: timestamp,
    })
    .meta({ id: 'DocumentListItem' }),
  'DocumentList',
);

const chunkBase = {
  id: z.string().meta({ example: 'chunk_01jd0000000000000000000000' }),
  document_id: z.string(),
  document_title: z.string(),
  file_id: z.string().meta({ description: "The document's file" }),
  extraction_id: z.string().meta({ description: 'The extraction the chunk was indexed from (open it at metadata.page)' }),
  file_version: z
    .number()
    .int()
    .nullable()
    .meta({ description: 'The version of the file the chunk was made from (a source stores each change as the next version); POST /v1/citations/verify tells whether it is still current' }),
  source_item: z
    .object({ id: z.string(), source_id: z.string(), key: z.string(), url: z.string() })
    .nullable()
    .meta({ description: 'For a document kept in step with a source: the item it came from (its key, and a URL to open it); null for uploads' }),
  content: z.string(),
  score: z.number().min(0).max(1),
  metadata: z.record(z.string(), z.unknown()).meta({ description: "The document's metadata plus chunk_index, page, page_end, section, char_start, char_end and (PDFs, images) boxes" }),
  rerank_score: z.number().optional().meta({ description: "With rerank: the reranker's relevance score (0–1 for Cohere, Jina, TEI and local cross-encoders); results are ordered by it" }),
};

export const searchResultSchema = z
  .object({
    query: z.string(),
    chunks: z.array(z.object(chunkBase).meta({ id: 'Chunk' })),
    total: z.number().int(),
  })
  .meta({ id: 'SearchResult' });

export const hybridSearchResultSchema = z
  .object({
    query: z.string(),
    chunks: z.array(
      z
        .object({
          ...chunkBase,
          vector_score: z.number().min(0).max(1).meta({ description: 'Cosine similarity, clamped to 0–1' }),
          keyword_score: z.number().min(0).max(1).meta({ description: "BM25 relative to the query's best BM25 score" }),
        })
        .meta({ id: 'HybridChunk' }),
    ),
    total: z.number().int(),
  })
  .meta({ id: 'HybridSearchResult' });

export const reindexDocumentBody = z
  .object({
    extraction_id: z
      .string({ error: 'extraction_id must be a string' })
      .min(1)
      .max(200)
      .optional()
      .meta({ description: "A completed extraction of the document's file. Default: its latest completed extraction" }),
  })
  .meta({ id: 'ReindexDocument' });

export const retryFailedSchema = z
  .object({
    retried: z.number().int().meta({ description: 'Documents sent through their pipeline again' }),
    results: z.array(
      z.object({
        document_id: z.string(),
        status: documentStatus,
        error: z.object({ code: z.string(), message: z.string() }).optional().meta({ description: 'Why this one could not be retried' }),
      }),
    ),
  })
  .meta({ id: 'RetryFailedResult' });

export const MAX_BATCH_ITEMS = 100;

export const addDocumentsBatchBody = z
  .object({
    items: z
      .array(addDocumentBody.omit({ extract: true }), { error: 'items must be a list of {file_id, title?, metadata?, extraction_id?}' })
      .min(1, 'items must not be empty')
      .max(MAX_BATCH_ITEMS, `items may hold at most ${MAX_BATCH_ITEMS} files`),
    extract: extractRequest.optional().meta({ description: 'For files never extracted: start an extraction with this mode and options' }),
  })
  .meta({ id: 'AddDocumentsBatch' });

export const addDocumentsBatchResultSchema = batchResultOf('document', createdDocumentSchema, 'AddDocumentsBatchResult');
