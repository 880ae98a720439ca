import type { ResponseOf } from '@/lib/api/endpoint';
import type { endpoints } from '@/lib/api/endpoints';

/*
 * The shapes of the /v1 (and /health, /admin) responses the console reads, derived from the
 * response schemas the routes answer with (lib/api/endpoints). Type imports only: they are erased,
 * so nothing of lib/ reaches the browser bundle.
 */

type Endpoints = typeof endpoints;
/** The body of an operation's success response. */
type Body<K extends keyof Endpoints> = ResponseOf<Endpoints[K]>;
/** One item of a paginated list operation. */
type ItemOf<K extends keyof Endpoints> = Body<K> extends { items: (infer T)[] } ? T : never;

/* Files and extractions */

/** An item of GET /v1/files. */
export type FileListItem = ItemOf<'listFiles'>;
/** GET /v1/files/{id}, and the answer of an upload. */
export type FileRecord = Body<'getFile'>;
/** The answer of POST /v1/files: the file, and the extraction and document it started. */
export type UploadedFile = Body<'uploadFile'>;
/** GET /v1/files/types. */
export type FileTypes = Body<'listFileTypes'>;
/** An entry of GET /v1/files/types. */
export type FileType = FileTypes['types'][number];

/** GET /v1/extractions/{id} (and the answer of a cancel). */
export type Extraction = Body<'getExtraction'>;
/** The answer of POST /v1/extractions. */
export type CreatedExtraction = Body<'createExtraction'>;
/** An item of GET /v1/files/{id}/extractions. */
export type ExtractionListItem = ItemOf<'listFileExtractions'>;
/** GET /v1/extractions/{id}/document: the document model of a completed extraction. */
export type ExtractionDocumentModel = Body<'getExtractionDocument'>;
/** A block of the document model (sections hold blocks of their own). */
export type DocumentBlock = ExtractionDocumentModel['blocks'][number];
export type ExtractionStatus = Extraction['status'];
export type ExtractionMode = Extraction['mode'];

/* Knowledge bases */

/** GET /v1/knowledge-bases/{id} (and the answer of a create or an update). */
export type KnowledgeBase = Body<'getKnowledgeBase'>;
/** An item of GET /v1/knowledge-bases. */
export type KnowledgeBaseListItem = ItemOf<'listKnowledgeBases'>;
export type ChunkingStrategy = KnowledgeBase['chunking_strategy'];
export type ChunkingType = ChunkingStrategy['type'];

/** An item of GET /v1/knowledge-bases/{id}/documents. */
export type DocumentItem = ItemOf<'listDocuments'>;
/** GET /v1/knowledge-bases/{id}/documents/{document_id}. */
export type DocumentDetail = Body<'getDocument'>;
/** The answer of POST /v1/knowledge-bases/{id}/documents/{document_id}/retry. */
export type RetriedDocument = Body<'retryDocument'>;
/** The answer of POST /v1/knowledge-bases/{id}/retry-failed. */
export type RetryFailedResult = Body<'retryFailedDocuments'>;

type SemanticSearchResult = Body<'searchKnowledgeBase'>;
type HybridSearchResult = Body<'hybridSearchKnowledgeBase'>;
type HybridChunk = HybridSearchResult['chunks'][number];
/** A passage found by either search; a hybrid search also gives its two part scores. */
export type SearchChunk = SemanticSearchResult['chunks'][number] & Partial<Pick<HybridChunk, 'vector_score' | 'keyword_score'>>;
/** The answer of POST /v1/knowledge-bases/{id}/search or …/hybrid-search. */
export type SearchResponse = SemanticSearchResult | HybridSearchResult;

/* Sources */

/** GET /v1/sources/{id} (and the answer of a create or an update). */
export type Source = Body<'getSource'>;
export type SourceType = Source['type'];
export type SourceSchedule = Source['schedule'];
/** A sync of a source: an item of GET /v1/sources/{id}/runs, and the answer of POST …/sync. */
export type SourceRun = ItemOf<'listSourceRuns'>;
export type SourceRunStatus = SourceRun['status'];
/** GET /v1/sources/{id}/runs/{run_id}: the sync with its failures. */
export type SourceRunDetail = Body<'getSourceRun'>;
/** One answer of POST /v1/citations/verify. */
export type CitationVerdict = Body<'verifyCitations'>['results'][number];
/** The answer of POST /v1/sources/test. */
export type SourceTest = Body<'testSource'>;
/** Where a document or a passage came from, when a source keeps it in step. */
export type SourceItemRef = NonNullable<DocumentItem['source_item']>;

/* Webhooks and events */

/** An item of GET /v1/webhooks. */
export type WebhookListItem = ItemOf<'listWebhooks'>;
/** The answer of POST /v1/webhooks. */
export type CreatedWebhook = Body<'createWebhook'>;
/** GET /v1/webhooks/{id} (and the answer of an update). */
export type Webhook = Body<'getWebhook'>;

/** An item of GET /v1/webhooks/{id}/deliveries. */
export type DeliveryItem = ItemOf<'listDeliveries'>;
/** GET /v1/webhooks/{id}/deliveries/{delivery_id}, and the answer of POST /v1/webhooks/{id}/test and of a redelivery. */
export type Delivery = Body<'getDelivery'>;
export type Attempt = Delivery['attempts'][number];

/** An item of GET /v1/events. */
export type EventItem = ItemOf<'listEvents'>;

/* Users, keys and the service */

/** GET /v1/me. */
export type Me = Body<'getMe'>;
/** An item of GET /v1/users (and the answer of a create or an update). */
export type User = ItemOf<'listUsers'>;
/** An item of GET /v1/api-keys. */
export type ApiKey = ItemOf<'listApiKeys'>;
/** The answer of POST /v1/api-keys: the only time the full key is shown. */
export type CreatedApiKey = Body<'createApiKey'>;

/** GET /health/detailed (the same shape with a 503 when a component is unhealthy). */
export type HealthDetail = Body<'getDetailedHealth'>;
/** GET and POST /admin/maintenance. */
export type Maintenance = Body<'getMaintenance'>;
