/**
 * The fixed value lists of text columns, each written once here: the tables below use them as the
 * columns' enums, and the API's zod schemas import them. This file imports nothing, so code that
 * must stay light (the extraction worker) can use the lists without loading the database schema.
 */

/** extractions.status: pending, then processing, then completed or failed. */
export const EXTRACTION_STATUSES = ['pending', 'processing', 'completed', 'failed'] as const;
export type ExtractionStatus = (typeof EXTRACTION_STATUSES)[number];

/** extractions.mode. simple: text layer only; normal: OCR for pages without text; advanced: OCR on every page. */
export const EXTRACTION_MODES = ['simple', 'normal', 'advanced'] as const;
export type ExtractionMode = (typeof EXTRACTION_MODES)[number];

/** kb_documents.status: a knowledge base document's indexing state. */
export const DOCUMENT_STATUSES = ['pending', 'indexing', 'indexed', 'failed'] as const;
export type DocumentStatus = (typeof DOCUMENT_STATUSES)[number];

/** webhook_deliveries.status: pending (retries left), then succeeded, failed or cancelled. */
export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** knowledge_bases.embedding_provider: where a knowledge base's vectors come from. */
export const EMBEDDING_PROVIDERS = ['builtin', 'openai', 'transformers'] as const;
export type EmbeddingProviderName = (typeof EMBEDDING_PROVIDERS)[number];

/** source_runs.status: queued, running (listing and fetching), indexing (waiting for its documents), then completed or failed. */
export const SOURCE_RUN_STATUSES = ['queued', 'running', 'indexing', 'completed', 'failed'] as const;
export type SourceRunStatus = (typeof SOURCE_RUN_STATUSES)[number];

/** source_runs.trigger: what started a sync. */
export const SOURCE_RUN_TRIGGERS = ['created', 'manual', 'schedule', 'retry'] as const;
export type SourceRunTrigger = (typeof SOURCE_RUN_TRIGGERS)[number];

/** source_run_items.outcome: what a sync did with one item (null while it is still to do). */
export const SOURCE_ITEM_OUTCOMES = ['added', 'updated', 'unchanged', 'deleted', 'failed', 'skipped'] as const;
export type SourceItemOutcome = (typeof SOURCE_ITEM_OUTCOMES)[number];
