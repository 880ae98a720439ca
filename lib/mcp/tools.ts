import { z } from 'zod';
import { addDocumentBody, kbIdParams, searchBody } from '@/lib/api/schemas/knowledge-bases';
import { createExtractionBody, extractionOptionsSchema } from '@/lib/api/schemas/extractions';
import { uploadOptions } from '@/lib/api/schemas/files';
import { ApiError } from '@/lib/errors';
import { createExtraction, getExtraction, getExtractionDocument } from '@/lib/extraction/service';
import { EXTRACTION_MODES } from '@/lib/db/schema';
import { receiveUpload } from '@/lib/files/upload';
import { addDocumentToKnowledgeBase } from '@/lib/ingestion/add-document';
import { ingestUpload } from '@/lib/ingestion/upload';
import { getDocument } from '@/lib/knowledge-bases/documents';
import { getPassage, MAX_PASSAGE_NEIGHBOURS } from '@/lib/knowledge-bases/passages';
import { hybridSearchKnowledgeBase, searchKnowledgeBase } from '@/lib/knowledge-bases/search';
import { listKnowledgeBases } from '@/lib/knowledge-bases/service';
import { blocksOnPages, windowOf } from './pages';
import { SOURCE_TOOLS } from './source-tools';
import { id, nextOffset, pageInput, tool, type Tool } from './tool';

export type { Tool } from './tool';

/** Files an agent may upload through MCP (base64 in the request); larger ones go through POST /v1/files. */
export const MCP_MAX_UPLOAD_BYTES = 20 * 1024 * 1024;

const kbId = kbIdParams.shape.kb_id;

/** Where a passage comes from, in words a model can put in a citation. */
function citation(hit: { document_title: string; metadata: Record<string, unknown> }): string {
  const page = typeof hit.metadata.page === 'number' ? hit.metadata.page : null;
  const pageEnd = typeof hit.metadata.page_end === 'number' ? hit.metadata.page_end : null;
  const section = typeof hit.metadata.section === 'string' && hit.metadata.section ? hit.metadata.section : null;
  const pages = page === null ? '' : pageEnd !== null && pageEnd !== page ? `, pp. ${page}–${pageEnd}` : `, p. ${page}`;
  return `${hit.document_title}${pages}${section ? ` (${section})` : ''}`;
}

const searchInput = z.object({
  kb_id: kbId,
  query: searchBody.shape.query,
  top_k: searchBody.shape.top_k,
  mode: z
    .enum(['hybrid', 'semantic'], { error: 'mode must be hybrid or semantic' })
    .default('hybrid')
    .meta({ description: 'hybrid (default): meaning and exact words together; semantic: meaning only' }),
  filter: searchBody.shape.filter,
  threshold: searchBody.shape.threshold,
});

export const TOOLS: Tool<any>[] = [
  tool({
    name: 'list_knowledge_bases',
    title: 'List knowledge bases',
    description:
      'Lists the knowledge bases this key can reach, with their ids, names, descriptions and how many documents and chunks each holds. Call it first to find the kb_id to search.',
    scopes: ['kb:read', 'kb:search'],
    readOnly: true,
    input: z.object(pageInput),
    async run(ctx, { limit, offset }) {
      const page = await listKnowledgeBases(ctx, { limit, offset, sort_by: 'name', order: 'asc' });
      return {
        knowledge_bases: page.items,
        total: page.total,
        next_offset: nextOffset(offset, page.items.length, page.total),
      };
    },
  }),
  tool({
    name: 'search_knowledge_base',
    title: 'Search a knowledge base',
    description:
      'Finds the passages of a knowledge base that best answer a question or match some words. Each result has the passage text, a relevance score (0–1), and where it comes from: document title and id, page, section, a ready-made citation, the file_version it was made from and, for a document synced from a source, source_item (its url at the source). Use get_passage with a chunk_id to read the text around a result; before acting on a result later, pass its chunk_id, document_id and file_version to verify_citations.',
    scopes: ['kb:search', 'kb:read'],
    readOnly: true,
    input: searchInput,
    async run(ctx, args) {
      const found =
        args.mode === 'semantic'
          ? await searchKnowledgeBase(ctx, args.kb_id, { query: args.query, top_k: args.top_k, filter: args.filter, threshold: args.threshold })
          : await hybridSearchKnowledgeBase(ctx, args.kb_id, { query: args.query, top_k: args.top_k, filter: args.filter, threshold: args.threshold });
      return {
        query: found.query,
        mode: args.mode,
        results: found.chunks.map((hit, i) => ({
          rank: i + 1,
          score: Math.round(hit.score * 10_000) / 10_000,
          chunk_id: hit.id,
          document_id: hit.document_id,
          document_title: hit.document_title,
          page: typeof hit.metadata.page === 'number' ? hit.metadata.page : null,
          section: typeof hit.metadata.section === 'string' && hit.metadata.section ? hit.metadata.section : null,
          citation: citation(hit),
          text: hit.content,
          file_id: hit.file_id,
          extraction_id: hit.extraction_id,
          file_version: hit.file_version,
          source_item: hit.source_item,
        })),
      };
    },
  }),
  tool({
    name: 'get_document',
    title: 'Get a document',
    description:
      "A knowledge base document's title, status (pending, indexing, indexed, failed), chunk count, metadata, the file and extraction it was indexed from, file_version (the version searches serve) beside latest_file_version, and source_item when a source keeps it in step.",
    scopes: ['kb:read', 'kb:search'],
    readOnly: true,
    input: z.object({ kb_id: kbId, document_id: id('document_id', 'doc_01jd0000000000000000000000') }),
    run: (ctx, { kb_id, document_id }) => getDocument(ctx, kb_id, document_id),
  }),
  tool({
    name: 'get_passage',
    title: 'Read around a passage',
    description:
      'Returns a chunk of a knowledge base (a chunk_id from search_knowledge_base) together with the chunks just before and after it in its document, in reading order, with page and section of each: the context of a search result.',
    scopes: ['kb:search', 'kb:read'],
    readOnly: true,
    input: z.object({
      kb_id: kbId,
      chunk_id: id('chunk_id', 'chunk_01jd0000000000000000000000'),
      neighbours: z
        .number()
        .int()
        .min(0)
        .max(MAX_PASSAGE_NEIGHBOURS)
        .default(1)
        .meta({ description: `Chunks to include on each side (0–${MAX_PASSAGE_NEIGHBOURS}, default 1)` }),
    }),
    run: (ctx, { kb_id, chunk_id, neighbours }) => getPassage(ctx, kb_id, chunk_id, neighbours),
  }),
  tool({
    name: 'read_extraction',
    title: "Read an extraction's Markdown",
    description:
      'Reads the Markdown of a completed extraction, by page range and in pieces of at most max_chars characters, so a long document can be read a part at a time. When next_offset is not null, call again with offset=next_offset (and the same pages) to continue.',
    scopes: ['extractions:read'],
    readOnly: true,
    input: z.object({
      extraction_id: id('extraction_id', 'ext_01jd0000000000000000000000'),
      page_start: z.number().int().min(1).optional().meta({ description: 'First page to read (default: the first)' }),
      page_end: z.number().int().min(1).optional().meta({ description: 'Last page to read (default: the last)' }),
      offset: z.number().int().min(0).default(0).meta({ description: 'Character offset within the selected pages' }),
      max_chars: z.number().int().min(1_000).max(100_000).default(20_000).meta({ description: 'At most this many characters (1,000–100,000, default 20,000)' }),
    }),
    async run(ctx, args) {
      if (args.page_start !== undefined && args.page_end !== undefined && args.page_end < args.page_start) {
        throw new ApiError('INVALID_REQUEST', 'page_end must not be before page_start', { field: 'page_end' });
      }
      const extraction = await getExtraction(ctx, args.extraction_id);
      if (!('markdown' in extraction)) {
        throw new ApiError('EXTRACTION_NOT_COMPLETED', `Extraction ${extraction.id} is ${extraction.status}, not completed: check get_extraction_status`, {
          extraction_id: extraction.id,
          status: extraction.status,
        });
      }
      const window = windowOf(extraction.markdown, { pageStart: args.page_start, pageEnd: args.page_end, offset: args.offset, maxChars: args.max_chars });
      return { extraction_id: extraction.id, file_id: extraction.file_id, total_pages: extraction.total_pages, ...window };
    },
  }),
  tool({
    name: 'get_extraction_document',
    title: "Read an extraction's structure",
    description:
      'The document model of a completed extraction as JSON: its blocks in reading order (headings with their level, paragraphs, lists, tables with their rows and cells and row_span/col_span for merged cells, code, formulas, pictures), in page sections, each with the page and region it came from. Use it to read a table cell by cell or follow the outline; choose pages with page_start/page_end for a long document. Extractions made before models were kept answer DOCUMENT_NOT_AVAILABLE: use read_extraction for their Markdown.',
    scopes: ['extractions:read'],
    readOnly: true,
    input: z.object({
      extraction_id: id('extraction_id', 'ext_01jd0000000000000000000000'),
      page_start: z.number().int().min(1).optional().meta({ description: 'First page to return (default: the first)' }),
      page_end: z.number().int().min(1).optional().meta({ description: 'Last page to return (default: the last)' }),
    }),
    async run(ctx, args) {
      if (args.page_start !== undefined && args.page_end !== undefined && args.page_end < args.page_start) {
        throw new ApiError('INVALID_REQUEST', 'page_end must not be before page_start', { field: 'page_end' });
      }
      const model = await getExtractionDocument(ctx, args.extraction_id);
      const { blocks, first, last } = blocksOnPages(model.blocks, args.page_start, args.page_end);
      return { extraction_id: model.extraction_id, version: model.version, metadata: model.metadata, page_start: first, page_end: last, blocks };
    },
  }),
  tool({
    name: 'upload_file',
    title: 'Upload a file',
    description: `Stores a file (PDF, Word, PowerPoint, Excel, OpenDocument, images, e-mail, EPUB, HTML, Markdown, text…) given as base64, at most ${MCP_MAX_UPLOAD_BYTES / 1024 / 1024} MB here. Optionally starts its extraction (extract: a mode) and adds it to a knowledge base (knowledge_base_id), where it is indexed once extracted.`,
    scopes: ['files:write'],
    readOnly: false,
    input: z.object({
      filename: z.string({ error: 'filename is required and must be a string' }).min(1).max(255).meta({ description: 'The name, with its extension (report.pdf)' }),
      content_base64: z
        .string({ error: 'content_base64 is required and must be a string' })
        .min(1)
        .max(Math.ceil(MCP_MAX_UPLOAD_BYTES / 3) * 4 + 4, `content_base64 must decode to at most ${MCP_MAX_UPLOAD_BYTES / 1024 / 1024} MB`)
        .regex(/^[A-Za-z0-9+/_\-\s]*={0,2}\s*$/, 'content_base64 must be base64')
        .meta({ description: "The file's bytes, base64-encoded" }),
      tags: z.array(z.string().max(100)).max(50).optional().meta({ description: 'Tags to find it by' }),
      extract: z.enum(EXTRACTION_MODES).optional().meta({ description: 'Start an extraction in this mode (simple, normal, advanced)' }),
      knowledge_base_id: uploadOptions.shape.knowledge_base_id.meta({ description: 'Also add it to this knowledge base' }),
    }),
    async run(ctx, args) {
      const bytes = Buffer.from(args.content_base64, 'base64');
      if (bytes.length === 0) throw new ApiError('INVALID_FILE', 'content_base64 holds no bytes', { field: 'content_base64' });
      const form = new FormData();
      form.set('file', new Blob([new Uint8Array(bytes)]), args.filename);
      if (args.tags) form.set('tags', args.tags.join(','));
      if (args.extract) form.set('extract', args.extract);
      if (args.knowledge_base_id) form.set('knowledge_base_id', args.knowledge_base_id);
      const request = new Request('http://quarry.invalid/mcp-upload', { method: 'POST', body: form });
      const upload = await receiveUpload(request.body, request.headers.get('content-type'), ctx.storage);
      return ingestUpload(ctx, upload, {
        extract: args.extract ? { mode: args.extract, options: extractionOptionsSchema.parse({}) } : undefined,
        knowledgeBaseId: args.knowledge_base_id,
      });
    },
  }),
  tool({
    name: 'extract_file',
    title: 'Extract a file',
    description:
      'Starts turning a stored file into Markdown (text, headings, tables; OCR for scans in normal and advanced mode). Returns the extraction id at once; check get_extraction_status until it is completed, then read_extraction.',
    scopes: ['extractions:write'],
    readOnly: false,
    input: z.object({ ...createExtractionBody.shape }),
    run: (ctx, args) => createExtraction(ctx, args),
  }),
  tool({
    name: 'get_extraction_status',
    title: 'Check an extraction',
    description:
      "An extraction's status (pending, processing with progress in percent, completed with its page count, failed with the reason), without its Markdown: use read_extraction for that.",
    scopes: ['extractions:read'],
    readOnly: true,
    input: z.object({ extraction_id: id('extraction_id', 'ext_01jd0000000000000000000000') }),
    async run(ctx, { extraction_id }) {
      const view = await getExtraction(ctx, extraction_id);
      if (!('markdown' in view)) return view;
      const { markdown, ...rest } = view;
      return { ...rest, markdown_length: markdown.length };
    },
  }),
  tool({
    name: 'add_to_knowledge_base',
    title: 'Add a file to a knowledge base',
    description:
      "Adds a stored file to a knowledge base as a document, indexed from the file's latest completed extraction (or, with extract, from one started now). Returns the document id; get_document shows when it is indexed.",
    scopes: ['kb:write'],
    readOnly: false,
    input: z.object({ kb_id: kbId, ...addDocumentBody.shape }),
    run: (ctx, { kb_id, ...body }) => addDocumentToKnowledgeBase(ctx, kb_id, body),
  }),
  ...SOURCE_TOOLS,
];
