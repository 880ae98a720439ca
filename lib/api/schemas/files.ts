import { z } from 'zod';
import { EXTRACTION_MODES, EXTRACTION_STATUSES, DOCUMENT_STATUSES } from '@/lib/db/schema';
import { idParam, label, listOf, metadataObject, paginationQuery, sortQuery, timestamp } from './common';
import { extractRequest } from './extractions';

export const FILE_SORT_FIELDS = ['created_at', 'filename', 'size'] as const;

export const fileListQuery = paginationQuery
  .extend(sortQuery(FILE_SORT_FIELDS, 'created_at', 'desc').shape)
  .extend({
    tags: z.string().max(2000).optional().meta({ description: 'Comma-separated tags; files having all of them' }),
    content_type: z.string().max(200).optional().meta({ description: 'MIME type filter', example: 'application/pdf' }),
    q: z.string().trim().max(200, 'q must be at most 200 characters').optional().meta({ description: 'Files whose name contains this text (any case)', example: 'report' }),
  });

export const fileIdParams = idParam('file_id', 'file_01jd0000000000000000000000');

const fileBase = {
  id: z.string().meta({ example: 'file_01jd0000000000000000000000' }),
  filename: z.string(),
  content_type: z.string().meta({ example: 'application/pdf' }),
  size: z.number().int().meta({ description: 'Bytes' }),
  sha256: z.string().meta({ description: 'SHA-256 of the content, hex', example: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855' }),
  tags: z.array(z.string()),
  version: z.number().int().min(1).meta({ description: '1 for an upload; each change a source syncs stores the next version of the same file', example: 1 }),
  source_item: z
    .object({
      id: z.string().meta({ example: 'sitem_01jd0000000000000000000000' }),
      source_id: z.string().meta({ example: 'src_01jd0000000000000000000000' }),
      key: z.string().meta({ description: "The item's key in the source: an object key, a URL", example: 'handbook/leave.pdf' }),
      url: z.string().meta({ description: 'Where it can be opened', example: 's3://company-docs/handbook/leave.pdf' }),
    })
    .nullable()
    .meta({ description: 'The source item the file is kept in step with; null for an upload' }),
  created_at: timestamp,
};

export const fileSchema = z
  .object({ ...fileBase, metadata: z.record(z.string(), z.unknown()), updated_at: timestamp })
  .meta({ id: 'File' });

export const fileListItemSchema = z
  .object({
    ...fileBase,
    latest_extraction: z
      .object({ id: z.string(), status: z.enum(EXTRACTION_STATUSES), mode: z.enum(EXTRACTION_MODES), progress: z.number().int().min(0).max(100) })
      .nullable()
      .meta({ description: 'The newest extraction of the file (its progress while it runs); null when never extracted' }),
  })
  .meta({ id: 'FileListItem' });
export const fileListSchema = listOf(fileListItemSchema, 'FileList');

export const uploadSchema = z
  .object({
    file: z.string().meta({ format: 'binary', description: 'The file; its type is decided by its content' }),
    metadata: z.string().optional().meta({ description: 'A JSON object, as a string' }),
    tags: z.string().optional().meta({ description: 'Comma-separated tags' }),
    extract: z
      .string()
      .optional()
      .meta({ description: 'Start an extraction too: a mode (simple, normal, advanced) or {"mode", "options"} as JSON. Needs extractions:write' }),
    knowledge_base_id: z
      .string()
      .optional()
      .meta({
        description:
          'Add the file to this knowledge base too, as a document indexed when its extraction completes (mode from extract, else normal). Needs kb:write and extractions:write. A key limited to knowledge bases must send one of its own (without it: 403)',
      }),
    document_title: z.string().optional().meta({ description: 'With knowledge_base_id: the document title' }),
    document_metadata: z.string().optional().meta({ description: 'With knowledge_base_id: the document metadata, a JSON object' }),
    dedupe: z.string().optional().meta({ description: 'true: when a file with the same content (SHA-256) is stored, answer 200 with it (deduplicated: true) instead of storing a copy' }),
  })
  .meta({ id: 'FileUpload' });

/** A part that may hold JSON: parsed when it looks like an object, else passed on trimmed. */
function jsonPart(value: unknown): unknown {
  if (typeof value !== 'string') return value;
  const text = value.trim();
  if (!text.startsWith('{')) return text;
  try {
    return JSON.parse(text);
  } catch {
    return value;
  }
}

/** The optional parts of an upload beyond the contract's, validated. */
export const uploadOptions = z.object({
  extract: z.preprocess(jsonPart, extractRequest).optional(),
  knowledge_base_id: z.string().trim().min(1, 'knowledge_base_id must not be empty').max(200).optional(),
  document_title: label('document_title').max(500, 'document_title must be at most 500 characters').optional(),
  document_metadata: z.preprocess(jsonPart, metadataObject('document_metadata')).optional(),
  dedupe: z
    .enum(['true', 'false'], { error: 'dedupe must be true or false' })
    .transform((v) => v === 'true')
    .optional(),
});

/** The answer to an upload: the File, and what else it started. */
export const uploadedFileSchema = z
  .object({
    ...fileBase,
    metadata: z.record(z.string(), z.unknown()),
    updated_at: timestamp,
    deduplicated: z.boolean().optional().meta({ description: 'With dedupe: whether an existing file with the same content was returned (then the status is 200)' }),
    extraction: z
      .object({ id: z.string(), status: z.enum(EXTRACTION_STATUSES), mode: z.enum(EXTRACTION_MODES) })
      .optional()
      .meta({ description: 'With extract or knowledge_base_id: the extraction started (or, for a deduplicated file, the one it has)' }),
    document: z
      .object({ id: z.string(), kb_id: z.string(), status: z.enum(DOCUMENT_STATUSES) })
      .optional()
      .meta({ description: 'With knowledge_base_id: the document, pending until its extraction completes and it is indexed' }),
  })
  .meta({ id: 'UploadedFile' });

export const fileTypeSchema = z
  .object({
    extension: z.string().meta({ example: '.pdf' }),
    mime_type: z.string().meta({ example: 'application/pdf' }),
    description: z.string(),
    max_size_mb: z.number().int().meta({ example: 100 }),
  })
  .meta({ id: 'FileType' });

export const fileTypesSchema = z.object({ types: z.array(fileTypeSchema) }).meta({ id: 'FileTypes' });
