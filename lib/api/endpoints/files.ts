import { z } from 'zod';
import { endpoint } from '../endpoint';
import { listOf, paginationQuery, timestamp } from '../schemas/common';
import { EXTRACTION_MODES, EXTRACTION_STATUSES } from '@/lib/db/schema';
import { fileIdParams, fileListQuery, fileListSchema, fileSchema, fileTypesSchema, uploadedFileSchema, uploadSchema } from '../schemas/files';

const extractionListSchema = listOf(
  z.object({
    id: z.string(),
    status: z.enum(EXTRACTION_STATUSES),
    mode: z.enum(EXTRACTION_MODES),
    total_pages: z.number().int().nullable(),
    created_at: timestamp,
  }),
  'FileExtractionList',
);

export const uploadFile = endpoint({
  id: 'uploadFile',
  method: 'POST',
  path: '/v1/files',
  summary: 'Upload a file',
  auth: 'files:write',
  upload: uploadSchema,
  idempotent: true,
  response: { status: 201, description: 'Stored', schema: uploadedFileSchema },
  alternatives: [{ status: 200, description: 'With dedupe=true: a file with the same content was already stored', schema: uploadedFileSchema }],
  errors: ['INVALID_FILE', 'FILE_TOO_LARGE', 'UNSUPPORTED_FORMAT', 'KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_EXISTS'],
});

export const listFiles = endpoint({
  id: 'listFiles',
  method: 'GET',
  path: '/v1/files',
  summary: 'List files',
  auth: 'files:read',
  query: fileListQuery,
  response: { status: 200, description: 'A page of files', schema: fileListSchema },
  errors: [],
});

export const listFileTypes = endpoint({
  id: 'listFileTypes',
  method: 'GET',
  path: '/v1/files/types',
  summary: 'List supported file types',
  auth: 'files:read',
  response: { status: 200, description: 'Supported types and their size limits', schema: fileTypesSchema },
  errors: [],
});

export const getFile = endpoint({
  id: 'getFile',
  method: 'GET',
  path: '/v1/files/{file_id}',
  summary: 'File detail',
  auth: 'files:read',
  params: fileIdParams,
  response: { status: 200, description: 'The file', schema: fileSchema },
  errors: ['FILE_NOT_FOUND'],
});

export const deleteFile = endpoint({
  id: 'deleteFile',
  method: 'DELETE',
  path: '/v1/files/{file_id}',
  summary: 'Delete a file with its extractions and knowledge-base documents',
  auth: 'files:write',
  params: fileIdParams,
  response: { status: 204, description: 'Deleted' },
  errors: ['FILE_NOT_FOUND'],
});

export const downloadFile = endpoint({
  id: 'downloadFile',
  method: 'GET',
  path: '/v1/files/{file_id}/download',
  summary: 'Download the file content',
  auth: 'files:read',
  params: fileIdParams,
  response: {
    status: 200,
    description:
      'The original bytes, with the stored content type. A `Range: bytes=…` header (one range) answers 206 with that part and Content-Range; If-Range takes the ETag',
    binary: 'application/octet-stream',
  },
  errors: ['FILE_NOT_FOUND', 'RANGE_NOT_SATISFIABLE'],
});

export const listFileExtractions = endpoint({
  id: 'listFileExtractions',
  method: 'GET',
  path: '/v1/files/{file_id}/extractions',
  summary: 'Extractions of a file',
  auth: 'extractions:read',
  params: fileIdParams,
  query: paginationQuery,
  response: { status: 200, description: 'A page of extraction tasks', schema: extractionListSchema },
  errors: ['FILE_NOT_FOUND'],
});
