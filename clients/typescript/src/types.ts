// Names for the document's schemas that the helpers and their callers use most.
import type { components, paths } from './generated/openapi.js';

export type { components, operations, paths } from './generated/openapi.js';

export type Schemas = components['schemas'];
export type ApiErrorBody = Schemas['Error'];
export type UploadedFile = Schemas['UploadedFile'];
export type QuarryFile = Schemas['File'];
export type Extraction = Schemas['Extraction'];
export type CreatedExtraction = Schemas['CreatedExtraction'];
/** A completed extraction's document model (GET /v1/extractions/{id}/document). */
export type ExtractionDocument = Schemas['ExtractionDocument'];
export type DocumentBlock = Schemas['Block'];
export type ExtractionMode = Schemas['CreateExtraction']['mode'] & string;
export type ExtractionOptions = Schemas['ExtractionOptions'];
export type KnowledgeBase = Schemas['KnowledgeBase'];
export type KnowledgeBaseListItem = Schemas['KnowledgeBaseListItem'];
export type KbDocument = Schemas['Document'];
export type CreatedDocument = Schemas['CreatedDocument'];
export type SearchRequest = Schemas['SearchRequest'];
export type SearchResult = Schemas['SearchResult'];
export type HybridSearchRequest = Schemas['HybridSearchRequest'];
export type HybridSearchResult = Schemas['HybridSearchResult'];
/** A source: a bucket, a site or a URL kept in step with a knowledge base. */
export type Source = Schemas['Source'];
export type SourceList = Schemas['SourceList'];
export type CreateSourceRequest = Schemas['CreateSource'];
export type UpdateSourceRequest = Schemas['UpdateSource'];
export type TestSourceRequest = Schemas['TestSource'];
export type SourceTest = Schemas['SourceTest'];
/** One sync of a source, with its counts. */
export type SourceRun = Schemas['SourceRun'];
export type SourceRunList = Schemas['SourceRunList'];
/** One sync with each failed item and why. */
export type SourceRunDetail = Schemas['SourceRunDetail'];
export type SourceSyncCounts = Schemas['SourceSyncCounts'];
/** A passage to check: a search result's chunk_id, document_id and file_version. */
export type CitationInput = Schemas['VerifyCitations']['citations'][number];
/** current, stale or gone, with why. */
export type CitationVerdict = Schemas['CitationVerdict'];
export type CitationVerdicts = Schemas['CitationVerdicts'];

/** The paths whose GET answers a page (`items`, `total`, `limit`, `offset`). */
export type ListPath = {
  [P in keyof paths]: paths[P] extends { get: { responses: { 200: { content: { 'application/json': { items: unknown[]; total: number } } } } } }
    ? P
    : never;
}[keyof paths];

type ListOperation<P extends ListPath> = paths[P]['get'];
/** One item of the list at `P`. */
export type ListItem<P extends ListPath> = ListOperation<P>['responses'][200]['content']['application/json']['items'][number];
/** The list's query parameters (filters and sorting) without `limit`/`offset`, which paging sets. */
export type ListQuery<P extends ListPath> = Omit<NonNullable<ListOperation<P>['parameters']['query']>, 'limit' | 'offset'>;
/** The list's path parameters (`{kb_id}`, …), or never for top-level lists. */
export type ListPathParams<P extends ListPath> = ListOperation<P>['parameters']['path'];
