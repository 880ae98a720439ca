import type { FileSourceValue, KbDocumentRow, KnowledgeBaseRow } from '@/lib/db/schema';

export interface KnowledgeBaseCounts {
  document_count: number;
  chunk_count: number;
}

export function toKnowledgeBaseView(row: KnowledgeBaseRow, counts: KnowledgeBaseCounts, reindexDone?: number) {
  const reindexing = row.pendingGeneration !== null && row.pendingChunkingStrategy !== null;
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    // The strategy asked for; while a re-index runs, searches still read chunks of the previous one.
    chunking_strategy: reindexing ? row.pendingChunkingStrategy! : row.chunkingStrategy,
    metadata: row.metadata,
    embedding: { provider: row.embeddingProvider, model: row.embeddingModel, dimensions: row.embeddingDimensions },
    index_status: reindexing ? ('reindexing' as const) : ('ready' as const),
    ...(reindexing
      ? {
          reindex: {
            serving_chunking_strategy: row.chunkingStrategy,
            documents_done: reindexDone ?? 0,
          },
        }
      : {}),
    document_count: counts.document_count,
    chunk_count: counts.chunk_count,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export function toKnowledgeBaseListItem(row: KnowledgeBaseRow, counts: KnowledgeBaseCounts) {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    document_count: counts.document_count,
    chunk_count: counts.chunk_count,
    created_at: row.createdAt.toISOString(),
  };
}

/** What a pending document waits for: its extraction, at `progress` percent (none: it waits for indexing). */
function waitingFields(waitingProgress: number | undefined) {
  return waitingProgress === undefined ? {} : { waiting_for: 'extraction' as const, extraction_progress: waitingProgress };
}

export interface IndexingProgress {
  chunks_written: number;
  chunk_total: number;
}

/** While the chunks of an indexing document are being written: how many so far, of how many. */
function indexingFields(progress: IndexingProgress | undefined) {
  return progress ? { indexing_progress: progress } : {};
}

/** Why a failed document failed; nothing for any other status. */
function failureFields(row: KbDocumentRow) {
  return row.status === 'failed' ? { error: { code: row.errorCode ?? 'INDEXING_FAILED', message: row.errorMessage ?? '' } } : {};
}

/** A document's file as the document views show it. */
export interface FileOrigin {
  version: number;
  source: FileSourceValue | null;
}

/**
 * Where a document came from: the file version its chunks were made from, the file's version now
 * (ahead while a new version is extracted and indexed), and the source item it is kept in step with.
 */
function originFields(row: KbDocumentRow, origin: FileOrigin | undefined) {
  const source = origin?.source ?? null;
  return {
    file_version: row.indexedFileVersion,
    latest_file_version: origin?.version ?? row.indexedFileVersion ?? 1,
    source_item: source ? { id: source.item_id, source_id: source.source_id, key: source.key, url: source.url } : null,
  };
}

export function toDocumentView(row: KbDocumentRow, waitingProgress?: number, indexing?: IndexingProgress, origin?: FileOrigin) {
  return {
    id: row.id,
    kb_id: row.kbId,
    file_id: row.fileId,
    extraction_id: row.extractionId,
    title: row.title,
    status: row.status,
    ...waitingFields(waitingProgress),
    ...indexingFields(indexing),
    chunk_count: row.chunkCount,
    metadata: row.metadata,
    ...originFields(row, origin),
    ...failureFields(row),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
    indexed_at: row.indexedAt ? row.indexedAt.toISOString() : null,
  };
}

export function toDocumentListItem(row: KbDocumentRow, waitingProgress?: number, indexing?: IndexingProgress, origin?: FileOrigin) {
  return {
    id: row.id,
    file_id: row.fileId,
    title: row.title,
    status: row.status,
    ...waitingFields(waitingProgress),
    ...indexingFields(indexing),
    chunk_count: row.chunkCount,
    ...originFields(row, origin),
    ...failureFields(row),
    created_at: row.createdAt.toISOString(),
  };
}
