import createClient, { type Client } from 'openapi-fetch';
import { QuarryError } from './errors.js';
import { itemsOf, pagesOf, type Page, type PageReader, type PaginateOptions } from './paginate.js';
import { multipartUpload, type UploadOptions, type UploadSource } from './upload.js';
import { documentProgress, extractionProgress, pollUntilDone, sourceRunProgress, type WaitOptions } from './wait.js';
import type {
  CitationInput,
  CitationVerdicts,
  CreatedDocument,
  CreateSourceRequest,
  CreatedExtraction,
  Extraction,
  ExtractionDocument,
  ExtractionMode,
  ExtractionOptions,
  HybridSearchRequest,
  HybridSearchResult,
  KbDocument,
  ListItem,
  ListPath,
  paths,
  QuarryFile,
  Schemas,
  SearchRequest,
  SearchResult,
  Source,
  SourceList,
  SourceRun,
  SourceRunDetail,
  SourceRunList,
  SourceTest,
  TestSourceRequest,
  UpdateSourceRequest,
  UploadedFile,
} from './types.js';

export const CLIENT_VERSION = '0.1.0';

export interface QuarryClientOptions {
  /** The server's address (default: $QUARRY_URL, else http://localhost:3000). */
  baseUrl?: string;
  /** An API key, sk_live_… or sk_test_… (default: $QUARRY_API_KEY). */
  apiKey?: string;
  /** Extra headers sent with every request. */
  headers?: Record<string, string>;
  /** A fetch implementation (default: the global one). */
  fetch?: typeof globalThis.fetch;
}

type Outcome<D> = { data?: D; error?: unknown; response: Response };

const env = (name: string) => (typeof process === 'undefined' ? undefined : process.env[name]) || undefined;

/**
 * The Quarry API client. `api` is the generated, fully typed client (openapi-fetch: it answers
 * `{data, error, response}`); the helpers on this class throw QuarryError for an error answer.
 */
export class QuarryClient {
  readonly api: Client<paths>;
  readonly baseUrl: string;
  private readonly fetchImpl: typeof globalThis.fetch;

  constructor(options: QuarryClientOptions = {}) {
    this.baseUrl = (options.baseUrl ?? env('QUARRY_URL') ?? 'http://localhost:3000').replace(/\/+$/, '');
    const apiKey = options.apiKey ?? env('QUARRY_API_KEY');
    this.fetchImpl = options.fetch ?? globalThis.fetch;
    this.api = createClient<paths>({
      baseUrl: this.baseUrl,
      fetch: (request: Request) => this.fetchImpl(request),
      headers: {
        'user-agent': `quarry-client/${CLIENT_VERSION}`,
        ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}),
        ...options.headers,
      },
    });
  }

  /** The data of a successful answer of `api`; an error answer throws QuarryError. */
  async unwrap<D>(call: Promise<Outcome<D>>): Promise<Exclude<D, undefined>> {
    const { data, error, response } = await call;
    if (!response.ok) throw QuarryError.fromResponse(response, error);
    return data as Exclude<D, undefined>;
  }

  /**
   * Uploads a file from a path, a stream, a Blob or bytes, streaming it (multipart/form-data with
   * tags, metadata and the one-step `extract` / `knowledge_base_id` parts).
   */
  async uploadFile(source: UploadSource, options: UploadOptions = {}): Promise<UploadedFile> {
    const upload = await multipartUpload(source, options);
    return this.unwrap(
      this.api.POST('/v1/files', {
        // The body is the streamed multipart form built above, not the typed form object.
        body: {} as Schemas['FileUpload'],
        bodySerializer: () => upload.body,
        headers: {
          'content-type': upload.contentType,
          ...(upload.length === undefined ? {} : { 'content-length': String(upload.length) }),
          ...(options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : {}),
        },
        duplex: 'half',
        signal: options.signal,
      } as never),
    );
  }

  getFile(fileId: string): Promise<QuarryFile> {
    return this.unwrap(this.api.GET('/v1/files/{file_id}', { params: { path: { file_id: fileId } } }));
  }

  createExtraction(
    fileId: string,
    options: { mode?: ExtractionMode; options?: ExtractionOptions; idempotencyKey?: string } = {},
  ): Promise<CreatedExtraction> {
    const { idempotencyKey, ...rest } = options;
    return this.unwrap(
      this.api.POST('/v1/extractions', {
        body: { file_id: fileId, ...rest },
        headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : undefined,
      }),
    );
  }

  getExtraction(extractionId: string): Promise<Extraction> {
    return this.unwrap(this.api.GET('/v1/extractions/{extraction_id}', { params: { path: { extraction_id: extractionId } } }));
  }

  /**
   * The document model of a completed extraction: blocks by page (headings, paragraphs, lists,
   * tables with row_span/col_span, …) with where each sits. 409 EXTRACTION_NOT_COMPLETED before it
   * completes; 404 DOCUMENT_NOT_AVAILABLE for extractions made before models were kept.
   */
  getExtractionDocument(extractionId: string): Promise<ExtractionDocument> {
    // openapi-fetch reads tuples as arrays (a bbox as number[]): the document's type keeps the 4-tuple it is.
    return this.unwrap(this.api.GET('/v1/extractions/{extraction_id}/document', { params: { path: { extraction_id: extractionId } } })) as Promise<ExtractionDocument>;
  }

  /** Polls until the extraction completes (resolves with it, Markdown included) or fails (QuarryJobFailedError). */
  waitForExtraction(extractionId: string, options?: WaitOptions<Extraction>): Promise<Extraction> {
    return pollUntilDone('extraction', () => this.getExtraction(extractionId), extractionProgress, options);
  }

  addDocument(kbId: string, body: Schemas['AddDocument']): Promise<CreatedDocument> {
    return this.unwrap(this.api.POST('/v1/knowledge-bases/{kb_id}/documents', { params: { path: { kb_id: kbId } }, body }));
  }

  getDocument(kbId: string, documentId: string): Promise<KbDocument> {
    return this.unwrap(
      this.api.GET('/v1/knowledge-bases/{kb_id}/documents/{document_id}', { params: { path: { kb_id: kbId, document_id: documentId } } }),
    );
  }

  /**
   * Polls until the document is indexed (resolves with it) or failed (QuarryJobFailedError),
   * reporting its extraction's progress while it waits for one, then the chunks written.
   */
  waitForDocument(kbId: string, documentId: string, options?: WaitOptions<KbDocument>): Promise<KbDocument> {
    return pollUntilDone('document', () => this.getDocument(kbId, documentId), documentProgress, options);
  }

  search(kbId: string, body: SearchRequest): Promise<SearchResult> {
    return this.unwrap(this.api.POST('/v1/knowledge-bases/{kb_id}/search', { params: { path: { kb_id: kbId } }, body }));
  }

  hybridSearch(kbId: string, body: HybridSearchRequest): Promise<HybridSearchResult> {
    return this.unwrap(this.api.POST('/v1/knowledge-bases/{kb_id}/hybrid-search', { params: { path: { kb_id: kbId } }, body }));
  }

  /** Creates a source (s3, web or url) for a knowledge base; its first sync starts now unless `sync: false`. */
  createSource(body: CreateSourceRequest, options: { idempotencyKey?: string } = {}): Promise<Source> {
    const headers = options.idempotencyKey ? { 'idempotency-key': options.idempotencyKey } : undefined;
    return this.unwrap(this.api.POST('/v1/sources', { body, headers }));
  }

  /** One page of sources, newest first (`paginate('/v1/sources')` walks them all). */
  listSources(query: { knowledge_base_id?: string; limit?: number; offset?: number } = {}): Promise<SourceList> {
    return this.unwrap(this.api.GET('/v1/sources', { params: { query } }));
  }

  /** A source with its newest sync (`last_run`). */
  getSource(sourceId: string): Promise<Source> {
    return this.unwrap(this.api.GET('/v1/sources/{source_id}', { params: { path: { source_id: sourceId } } }));
  }

  updateSource(sourceId: string, body: UpdateSourceRequest): Promise<Source> {
    return this.unwrap(this.api.PATCH('/v1/sources/{source_id}', { params: { path: { source_id: sourceId } }, body }));
  }

  /** Deletes a source and its sync history, with its documents unless `keepDocuments`. */
  async deleteSource(sourceId: string, options: { keepDocuments?: boolean } = {}): Promise<void> {
    const query = options.keepDocuments === undefined ? undefined : { keep_documents: options.keepDocuments ? ('true' as const) : ('false' as const) };
    await this.unwrap(this.api.DELETE('/v1/sources/{source_id}', { params: { path: { source_id: sourceId }, query } }));
  }

  /** Starts a sync now and answers the queued run; 409 SOURCE_BUSY (details.run_id) while one has not ended. */
  syncSource(sourceId: string): Promise<SourceRun> {
    return this.unwrap(this.api.POST('/v1/sources/{source_id}/sync', { params: { path: { source_id: sourceId } } }));
  }

  /** One page of a source's syncs, newest first, with their counts. */
  listSourceRuns(sourceId: string, query: { limit?: number; offset?: number } = {}): Promise<SourceRunList> {
    return this.unwrap(this.api.GET('/v1/sources/{source_id}/runs', { params: { path: { source_id: sourceId }, query } }));
  }

  /** One sync with each failed item and why. */
  getSourceRun(sourceId: string, runId: string): Promise<SourceRunDetail> {
    return this.unwrap(this.api.GET('/v1/sources/{source_id}/runs/{run_id}', { params: { path: { source_id: sourceId, run_id: runId } } }));
  }

  /** Tries a source's settings: the first items it would sync, or why it cannot be read (nothing stored). */
  testSource(body: TestSourceRequest): Promise<SourceTest> {
    return this.unwrap(this.api.POST('/v1/sources/test', { body }));
  }

  /**
   * Polls a sync until it completes (resolves with the run and its failures: a completed sync may
   * still have `counts.failed` items) or fails (QuarryJobFailedError with the run's error code).
   */
  waitForSourceRun(sourceId: string, runId: string, options?: WaitOptions<SourceRunDetail>): Promise<SourceRunDetail> {
    return pollUntilDone('sync', () => this.getSourceRun(sourceId, runId), sourceRunProgress, options);
  }

  /**
   * Whether cited passages (a search result's chunk_id, document_id and file_version) are still
   * current, stale or gone, in order. `checkSource: false` skips asking each source (HEAD, HeadObject).
   */
  verifyCitations(citations: CitationInput[], options: { checkSource?: boolean } = {}): Promise<CitationVerdicts> {
    const body = options.checkSource === undefined ? { citations } : { citations, check_source: options.checkSource };
    return this.unwrap(this.api.POST('/v1/citations/verify', { body }));
  }

  /** Every item of a list, page after page: `for await (const f of quarry.paginate('/v1/files')) …`. */
  paginate<P extends ListPath>(path: P, ...[options]: OptionalIfNoPath<P>): AsyncGenerator<ListItem<P>> {
    return itemsOf(this.readPage, path, (options ?? {}) as PaginateOptions<P>);
  }

  /** Every page of a list (with `total`, for progress). */
  pages<P extends ListPath>(path: P, ...[options]: OptionalIfNoPath<P>): AsyncGenerator<Page<ListItem<P>>> {
    return pagesOf(this.readPage, path, (options ?? {}) as PaginateOptions<P>);
  }

  /** All items of a list in one array. */
  async listAll<P extends ListPath>(path: P, ...rest: OptionalIfNoPath<P>): Promise<ListItem<P>[]> {
    const all: ListItem<P>[] = [];
    for await (const item of this.paginate(path, ...rest)) all.push(item);
    return all;
  }

  private readonly readPage: PageReader = (path, params, signal) =>
    // The list's path is generic here; its types are checked at paginate()'s signature.
    this.unwrap((this.api.GET as (path: string, init: unknown) => Promise<Outcome<Page<unknown>>>)(path, { params, signal }));
}

/** `options` may be left out for lists without path parameters. */
type OptionalIfNoPath<P extends ListPath> = PaginateOptions<P> extends { path: object } ? [options: PaginateOptions<P>] : [options?: PaginateOptions<P>];

export function createQuarryClient(options?: QuarryClientOptions): QuarryClient {
  return new QuarryClient(options);
}
