import { endpoint } from '../endpoint';
import { extractionDocumentSchema } from '../schemas/documents';
import {
  createdExtractionSchema,
  createExtractionBody,
  createExtractionsBatchBody,
  createExtractionsBatchResultSchema,
  extractionIdParams,
  extractionLayoutSchema,
  extractionSchema,
} from '../schemas/extractions';

export const createExtraction = endpoint({
  id: 'createExtraction',
  method: 'POST',
  path: '/v1/extractions',
  summary: 'Create an extraction task',
  auth: 'extractions:write',
  body: createExtractionBody,
  idempotent: true,
  fieldErrors: { file_id: 'INVALID_FILE_ID' },
  response: { status: 201, description: 'Queued', schema: createdExtractionSchema },
  errors: ['INVALID_FILE_ID', 'FILE_NOT_FOUND', 'UNSUPPORTED_FORMAT'],
});

export const getExtraction = endpoint({
  id: 'getExtraction',
  method: 'GET',
  path: '/v1/extractions/{extraction_id}',
  summary: 'Extraction status and result (a failed task also answers 200)',
  auth: 'extractions:read',
  params: extractionIdParams,
  response: { status: 200, description: 'The task; fields depend on its status', schema: extractionSchema },
  errors: ['EXTRACTION_NOT_FOUND'],
});

export const getExtractionLayout = endpoint({
  id: 'getExtractionLayout',
  method: 'GET',
  path: '/v1/extractions/{extraction_id}/layout',
  summary: 'Where the text of a completed extraction sits on its pages (PDFs and images; empty for other formats)',
  auth: 'extractions:read',
  params: extractionIdParams,
  response: { status: 200, description: 'Blocks and lines with their markdown offsets and page regions', schema: extractionLayoutSchema },
  errors: ['EXTRACTION_NOT_FOUND', 'EXTRACTION_NOT_COMPLETED'],
});

export const getExtractionDocument = endpoint({
  id: 'getExtractionDocument',
  method: 'GET',
  path: '/v1/extractions/{extraction_id}/document',
  summary: "The document model of a completed extraction: its blocks (headings, paragraphs, lists, tables with spanning cells, …) by page, with where each sits",
  auth: 'extractions:read',
  params: extractionIdParams,
  response: { status: 200, description: 'The document model', schema: extractionDocumentSchema },
  errors: ['EXTRACTION_NOT_FOUND', 'DOCUMENT_NOT_AVAILABLE', 'EXTRACTION_NOT_COMPLETED'],
});

export const cancelExtraction = endpoint({
  id: 'cancelExtraction',
  method: 'POST',
  path: '/v1/extractions/{extraction_id}/cancel',
  summary: 'Cancel a pending or running extraction (it ends failed with CANCELLED)',
  auth: 'extractions:write',
  params: extractionIdParams,
  response: { status: 200, description: 'The task after the request', schema: extractionSchema },
  errors: ['EXTRACTION_NOT_FOUND', 'EXTRACTION_NOT_CANCELLABLE'],
});

export const createExtractionsBatch = endpoint({
  id: 'createExtractionsBatch',
  method: 'POST',
  path: '/v1/extractions/batch',
  summary: 'Create extraction tasks for up to 100 files at once, each on its own',
  auth: 'extractions:write',
  body: createExtractionsBatchBody,
  idempotent: true,
  response: { status: 207, description: 'The outcome of each file, in order: extraction or error', schema: createExtractionsBatchResultSchema },
  errors: [],
});
