import { endpoint } from '../endpoint';
import {
  addDocumentBody,
  addDocumentsBatchBody,
  addDocumentsBatchResultSchema,
  createdDocumentSchema,
  createKnowledgeBaseBody,
  documentIdParams,
  documentListQuery,
  documentListSchema,
  documentSchema,
  hybridSearchBody,
  hybridSearchResultSchema,
  kbIdParams,
  kbListQuery,
  knowledgeBaseListSchema,
  knowledgeBaseSchema,
  reindexDocumentBody,
  retryFailedSchema,
  searchBody,
  searchResultSchema,
  updateKnowledgeBaseBody,
} from '../schemas/knowledge-bases';

export const createKnowledgeBase = endpoint({
  id: 'createKnowledgeBase',
  method: 'POST',
  path: '/v1/knowledge-bases',
  summary: 'Create a knowledge base (its embedding space is fixed now, from the server configuration)',
  auth: 'kb:write',
  body: createKnowledgeBaseBody,
  idempotent: true,
  response: { status: 201, description: 'Created', schema: knowledgeBaseSchema },
  errors: ['EMBEDDING_NOT_CONFIGURED', 'EMBEDDING_FAILED'],
});

export const listKnowledgeBases = endpoint({
  id: 'listKnowledgeBases',
  method: 'GET',
  path: '/v1/knowledge-bases',
  summary: 'List knowledge bases',
  auth: 'kb:read',
  query: kbListQuery,
  response: { status: 200, description: 'A page of knowledge bases', schema: knowledgeBaseListSchema },
  errors: [],
});

export const getKnowledgeBase = endpoint({
  id: 'getKnowledgeBase',
  method: 'GET',
  path: '/v1/knowledge-bases/{kb_id}',
  summary: 'Knowledge base detail',
  auth: 'kb:read',
  params: kbIdParams,
  response: { status: 200, description: 'The knowledge base', schema: knowledgeBaseSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const updateKnowledgeBase = endpoint({
  id: 'updateKnowledgeBase',
  method: 'PATCH',
  path: '/v1/knowledge-bases/{kb_id}',
  summary: 'Update name, description, metadata or chunking strategy (a new strategy re-indexes in the background)',
  auth: 'kb:write',
  params: kbIdParams,
  body: updateKnowledgeBaseBody,
  response: { status: 200, description: 'The updated knowledge base', schema: knowledgeBaseSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const deleteKnowledgeBase = endpoint({
  id: 'deleteKnowledgeBase',
  method: 'DELETE',
  path: '/v1/knowledge-bases/{kb_id}',
  summary: 'Delete a knowledge base with its documents and chunks',
  auth: 'kb:write',
  params: kbIdParams,
  response: { status: 204, description: 'Deleted' },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const addDocument = endpoint({
  id: 'addDocument',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/documents',
  summary: 'Add a file: its latest completed extraction is indexed in the background, else the one still running once it completes (extract starts one)',
  auth: 'kb:write',
  params: kbIdParams,
  body: addDocumentBody,
  idempotent: true,
  fieldErrors: { file_id: 'INVALID_FILE_ID' },
  response: { status: 201, description: 'Added, pending indexing', schema: createdDocumentSchema },
  errors: ['INVALID_FILE_ID', 'KNOWLEDGE_BASE_NOT_FOUND', 'FILE_NOT_FOUND', 'EXTRACTION_NOT_COMPLETED', 'DOCUMENT_EXISTS', 'UNSUPPORTED_FORMAT'],
});

export const listDocuments = endpoint({
  id: 'listDocuments',
  method: 'GET',
  path: '/v1/knowledge-bases/{kb_id}/documents',
  summary: 'List documents',
  auth: 'kb:read',
  params: kbIdParams,
  query: documentListQuery,
  response: { status: 200, description: 'A page of documents', schema: documentListSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const getDocument = endpoint({
  id: 'getDocument',
  method: 'GET',
  path: '/v1/knowledge-bases/{kb_id}/documents/{document_id}',
  summary: 'Document detail',
  auth: 'kb:read',
  params: documentIdParams,
  response: { status: 200, description: 'The document', schema: documentSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND'],
});

export const deleteDocument = endpoint({
  id: 'deleteDocument',
  method: 'DELETE',
  path: '/v1/knowledge-bases/{kb_id}/documents/{document_id}',
  summary: 'Remove a document and its chunks',
  auth: 'kb:write',
  params: documentIdParams,
  response: { status: 204, description: 'Deleted' },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND'],
});

export const searchKnowledgeBase = endpoint({
  id: 'searchKnowledgeBase',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/search',
  summary: 'Semantic search (cosine similarity)',
  auth: ['kb:search', 'kb:read'],
  params: kbIdParams,
  body: searchBody,
  response: { status: 200, description: 'Chunks, best first', schema: searchResultSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'EMBEDDING_PROVIDER_MISMATCH', 'EMBEDDING_FAILED', 'RERANK_NOT_CONFIGURED', 'RERANK_FAILED'],
});

export const hybridSearchKnowledgeBase = endpoint({
  id: 'hybridSearchKnowledgeBase',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/hybrid-search',
  summary: 'Hybrid search: cosine similarity and BM25, fused',
  auth: ['kb:search', 'kb:read'],
  params: kbIdParams,
  body: hybridSearchBody,
  response: { status: 200, description: 'Chunks, best first', schema: hybridSearchResultSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'EMBEDDING_PROVIDER_MISMATCH', 'EMBEDDING_FAILED', 'RERANK_NOT_CONFIGURED', 'RERANK_FAILED'],
});

export const retryDocument = endpoint({
  id: 'retryDocument',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/documents/{document_id}/retry',
  summary: 'Send a failed document through its pipeline again (a new extraction when its extraction failed)',
  auth: 'kb:write',
  params: documentIdParams,
  response: { status: 200, description: 'The document, pending again', schema: documentSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'DOCUMENT_NOT_FAILED', 'EXTRACTION_NOT_COMPLETED', 'UNSUPPORTED_FORMAT'],
});

export const reindexDocument = endpoint({
  id: 'reindexDocument',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/documents/{document_id}/reindex',
  summary: "Index a document again from its file's latest completed extraction (or the one given); its chunks answer searches until replaced",
  auth: 'kb:write',
  params: documentIdParams,
  body: reindexDocumentBody,
  response: { status: 200, description: 'The document, pending again', schema: documentSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'DOCUMENT_BUSY', 'EXTRACTION_NOT_COMPLETED'],
});

export const retryFailedDocuments = endpoint({
  id: 'retryFailedDocuments',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/retry-failed',
  summary: 'Retry every failed document of the knowledge base (at most 500 per call), each on its own',
  auth: 'kb:write',
  params: kbIdParams,
  response: { status: 200, description: 'What happened to each failed document', schema: retryFailedSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const addDocumentsBatch = endpoint({
  id: 'addDocumentsBatch',
  method: 'POST',
  path: '/v1/knowledge-bases/{kb_id}/documents/batch',
  summary: 'Add up to 100 files at once, each as by the single call and on its own: one bad item never blocks the rest',
  auth: 'kb:write',
  params: kbIdParams,
  body: addDocumentsBatchBody,
  idempotent: true,
  response: { status: 207, description: 'The outcome of each item, in order: document or error', schema: addDocumentsBatchResultSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});
