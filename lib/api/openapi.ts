import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { VERSION } from '@/lib/version';
import { apiKeyIdParams, apiKeyListQuery, apiKeyListSchema, createApiKeyBody, createdApiKeySchema } from './schemas/api-keys';
import { errorSchema, paginationQuery } from './schemas/common';
import { createdExtractionSchema, createExtractionBody, extractionIdParams, extractionSchema } from './schemas/extractions';
import {
  addDocumentBody,
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
  searchBody,
  searchResultSchema,
  updateKnowledgeBaseBody,
} from './schemas/knowledge-bases';
import {
  createdWebhookSchema,
  createWebhookBody,
  deliveryIdParams,
  deliveryListQuery,
  deliveryListSchema,
  deliverySchema,
  updateWebhookBody,
  webhookIdParams,
  webhookListQuery,
  webhookListSchema,
  webhookSchema,
} from './schemas/webhooks';
import {
  createUserBody,
  meSchema,
  setupBody,
  setupStatusSchema,
  updateUserBody,
  userIdParams,
  userListQuery,
  userListSchema,
  userSchema,
} from './schemas/users';
import { fileIdParams, fileListQuery, fileListSchema, fileSchema, fileTypesSchema, uploadSchema } from './schemas/files';
import {
  detailedHealthSchema,
  eventListQuery,
  eventListSchema,
  healthSchema,
  maintenanceBody,
  maintenanceSchema,
} from './schemas/operations';
import { ERROR_STATUS, type ErrorCode } from './errors';

const extractionListSchema = z
  .object({
    items: z.array(
      z.object({
        id: z.string(),
        status: z.enum(['pending', 'processing', 'completed', 'failed']),
        mode: z.enum(['simple', 'normal', 'advanced']),
        total_pages: z.number().int().nullable(),
        created_at: z.string(),
      }),
    ),
    total: z.number().int(),
    limit: z.number().int(),
    offset: z.number().int(),
  })
  .meta({ id: 'FileExtractionList' });

const jsonContent = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });

function errors(...codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of ['UNAUTHORIZED', 'RATE_LIMIT_EXCEEDED', ...codes] as ErrorCode[]) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [String(status), { description: list.join(', '), ...jsonContent(errorSchema) }]),
  );
}

function op(summary: string, scope: string, rest: Partial<ZodOpenApiOperationObject>): ZodOpenApiOperationObject {
  return {
    summary,
    description: `Required scope: ${scope}.`,
    responses: {},
    ...rest,
  };
}

const idempotencyHeader = z.object({
  'idempotency-key': z.string().max(255).optional().meta({ description: 'Repeat-safe creation: the same key within 24 h returns the first result' }),
});

const paths: ZodOpenApiPathsObject = {
  '/v1/files': {
    post: op('Upload a file', 'files:write', {
      requestParams: { header: idempotencyHeader },
      requestBody: { content: { 'multipart/form-data': { schema: uploadSchema } } },
      responses: { '201': { description: 'Stored', ...jsonContent(fileSchema) }, ...errors('INVALID_FILE', 'INVALID_REQUEST', 'FILE_TOO_LARGE', 'UNSUPPORTED_FORMAT', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_SCOPE') },
    }),
    get: op('List files', 'files:read', {
      requestParams: { query: fileListQuery },
      responses: { '200': { description: 'A page of files', ...jsonContent(fileListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/files/types': {
    get: op('List supported file types', 'files:read', {
      responses: { '200': { description: 'Supported types and their size limits', ...jsonContent(fileTypesSchema) }, ...errors('INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/files/{file_id}': {
    get: op('File detail', 'files:read', {
      requestParams: { path: fileIdParams },
      responses: { '200': { description: 'The file', ...jsonContent(fileSchema) }, ...errors('FILE_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
    delete: op('Delete a file with its extractions and knowledge-base documents', 'files:write', {
      requestParams: { path: fileIdParams },
      responses: { '204': { description: 'Deleted' }, ...errors('FILE_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/files/{file_id}/download': {
    get: op('Download the file content', 'files:read', {
      requestParams: { path: fileIdParams },
      responses: {
        '200': { description: 'The original bytes, with the stored content type', content: { 'application/octet-stream': { schema: z.string().meta({ format: 'binary' }) } } },
        ...errors('FILE_NOT_FOUND', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/files/{file_id}/extractions': {
    get: op('Extractions of a file', 'extractions:read', {
      requestParams: { path: fileIdParams, query: paginationQuery },
      responses: { '200': { description: 'A page of extraction tasks', ...jsonContent(extractionListSchema) }, ...errors('FILE_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/extractions': {
    post: op('Create an extraction task', 'extractions:write', {
      requestParams: { header: idempotencyHeader },
      requestBody: jsonContent(createExtractionBody),
      responses: {
        '201': { description: 'Queued', ...jsonContent(createdExtractionSchema) },
        ...errors('INVALID_FILE_ID', 'INVALID_REQUEST', 'FILE_NOT_FOUND', 'UNSUPPORTED_FORMAT', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/extractions/{extraction_id}': {
    get: op('Extraction status and result (a failed task also answers 200)', 'extractions:read', {
      requestParams: { path: extractionIdParams },
      responses: { '200': { description: 'The task; fields depend on its status', ...jsonContent(extractionSchema) }, ...errors('EXTRACTION_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/extractions/{extraction_id}/cancel': {
    post: op('Cancel a pending or running extraction (it ends failed with CANCELLED)', 'extractions:write', {
      requestParams: { path: extractionIdParams },
      responses: {
        '200': { description: 'The task after the request', ...jsonContent(extractionSchema) },
        ...errors('EXTRACTION_NOT_FOUND', 'EXTRACTION_NOT_CANCELLABLE', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/knowledge-bases': {
    post: op('Create a knowledge base (its embedding space is fixed now, from the server configuration)', 'kb:write', {
      requestParams: { header: idempotencyHeader },
      requestBody: jsonContent(createKnowledgeBaseBody),
      responses: {
        '201': { description: 'Created', ...jsonContent(knowledgeBaseSchema) },
        ...errors('INVALID_REQUEST', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_SCOPE', 'EMBEDDING_NOT_CONFIGURED', 'EMBEDDING_FAILED'),
      },
    }),
    get: op('List knowledge bases', 'kb:read', {
      requestParams: { query: kbListQuery },
      responses: { '200': { description: 'A page of knowledge bases', ...jsonContent(knowledgeBaseListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/knowledge-bases/{kb_id}': {
    get: op('Knowledge base detail', 'kb:read', {
      requestParams: { path: kbIdParams },
      responses: { '200': { description: 'The knowledge base', ...jsonContent(knowledgeBaseSchema) }, ...errors('KNOWLEDGE_BASE_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
    patch: op('Update name, description, metadata or chunking strategy (a new strategy re-indexes in the background)', 'kb:write', {
      requestParams: { path: kbIdParams },
      requestBody: jsonContent(updateKnowledgeBaseBody),
      responses: {
        '200': { description: 'The updated knowledge base', ...jsonContent(knowledgeBaseSchema) },
        ...errors('INVALID_REQUEST', 'KNOWLEDGE_BASE_NOT_FOUND', 'INSUFFICIENT_SCOPE'),
      },
    }),
    delete: op('Delete a knowledge base with its documents and chunks', 'kb:write', {
      requestParams: { path: kbIdParams },
      responses: { '204': { description: 'Deleted' }, ...errors('KNOWLEDGE_BASE_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/knowledge-bases/{kb_id}/documents': {
    post: op('Add a file whose latest extraction has completed; indexing runs in the background', 'kb:write', {
      requestParams: { path: kbIdParams, header: idempotencyHeader },
      requestBody: jsonContent(addDocumentBody),
      responses: {
        '201': { description: 'Added, pending indexing', ...jsonContent(createdDocumentSchema) },
        ...errors(
          'INVALID_FILE_ID',
          'INVALID_REQUEST',
          'KNOWLEDGE_BASE_NOT_FOUND',
          'FILE_NOT_FOUND',
          'EXTRACTION_NOT_COMPLETED',
          'DOCUMENT_EXISTS',
          'IDEMPOTENCY_KEY_REUSED',
          'INSUFFICIENT_SCOPE',
        ),
      },
    }),
    get: op('List documents', 'kb:read', {
      requestParams: { path: kbIdParams, query: documentListQuery },
      responses: {
        '200': { description: 'A page of documents', ...jsonContent(documentListSchema) },
        ...errors('INVALID_REQUEST', 'KNOWLEDGE_BASE_NOT_FOUND', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/knowledge-bases/{kb_id}/documents/{document_id}': {
    get: op('Document detail', 'kb:read', {
      requestParams: { path: documentIdParams },
      responses: {
        '200': { description: 'The document', ...jsonContent(documentSchema) },
        ...errors('KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'INSUFFICIENT_SCOPE'),
      },
    }),
    delete: op('Remove a document and its chunks', 'kb:write', {
      requestParams: { path: documentIdParams },
      responses: { '204': { description: 'Deleted' }, ...errors('KNOWLEDGE_BASE_NOT_FOUND', 'DOCUMENT_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/knowledge-bases/{kb_id}/search': {
    post: op('Semantic search (cosine similarity)', 'kb:search or kb:read', {
      requestParams: { path: kbIdParams },
      requestBody: jsonContent(searchBody),
      responses: {
        '200': { description: 'Chunks, best first', ...jsonContent(searchResultSchema) },
        ...errors('INVALID_REQUEST', 'KNOWLEDGE_BASE_NOT_FOUND', 'EMBEDDING_PROVIDER_MISMATCH', 'EMBEDDING_FAILED', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/knowledge-bases/{kb_id}/hybrid-search': {
    post: op('Hybrid search: weighted cosine similarity and BM25', 'kb:search or kb:read', {
      requestParams: { path: kbIdParams },
      requestBody: jsonContent(hybridSearchBody),
      responses: {
        '200': { description: 'Chunks, best first', ...jsonContent(hybridSearchResultSchema) },
        ...errors('INVALID_REQUEST', 'KNOWLEDGE_BASE_NOT_FOUND', 'EMBEDDING_PROVIDER_MISMATCH', 'EMBEDDING_FAILED', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/webhooks': {
    post: op('Create a webhook (enabled; the secret is write-only)', 'webhooks:*', {
      requestParams: { header: idempotencyHeader },
      requestBody: jsonContent(createWebhookBody),
      responses: { '201': { description: 'Created', ...jsonContent(createdWebhookSchema) }, ...errors('INVALID_REQUEST', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_SCOPE') },
    }),
    get: op('List webhooks', 'webhooks:*', {
      requestParams: { query: webhookListQuery },
      responses: { '200': { description: 'A page of webhooks', ...jsonContent(webhookListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/webhooks/{webhook_id}': {
    get: op('Webhook detail', 'webhooks:*', {
      requestParams: { path: webhookIdParams },
      responses: { '200': { description: 'The webhook', ...jsonContent(webhookSchema) }, ...errors('WEBHOOK_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
    patch: op('Update events and enabled (and url, secret)', 'webhooks:*', {
      requestParams: { path: webhookIdParams },
      requestBody: jsonContent(updateWebhookBody),
      responses: { '200': { description: 'The updated webhook', ...jsonContent(webhookSchema) }, ...errors('INVALID_REQUEST', 'WEBHOOK_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
    delete: op('Delete a webhook and its delivery history', 'webhooks:*', {
      requestParams: { path: webhookIdParams },
      responses: { '204': { description: 'Deleted' }, ...errors('WEBHOOK_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/webhooks/{webhook_id}/deliveries': {
    get: op('Delivery history, newest first', 'webhooks:*', {
      requestParams: { path: webhookIdParams, query: deliveryListQuery },
      responses: { '200': { description: 'A page of deliveries', ...jsonContent(deliveryListSchema) }, ...errors('INVALID_REQUEST', 'WEBHOOK_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}': {
    get: op('A delivery with its payload and every attempt', 'webhooks:*', {
      requestParams: { path: deliveryIdParams },
      responses: { '200': { description: 'The delivery', ...jsonContent(deliverySchema) }, ...errors('WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver': {
    post: op('Send a delivery again, as a new delivery with the same body', 'webhooks:*', {
      requestParams: { path: deliveryIdParams, header: idempotencyHeader },
      responses: {
        '201': { description: 'The new delivery, pending', ...jsonContent(deliverySchema) },
        ...errors('WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND', 'WEBHOOK_DISABLED', 'IDEMPOTENCY_KEY_REUSED', 'INSUFFICIENT_SCOPE'),
      },
    }),
  },
  '/v1/webhooks/{webhook_id}/test': {
    post: op('Send a signed webhook.test event now (one attempt, recorded in the history)', 'webhooks:*', {
      requestParams: { path: webhookIdParams },
      responses: { '200': { description: 'The delivery with its attempt', ...jsonContent(deliverySchema) }, ...errors('WEBHOOK_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/users': {
    get: op('List console users', 'administrator (* or api-keys:*)', {
      requestParams: { query: userListQuery },
      responses: { '200': { description: 'A page of users', ...jsonContent(userListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
    post: op('Create a console user', 'administrator (* or api-keys:*)', {
      requestParams: { header: idempotencyHeader },
      requestBody: jsonContent(createUserBody),
      responses: { '201': { description: 'Created', ...jsonContent(userSchema) }, ...errors('INVALID_REQUEST', 'USER_EXISTS', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/users/{user_id}': {
    patch: op('Change a user: name, role, password, disabled', 'administrator (* or api-keys:*)', {
      requestParams: { path: userIdParams },
      requestBody: jsonContent(updateUserBody),
      responses: { '200': { description: 'The user', ...jsonContent(userSchema) }, ...errors('INVALID_REQUEST', 'USER_NOT_FOUND', 'LAST_ADMIN', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/setup': {
    get: { summary: 'Whether the one-time setup is needed (no authentication)', security: [], responses: { '200': { description: 'Setup state', ...jsonContent(setupStatusSchema) } } },
    post: {
      summary: 'Create the first administrator while no user exists (no authentication)',
      security: [],
      requestBody: jsonContent(setupBody),
      responses: { '201': { description: 'Created', ...jsonContent(userSchema) }, ...errors('INVALID_REQUEST', 'SETUP_COMPLETED') },
    },
  },
  '/v1/me': {
    get: op('Who is calling: the console user or API key, and its scopes', 'any valid key or console session', {
      responses: { '200': { description: 'The caller', ...jsonContent(meSchema) } },
    }),
  },
  '/v1/api-keys': {
    post: op('Create an API key (the key is returned once)', 'administrator (* or api-keys:*)', {
      requestParams: { header: idempotencyHeader },
      requestBody: jsonContent(createApiKeyBody),
      responses: { '201': { description: 'Created', ...jsonContent(createdApiKeySchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE', 'IDEMPOTENCY_KEY_REUSED') },
    }),
    get: op('List API keys', 'administrator (* or api-keys:*)', {
      requestParams: { query: apiKeyListQuery },
      responses: { '200': { description: 'A page of keys', ...jsonContent(apiKeyListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/api-keys/{key_id}': {
    delete: op('Revoke an API key', 'administrator (* or api-keys:*)', {
      requestParams: { path: apiKeyIdParams },
      responses: { '204': { description: 'Revoked' }, ...errors('API_KEY_NOT_FOUND', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/v1/events': {
    get: op('The event log, newest first', 'webhooks:*', {
      requestParams: { query: eventListQuery },
      responses: { '200': { description: 'A page of events', ...jsonContent(eventListSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
  '/health': {
    get: { summary: 'Liveness and version (no authentication)', security: [], responses: { '200': { description: 'Healthy', ...jsonContent(healthSchema) } } },
  },
  '/health/detailed': {
    get: op('Database and storage probes', 'any valid key', {
      responses: {
        '200': { description: 'All components healthy', ...jsonContent(detailedHealthSchema) },
        '503': { description: 'A component is unhealthy', ...jsonContent(detailedHealthSchema) },
        ...errors(),
      },
    }),
  },
  '/admin/maintenance': {
    get: op('Maintenance mode state', 'administrator (* or api-keys:*)', {
      responses: { '200': { description: 'Current state', ...jsonContent(maintenanceSchema) }, ...errors('INSUFFICIENT_SCOPE') },
    }),
    post: op('Turn maintenance mode on or off', 'administrator (* or api-keys:*)', {
      requestBody: jsonContent(maintenanceBody),
      responses: { '200': { description: 'The new state', ...jsonContent(maintenanceSchema) }, ...errors('INVALID_REQUEST', 'INSUFFICIENT_SCOPE') },
    }),
  },
};

let cached: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document, generated from the same zod schemas the routes validate with. */
export function openApiDocument() {
  cached ??= createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version: VERSION,
      description: 'Document extraction and knowledge base service. Errors use the body {"error": {"code", "message", "details"?, "request_id"}}.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_… or sk_test_…' } } },
    paths,
  });
  return cached;
}
