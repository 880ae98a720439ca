import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ENDPOINTS } from '@/lib/api/endpoints';
import type { RouteHandler } from '@/lib/api/handler';
import { SCOPES, type Scope } from '@/lib/auth/scopes';
import { expireKey, useTestApp, type CallOptions, type TestResponse } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import {
  HTTP_METHODS,
  ROUTE_FILES,
  type Method,
  type RouteModule,
  maintenanceRoute,
  healthRoute,
  catchAllRoute,
  apiKeyRoute,
  kbsRoute,
  setupRoute,
  fileRoute,
  filesRoute,
  openapiRoute,
  routeFileOf,
} from './support/routes';

const app = useTestApp();

/** Route files that need no key at all; they get their own assertions below. */
const PUBLIC_FILES = ['app/health/route.ts', 'app/v1/openapi.json/route.ts', 'app/v1/[...path]/route.ts', 'app/v1/setup/route.ts'];

/** Who may call a protected route, written out here independently of lib/auth/scopes.ts. */
interface Requirement {
  label: string;
  /** The scope a 403 INSUFFICIENT_SCOPE must name in error.details.required_scope (null: any valid key). */
  required: Scope | null;
  /** Exactly the single scopes that are enough on their own. */
  grantedBy: readonly Scope[];
}

const FILES_READ: Requirement = { label: 'files:read', required: 'files:read', grantedBy: ['files:read', 'files:*', '*'] };
const FILES_WRITE: Requirement = { label: 'files:write', required: 'files:write', grantedBy: ['files:write', 'files:*', '*'] };
const EXTRACTIONS_READ: Requirement = {
  label: 'extractions:read',
  required: 'extractions:read',
  grantedBy: ['extractions:read', 'extractions:*', '*'],
};
const EXTRACTIONS_WRITE: Requirement = {
  label: 'extractions:write',
  required: 'extractions:write',
  grantedBy: ['extractions:write', 'extractions:*', '*'],
};
const KB_READ: Requirement = { label: 'kb:read', required: 'kb:read', grantedBy: ['kb:read', 'kb:*', '*'] };
const KB_WRITE: Requirement = { label: 'kb:write', required: 'kb:write', grantedBy: ['kb:write', 'kb:*', '*'] };
const KB_SEARCH: Requirement = { label: 'kb:search or kb:read', required: 'kb:search', grantedBy: ['kb:search', 'kb:read', 'kb:*', '*'] };
const SOURCES_READ: Requirement = { label: 'sources:read', required: 'sources:read', grantedBy: ['sources:read', 'sources:*', '*'] };
const SOURCES_WRITE: Requirement = { label: 'sources:write', required: 'sources:write', grantedBy: ['sources:write', 'sources:*', '*'] };
const WEBHOOKS: Requirement = { label: 'webhooks:*', required: 'webhooks:*', grantedBy: ['webhooks:*', '*'] };
const ADMIN: Requirement = { label: 'administrator', required: 'api-keys:*', grantedBy: ['api-keys:*', '*'] };
/** Console users: signing in as a user yields that user's scopes, so only a holder of every scope manages them. */
const ALL: Requirement = { label: 'all permissions', required: '*', grantedBy: ['*'] };
const ANY_KEY: Requirement = { label: 'any valid key', required: null, grantedBy: SCOPES };

/** A file id and an API key id that do not exist, so allowed DELETE callers get 404 and change nothing. */
const MISSING_FILE_ID = 'file_01jd0000000000000000000000';
const MISSING_KEY_ID = 'key_01jd0000000000000000000000';
const MISSING_EXTRACTION_ID = 'ext_01jd0000000000000000000000';
const MISSING_KB_ID = 'kb_01jd0000000000000000000000';
const MISSING_WEBHOOK_ID = 'wh_01jd0000000000000000000000';
const MISSING_DELIVERY_ID = 'del_01jd0000000000000000000000';
const MISSING_DOCUMENT_ID = 'doc_01jd0000000000000000000000';
const MISSING_SOURCE_ID = 'src_01jd0000000000000000000000';
const MISSING_RUN_ID = 'srun_01jd0000000000000000000000';

interface ProtectedRoute {
  name: string;
  file: string;
  method: Method;
  requirement: Requirement;
  /** The request (built at call time, after beforeAll has seeded data). */
  request: () => Omit<CallOptions, 'method' | 'key' | 'ip'>;
  /** What an allowed caller gets. */
  allowed: { status: number; code?: string };
}

let seededFileId = '';
let seededKbId = '';

const PROTECTED: ProtectedRoute[] = [
  {
    name: 'GET /v1/files',
    file: 'app/v1/files/route.ts',
    method: 'GET',
    requirement: FILES_READ,
    request: () => ({ path: '/v1/files' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/files',
    file: 'app/v1/files/route.ts',
    method: 'POST',
    requirement: FILES_WRITE,
    request: () => ({ path: '/v1/files', body: formWith('matrix.txt', Buffer.from('matrix upload\n')) }),
    allowed: { status: 201 },
  },
  {
    name: 'GET /v1/files/types',
    file: 'app/v1/files/types/route.ts',
    method: 'GET',
    requirement: FILES_READ,
    request: () => ({ path: '/v1/files/types' }),
    allowed: { status: 200 },
  },
  {
    name: 'GET /v1/files/{file_id}',
    file: 'app/v1/files/[file_id]/route.ts',
    method: 'GET',
    requirement: FILES_READ,
    request: () => ({ path: `/v1/files/${seededFileId}`, params: { file_id: seededFileId } }),
    allowed: { status: 200 },
  },
  {
    name: 'DELETE /v1/files/{file_id}',
    file: 'app/v1/files/[file_id]/route.ts',
    method: 'DELETE',
    requirement: FILES_WRITE,
    request: () => ({ path: `/v1/files/${MISSING_FILE_ID}`, params: { file_id: MISSING_FILE_ID } }),
    allowed: { status: 404, code: 'FILE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/files/{file_id}/download',
    file: 'app/v1/files/[file_id]/download/route.ts',
    method: 'GET',
    requirement: FILES_READ,
    request: () => ({ path: `/v1/files/${seededFileId}/download`, params: { file_id: seededFileId } }),
    allowed: { status: 200 },
  },
  {
    name: 'GET /v1/files/{file_id}/extractions',
    file: 'app/v1/files/[file_id]/extractions/route.ts',
    method: 'GET',
    requirement: EXTRACTIONS_READ,
    request: () => ({ path: `/v1/files/${seededFileId}/extractions`, params: { file_id: seededFileId } }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/extractions',
    file: 'app/v1/extractions/route.ts',
    method: 'POST',
    requirement: EXTRACTIONS_WRITE,
    request: () => ({ path: '/v1/extractions', body: { file_id: MISSING_FILE_ID } }),
    allowed: { status: 404, code: 'FILE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/extractions/{extraction_id}',
    file: 'app/v1/extractions/[extraction_id]/route.ts',
    method: 'GET',
    requirement: EXTRACTIONS_READ,
    request: () => ({ path: `/v1/extractions/${MISSING_EXTRACTION_ID}`, params: { extraction_id: MISSING_EXTRACTION_ID } }),
    allowed: { status: 404, code: 'EXTRACTION_NOT_FOUND' },
  },
  {
    name: 'GET /v1/extractions/{extraction_id}/layout',
    file: 'app/v1/extractions/[extraction_id]/layout/route.ts',
    method: 'GET',
    requirement: EXTRACTIONS_READ,
    request: () => ({ path: `/v1/extractions/${MISSING_EXTRACTION_ID}/layout`, params: { extraction_id: MISSING_EXTRACTION_ID } }),
    allowed: { status: 404, code: 'EXTRACTION_NOT_FOUND' },
  },
  {
    name: 'GET /v1/extractions/{extraction_id}/document',
    file: 'app/v1/extractions/[extraction_id]/document/route.ts',
    method: 'GET',
    requirement: EXTRACTIONS_READ,
    request: () => ({ path: `/v1/extractions/${MISSING_EXTRACTION_ID}/document`, params: { extraction_id: MISSING_EXTRACTION_ID } }),
    allowed: { status: 404, code: 'EXTRACTION_NOT_FOUND' },
  },
  {
    name: 'POST /v1/extractions/{extraction_id}/cancel',
    file: 'app/v1/extractions/[extraction_id]/cancel/route.ts',
    method: 'POST',
    requirement: EXTRACTIONS_WRITE,
    request: () => ({ path: `/v1/extractions/${MISSING_EXTRACTION_ID}/cancel`, params: { extraction_id: MISSING_EXTRACTION_ID } }),
    allowed: { status: 404, code: 'EXTRACTION_NOT_FOUND' },
  },
  {
    name: 'GET /v1/api-keys',
    file: 'app/v1/api-keys/route.ts',
    method: 'GET',
    requirement: ADMIN,
    request: () => ({ path: '/v1/api-keys' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/api-keys',
    file: 'app/v1/api-keys/route.ts',
    method: 'POST',
    requirement: ADMIN,
    // A scope both administrator scopes may grant, so "allowed" is not confused with an ungrantable-scope 403.
    request: () => ({ path: '/v1/api-keys', body: { name: 'matrix-created', scopes: ['api-keys:*'] } }),
    allowed: { status: 201 },
  },
  {
    name: 'DELETE /v1/api-keys/{key_id}',
    file: 'app/v1/api-keys/[key_id]/route.ts',
    method: 'DELETE',
    requirement: ADMIN,
    request: () => ({ path: `/v1/api-keys/${MISSING_KEY_ID}`, params: { key_id: MISSING_KEY_ID } }),
    allowed: { status: 404, code: 'API_KEY_NOT_FOUND' },
  },
  {
    name: 'GET /v1/events',
    file: 'app/v1/events/route.ts',
    method: 'GET',
    requirement: WEBHOOKS,
    request: () => ({ path: '/v1/events' }),
    allowed: { status: 200 },
  },
  {
    name: 'GET /health/detailed',
    file: 'app/health/detailed/route.ts',
    method: 'GET',
    requirement: ANY_KEY,
    request: () => ({ path: '/health/detailed' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /mcp',
    file: 'app/mcp/route.ts',
    method: 'POST',
    requirement: ANY_KEY,
    request: () => ({
      path: '/mcp',
      headers: { accept: 'application/json, text/event-stream' },
      body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} },
    }),
    allowed: { status: 200 },
  },
  {
    name: 'GET /admin/maintenance',
    file: 'app/admin/maintenance/route.ts',
    method: 'GET',
    requirement: ADMIN,
    request: () => ({ path: '/admin/maintenance' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /admin/maintenance',
    file: 'app/admin/maintenance/route.ts',
    method: 'POST',
    requirement: ADMIN,
    // Never switch maintenance on: every later /v1 row would get 503.
    request: () => ({ path: '/admin/maintenance', body: { enabled: false } }),
    allowed: { status: 200 },
  },

  {
    name: 'GET /v1/knowledge-bases',
    file: 'app/v1/knowledge-bases/route.ts',
    method: 'GET',
    requirement: KB_READ,
    request: () => ({ path: '/v1/knowledge-bases' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/knowledge-bases',
    file: 'app/v1/knowledge-bases/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({ path: '/v1/knowledge-bases', body: { name: 'matrix' } }),
    allowed: { status: 201 },
  },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}',
    file: 'app/v1/knowledge-bases/[kb_id]/route.ts',
    method: 'GET',
    requirement: KB_READ,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}`, params: { kb_id: seededKbId } }),
    allowed: { status: 200 },
  },
  {
    name: 'PATCH /v1/knowledge-bases/{kb_id}',
    file: 'app/v1/knowledge-bases/[kb_id]/route.ts',
    method: 'PATCH',
    requirement: KB_WRITE,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}`, params: { kb_id: seededKbId }, body: { description: 'matrix' } }),
    allowed: { status: 200 },
  },
  {
    name: 'DELETE /v1/knowledge-bases/{kb_id}',
    file: 'app/v1/knowledge-bases/[kb_id]/route.ts',
    method: 'DELETE',
    requirement: KB_WRITE,
    request: () => ({ path: `/v1/knowledge-bases/${MISSING_KB_ID}`, params: { kb_id: MISSING_KB_ID } }),
    allowed: { status: 404, code: 'KNOWLEDGE_BASE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}/documents',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/route.ts',
    method: 'GET',
    requirement: KB_READ,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}/documents`, params: { kb_id: seededKbId } }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}/documents`, params: { kb_id: seededKbId }, body: { file_id: MISSING_FILE_ID } }),
    allowed: { status: 404, code: 'FILE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/knowledge-bases/{kb_id}/documents/{document_id}',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route.ts',
    method: 'GET',
    requirement: KB_READ,
    request: () => ({
      path: `/v1/knowledge-bases/${seededKbId}/documents/${MISSING_DOCUMENT_ID}`,
      params: { kb_id: seededKbId, document_id: MISSING_DOCUMENT_ID },
    }),
    allowed: { status: 404, code: 'DOCUMENT_NOT_FOUND' },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/retry',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/retry/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({
      path: `/v1/knowledge-bases/${seededKbId}/documents/${MISSING_DOCUMENT_ID}/retry`,
      params: { kb_id: seededKbId, document_id: MISSING_DOCUMENT_ID },
    }),
    allowed: { status: 404, code: 'DOCUMENT_NOT_FOUND' },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/{document_id}/reindex',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/reindex/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({
      path: `/v1/knowledge-bases/${seededKbId}/documents/${MISSING_DOCUMENT_ID}/reindex`,
      params: { kb_id: seededKbId, document_id: MISSING_DOCUMENT_ID },
      body: {},
    }),
    allowed: { status: 404, code: 'DOCUMENT_NOT_FOUND' },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/documents/batch',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/batch/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({
      path: `/v1/knowledge-bases/${seededKbId}/documents/batch`,
      params: { kb_id: seededKbId },
      body: { items: [{ file_id: MISSING_FILE_ID }] },
    }),
    allowed: { status: 207 },
  },
  {
    name: 'POST /v1/extractions/batch',
    file: 'app/v1/extractions/batch/route.ts',
    method: 'POST',
    requirement: EXTRACTIONS_WRITE,
    request: () => ({ path: '/v1/extractions/batch', body: { file_ids: [MISSING_FILE_ID] } }),
    allowed: { status: 207 },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/retry-failed',
    file: 'app/v1/knowledge-bases/[kb_id]/retry-failed/route.ts',
    method: 'POST',
    requirement: KB_WRITE,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}/retry-failed`, params: { kb_id: seededKbId } }),
    allowed: { status: 200 },
  },
  {
    name: 'DELETE /v1/knowledge-bases/{kb_id}/documents/{document_id}',
    file: 'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route.ts',
    method: 'DELETE',
    requirement: KB_WRITE,
    request: () => ({
      path: `/v1/knowledge-bases/${seededKbId}/documents/${MISSING_DOCUMENT_ID}`,
      params: { kb_id: seededKbId, document_id: MISSING_DOCUMENT_ID },
    }),
    allowed: { status: 404, code: 'DOCUMENT_NOT_FOUND' },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/search',
    file: 'app/v1/knowledge-bases/[kb_id]/search/route.ts',
    method: 'POST',
    requirement: KB_SEARCH,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}/search`, params: { kb_id: seededKbId }, body: { query: 'matrix' } }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/knowledge-bases/{kb_id}/hybrid-search',
    file: 'app/v1/knowledge-bases/[kb_id]/hybrid-search/route.ts',
    method: 'POST',
    requirement: KB_SEARCH,
    request: () => ({ path: `/v1/knowledge-bases/${seededKbId}/hybrid-search`, params: { kb_id: seededKbId }, body: { query: 'matrix' } }),
    allowed: { status: 200 },
  },

  {
    name: 'GET /v1/sources',
    file: 'app/v1/sources/route.ts',
    method: 'GET',
    requirement: SOURCES_READ,
    request: () => ({ path: '/v1/sources' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/sources',
    file: 'app/v1/sources/route.ts',
    method: 'POST',
    requirement: SOURCES_WRITE,
    // A knowledge base that does not exist: an allowed caller creates nothing.
    request: () => ({ path: '/v1/sources', body: { type: 'url', knowledge_base_id: MISSING_KB_ID, config: { url: 'https://example.com/a.pdf' } } }),
    allowed: { status: 404, code: 'KNOWLEDGE_BASE_NOT_FOUND' },
  },
  {
    name: 'POST /v1/sources/test',
    file: 'app/v1/sources/test/route.ts',
    method: 'POST',
    requirement: SOURCES_WRITE,
    // A loopback address, refused before any request is made.
    request: () => ({ path: '/v1/sources/test', body: { type: 'url', config: { url: 'http://127.0.0.1:9/a.pdf' } } }),
    allowed: { status: 400, code: 'INVALID_REQUEST' },
  },
  {
    name: 'GET /v1/sources/{source_id}',
    file: 'app/v1/sources/[source_id]/route.ts',
    method: 'GET',
    requirement: SOURCES_READ,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}`, params: { source_id: MISSING_SOURCE_ID } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'PATCH /v1/sources/{source_id}',
    file: 'app/v1/sources/[source_id]/route.ts',
    method: 'PATCH',
    requirement: SOURCES_WRITE,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}`, params: { source_id: MISSING_SOURCE_ID }, body: { enabled: false } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'DELETE /v1/sources/{source_id}',
    file: 'app/v1/sources/[source_id]/route.ts',
    method: 'DELETE',
    requirement: SOURCES_WRITE,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}`, params: { source_id: MISSING_SOURCE_ID } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'POST /v1/sources/{source_id}/sync',
    file: 'app/v1/sources/[source_id]/sync/route.ts',
    method: 'POST',
    requirement: SOURCES_WRITE,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}/sync`, params: { source_id: MISSING_SOURCE_ID } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/sources/{source_id}/runs',
    file: 'app/v1/sources/[source_id]/runs/route.ts',
    method: 'GET',
    requirement: SOURCES_READ,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}/runs`, params: { source_id: MISSING_SOURCE_ID } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'GET /v1/sources/{source_id}/runs/{run_id}',
    file: 'app/v1/sources/[source_id]/runs/[run_id]/route.ts',
    method: 'GET',
    requirement: SOURCES_READ,
    request: () => ({ path: `/v1/sources/${MISSING_SOURCE_ID}/runs/${MISSING_RUN_ID}`, params: { source_id: MISSING_SOURCE_ID, run_id: MISSING_RUN_ID } }),
    allowed: { status: 404, code: 'SOURCE_NOT_FOUND' },
  },
  {
    name: 'POST /v1/citations/verify',
    file: 'app/v1/citations/verify/route.ts',
    method: 'POST',
    requirement: KB_SEARCH,
    request: () => ({ path: '/v1/citations/verify', body: { citations: [{ chunk_id: 'chunk_01jd0000000000000000000000' }] } }),
    allowed: { status: 200 },
  },
  {
    name: 'GET /v1/webhooks',
    file: 'app/v1/webhooks/route.ts',
    method: 'GET',
    requirement: WEBHOOKS,
    request: () => ({ path: '/v1/webhooks' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/webhooks',
    file: 'app/v1/webhooks/route.ts',
    method: 'POST',
    requirement: WEBHOOKS,
    // A target that is never called: it only subscribes to an event the matrix never causes.
    request: () => ({ path: '/v1/webhooks', body: { url: 'https://hooks.example.com/matrix', events: ['knowledge_base.deleted'], secret: 'matrix-secret-0123456789' } }),
    allowed: { status: 201 },
  },
  {
    name: 'GET /v1/webhooks/{webhook_id}',
    file: 'app/v1/webhooks/[webhook_id]/route.ts',
    method: 'GET',
    requirement: WEBHOOKS,
    request: () => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}`, params: { webhook_id: MISSING_WEBHOOK_ID } }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'PATCH /v1/webhooks/{webhook_id}',
    file: 'app/v1/webhooks/[webhook_id]/route.ts',
    method: 'PATCH',
    requirement: WEBHOOKS,
    request: () => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}`, params: { webhook_id: MISSING_WEBHOOK_ID }, body: { enabled: false } }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'DELETE /v1/webhooks/{webhook_id}',
    file: 'app/v1/webhooks/[webhook_id]/route.ts',
    method: 'DELETE',
    requirement: WEBHOOKS,
    request: () => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}`, params: { webhook_id: MISSING_WEBHOOK_ID } }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'GET /v1/webhooks/{webhook_id}/deliveries',
    file: 'app/v1/webhooks/[webhook_id]/deliveries/route.ts',
    method: 'GET',
    requirement: WEBHOOKS,
    request: () => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}/deliveries`, params: { webhook_id: MISSING_WEBHOOK_ID } }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'GET /v1/webhooks/{webhook_id}/deliveries/{delivery_id}',
    file: 'app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/route.ts',
    method: 'GET',
    requirement: WEBHOOKS,
    request: () => ({
      path: `/v1/webhooks/${MISSING_WEBHOOK_ID}/deliveries/${MISSING_DELIVERY_ID}`,
      params: { webhook_id: MISSING_WEBHOOK_ID, delivery_id: MISSING_DELIVERY_ID },
    }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'POST /v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
    file: 'app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/redeliver/route.ts',
    method: 'POST',
    requirement: WEBHOOKS,
    request: () => ({
      path: `/v1/webhooks/${MISSING_WEBHOOK_ID}/deliveries/${MISSING_DELIVERY_ID}/redeliver`,
      params: { webhook_id: MISSING_WEBHOOK_ID, delivery_id: MISSING_DELIVERY_ID },
    }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },
  {
    name: 'POST /v1/webhooks/{webhook_id}/test',
    file: 'app/v1/webhooks/[webhook_id]/test/route.ts',
    method: 'POST',
    requirement: WEBHOOKS,
    request: () => ({ path: `/v1/webhooks/${MISSING_WEBHOOK_ID}/test`, params: { webhook_id: MISSING_WEBHOOK_ID } }),
    allowed: { status: 404, code: 'WEBHOOK_NOT_FOUND' },
  },

  {
    name: 'GET /v1/users',
    file: 'app/v1/users/route.ts',
    method: 'GET',
    requirement: ALL,
    request: () => ({ path: '/v1/users' }),
    allowed: { status: 200 },
  },
  {
    name: 'POST /v1/users',
    file: 'app/v1/users/route.ts',
    method: 'POST',
    requirement: ALL,
    // Invalid on purpose (no password): allowed callers get 400, and no user piles up per caller.
    request: () => ({ path: '/v1/users', body: { email: 'matrix@example.com' } }),
    allowed: { status: 400, code: 'INVALID_REQUEST' },
  },
  {
    name: 'PATCH /v1/users/{user_id}',
    file: 'app/v1/users/[user_id]/route.ts',
    method: 'PATCH',
    requirement: ALL,
    request: () => ({ path: '/v1/users/usr_01jd0000000000000000000000', params: { user_id: 'usr_01jd0000000000000000000000' }, body: { name: 'x' } }),
    allowed: { status: 404, code: 'USER_NOT_FOUND' },
  },
  {
    name: 'GET /v1/me',
    file: 'app/v1/me/route.ts',
    method: 'GET',
    requirement: ANY_KEY,
    request: () => ({ path: '/v1/me' }),
    allowed: { status: 200 },
  },
];

/** What a caller should get from a protected route. */
type Expectation =
  | { kind: 'unauthorized' }
  | { kind: 'ip-not-allowed' }
  | { kind: 'allowed' }
  | { kind: 'scoped'; scope: Scope };

interface Caller {
  name: string;
  expect: Expectation;
  /** Built at call time from the keys made in beforeAll. */
  options: () => Pick<CallOptions, 'key' | 'headers' | 'ip'>;
}

const keys: Record<string, string> = {};

const CALLERS: Caller[] = [
  { name: 'no Authorization header', expect: { kind: 'unauthorized' }, options: () => ({ key: null }) },
  {
    name: 'malformed Authorization header "Basic x"',
    expect: { kind: 'unauthorized' },
    options: () => ({ key: null, headers: { authorization: 'Basic x' } }),
  },
  {
    name: 'Bearer without a token',
    expect: { kind: 'unauthorized' },
    options: () => ({ key: null, headers: { authorization: 'Bearer ' } }),
  },
  { name: 'unknown key', expect: { kind: 'unauthorized' }, options: () => ({ key: keys.unknown }) },
  { name: 'expired key (scope *)', expect: { kind: 'unauthorized' }, options: () => ({ key: keys.expired }) },
  { name: 'revoked key (scope *)', expect: { kind: 'unauthorized' }, options: () => ({ key: keys.revoked }) },
  {
    name: 'key whose allowed_ips exclude the IPv4 caller',
    expect: { kind: 'ip-not-allowed' },
    options: () => ({ key: keys.ipv4Only, ip: '127.0.0.1' }),
  },
  {
    name: 'IPv6 caller with a key limited to IPv4 ranges',
    expect: { kind: 'ip-not-allowed' },
    options: () => ({ key: keys.ipv4Only, ip: '2001:db8::1' }),
  },
  {
    name: 'IPv6 caller just outside the allowed IPv6 range',
    expect: { kind: 'ip-not-allowed' },
    options: () => ({ key: keys.ipv6Range, ip: '2001:db9::1' }),
  },
  {
    name: 'IPv4 caller inside an allowed CIDR range',
    expect: { kind: 'allowed' },
    options: () => ({ key: keys.ipv4Only, ip: '10.200.3.4' }),
  },
  {
    name: 'IPv4 caller matching an exact allowed address',
    expect: { kind: 'allowed' },
    options: () => ({ key: keys.ipv4Only, ip: '192.0.2.7' }),
  },
  {
    name: 'IPv4-mapped IPv6 caller inside an allowed IPv4 range',
    expect: { kind: 'allowed' },
    options: () => ({ key: keys.ipv4Only, ip: '::ffff:10.9.8.7' }),
  },
  {
    name: 'IPv6 caller inside an allowed IPv6 CIDR range',
    expect: { kind: 'allowed' },
    options: () => ({ key: keys.ipv6Range, ip: '2001:db8:0:1::5' }),
  },
  {
    name: 'IPv6 caller matching an allowed address written differently',
    expect: { kind: 'allowed' },
    options: () => ({ key: keys.ipv6Exact, ip: '2001:db8:0:0:0:0:0:42' }),
  },
  { name: 'QUARRY_ADMIN_KEY', expect: { kind: 'allowed' }, options: () => ({ key: app.adminKey }) },
  ...SCOPES.map(
    (scope): Caller => ({
      name: `key with scopes ["${scope}"]`,
      expect: { kind: 'scoped', scope },
      options: () => ({ key: keys[`scope:${scope}`] }),
    }),
  ),
];

beforeAll(async () => {
  const file = await app.call(filesRoute.POST, {
    method: 'POST',
    path: '/v1/files',
    body: formWith('seed.txt', Buffer.from('seeded for the security matrix\n')),
  });
  expect(file.status).toBe(201);
  seededFileId = file.body.id;
  const kb = await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', body: { name: 'seeded' } });
  expect(kb.status).toBe(201);
  seededKbId = kb.body.id;

  keys.unknown = 'sk_test_' + 'Zz9'.repeat(10) + 'Qq';
  expect(keys.unknown).toMatch(/^sk_test_[A-Za-z0-9]{32}$/);

  const expired = await app.createKey({ name: 'expired', scopes: ['*'] });
  await expireKey(app.db, expired.id);
  keys.expired = expired.key;

  const revoked = await app.createKey({ name: 'revoked', scopes: ['*'] });
  const del = await app.call(apiKeyRoute.DELETE!, {
    method: 'DELETE',
    path: `/v1/api-keys/${revoked.id}`,
    params: { key_id: revoked.id },
  });
  expect(del.status).toBe(204);
  keys.revoked = revoked.key;

  keys.ipv4Only = (await app.createKey({ name: 'ipv4', scopes: ['*'], allowedIps: ['10.0.0.0/8', '192.0.2.7'] })).key;
  keys.ipv6Range = (await app.createKey({ name: 'ipv6 range', scopes: ['*'], allowedIps: ['2001:db8::/32'] })).key;
  keys.ipv6Exact = (await app.createKey({ name: 'ipv6 exact', scopes: ['*'], allowedIps: ['2001:DB8::42'] })).key;

  for (const scope of SCOPES) keys[`scope:${scope}`] = (await app.createKey({ name: `scope ${scope}`, scopes: [scope] })).key;
});

/** The one error body: exactly {error:{code,message,details?,request_id}}, request_id = X-Request-Id. */
function expectErrorBody(res: TestResponse, status: number, code: string): Record<string, any> {
  expect(res.status, res.text).toBe(status);
  expect(res.headers.get('content-type')).toContain('application/json');
  expect(Object.keys(res.body)).toEqual(['error']);
  const error = res.body.error;
  expect(error.code).toBe(code);
  expect(typeof error.message).toBe('string');
  expect(error.message.length).toBeGreaterThan(0);
  const allowedKeys = ['code', 'message', 'details', 'request_id'];
  expect(Object.keys(error).filter((k) => !allowedKeys.includes(k))).toEqual([]);
  expect(Object.keys(error)).toEqual(expect.arrayContaining(['code', 'message', 'request_id']));
  if ('details' in error) {
    expect(typeof error.details).toBe('object');
    expect(error.details).not.toBeNull();
    expect(Array.isArray(error.details)).toBe(false);
  }
  expect(error.request_id).toMatch(/^req_[0-9a-z]{26}$/);
  expect(res.headers.get('x-request-id')).toBe(error.request_id);
  return error;
}

function handlerOf(file: string, method: Method): RouteHandler {
  const handler = ROUTE_FILES[file][method];
  if (typeof handler !== 'function') throw new Error(`${file} exports no ${method}`);
  return handler;
}

function outcomeFor(route: ProtectedRoute, caller: Caller): Expectation {
  if (caller.expect.kind !== 'scoped') return caller.expect;
  return route.requirement.grantedBy.includes(caller.expect.scope) ? { kind: 'allowed' } : caller.expect;
}

describe('the route table covers every route', () => {
  it('lists every route.ts under app/', () => {
    const root = path.resolve(__dirname, '..');
    const found = fs
      .readdirSync(path.join(root, 'app'), { recursive: true, encoding: 'utf8' })
      .filter((p) => path.basename(p) === 'route.ts')
      .map((p) => path.posix.join('app', p.split(path.sep).join('/')))
      // app/api/ holds framework endpoints with their own authentication (the Inngest serve handler).
      .filter((p) => !p.startsWith('app/api/'))
      // app/pdfjs/ serves files of the installed pdfjs-dist to the console's PDF viewer: no data, no key.
      .filter((p) => !p.startsWith('app/pdfjs/'))
      .sort();
    expect(found).toEqual(Object.keys(ROUTE_FILES).sort());
  });

  it('has a matrix row for every served method; every other export answers 405 without needing a key', async () => {
    for (const [file, mod] of Object.entries(ROUTE_FILES)) {
      if (PUBLIC_FILES.includes(file)) continue;
      const served = PROTECTED.filter((r) => r.file === file).map((r) => r.method);
      expect(served.length, file).toBeGreaterThan(0);
      const exported = HTTP_METHODS.filter((m) => typeof mod[m] === 'function');
      expect(exported, file).toEqual(expect.arrayContaining(served));
      for (const method of exported.filter((m) => !served.includes(m))) {
        const res = await app.call(mod[method]!, { method, path: `/${file}`, key: null });
        const error = expectErrorBody(res, 405, 'METHOD_NOT_ALLOWED');
        expect(error.details.allowed, `${method} ${file}`).toEqual(served);
        expect(res.headers.get('allow')).toBe(served.join(', '));
      }
    }
  });

  it('has exactly one row for every protected operation of the endpoint list, in the route file its path names', () => {
    const declared = ENDPOINTS.filter((e) => e.auth !== 'public').map((e) => `${e.method} ${e.path}`);
    expect(PROTECTED.map((r) => r.name).sort()).toEqual([...declared].sort());
    for (const row of PROTECTED) {
      const e = ENDPOINTS.find((x) => `${x.method} ${x.path}` === row.name)!;
      expect(row.method, row.name).toBe(e.method);
      const file = routeFileOf(e.path);
      expect(row.file, row.name).toBe(file);
    }
  });

  it('expects of each operation what its declaration says (written out independently above)', () => {
    for (const row of PROTECTED) {
      const { auth } = ENDPOINTS.find((x) => `${x.method} ${x.path}` === row.name)!;
      const declared =
        auth === 'authenticated' ? null : auth === 'admin' ? 'api-keys:*' : typeof auth === 'string' ? auth : auth[0];
      expect(declared, row.name).toBe(row.requirement.required);
      if (Array.isArray(auth)) expect(row.requirement.grantedBy, row.name).toEqual(expect.arrayContaining(auth));
    }
  });

  it('lists as public exactly the route files of the public operations and the /v1 catch-all', () => {
    const publicFiles = ENDPOINTS.filter((e) => e.auth === 'public').map((e) => routeFileOf(e.path));
    expect([...new Set([...publicFiles, 'app/v1/[...path]/route.ts'])].sort()).toEqual([...PUBLIC_FILES].sort());
  });

  it('makes the served handlers distinct from the 405 handlers', () => {
    for (const route of PROTECTED) {
      const mod = ROUTE_FILES[route.file];
      const others = HTTP_METHODS.filter((m) => m !== route.method && !PROTECTED.some((r) => r.file === route.file && r.method === m));
      for (const m of others) expect(mod[m], `${route.name} vs ${m}`).not.toBe(mod[route.method]);
    }
  });
});

describe.each(PROTECTED)('$name (requires $requirement.label)', (route) => {
  it.each(CALLERS)('$name', async (caller) => {
    const res = await app.call(handlerOf(route.file, route.method), {
      method: route.method,
      ...route.request(),
      ...caller.options(),
    });
    const outcome = outcomeFor(route, caller);
    switch (outcome.kind) {
      case 'unauthorized':
        expectErrorBody(res, 401, 'UNAUTHORIZED');
        break;
      case 'ip-not-allowed':
        expectErrorBody(res, 403, 'IP_NOT_ALLOWED');
        break;
      case 'scoped': {
        const error = expectErrorBody(res, 403, 'INSUFFICIENT_SCOPE');
        expect(route.requirement.required).not.toBeNull();
        expect(error.details.required_scope).toBe(route.requirement.required);
        break;
      }
      case 'allowed':
        expect(res.status, res.text).not.toBe(401);
        expect(res.status, res.text).not.toBe(403);
        if (route.allowed.code) expectErrorBody(res, route.allowed.status, route.allowed.code);
        else expect(res.status, res.text).toBe(route.allowed.status);
        expect(res.headers.get('x-request-id')).toMatch(/^req_/);
        break;
    }
  });
});

describe('public routes need no key', () => {
  const credentials: [string, Pick<CallOptions, 'key' | 'headers'>][] = [
    ['no Authorization header', { key: null }],
    ['a malformed header', { key: null, headers: { authorization: 'Basic x' } }],
    ['an unknown key', { key: 'sk_test_' + 'x'.repeat(32) }],
    ['a revoked key', { key: '' }],
  ];
  const withRevoked = (opts: Pick<CallOptions, 'key' | 'headers'>) => (opts.key === '' ? { key: keys.revoked } : opts);

  it.each(credentials)('GET /health answers 200 healthy with %s', async (_, opts) => {
    const res = await app.call(healthRoute.GET, { path: '/health', ...withRevoked(opts) });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ status: 'healthy', version: expect.any(String) });
  });

  it.each(credentials)('GET /v1/openapi.json answers 200 with %s', async (_, opts) => {
    const res = await app.call(openapiRoute.GET, { path: '/v1/openapi.json', ...withRevoked(opts) });
    expect(res.status).toBe(200);
    expect(typeof res.body.openapi).toBe('string');
    expect(res.body.paths).toBeTypeOf('object');
  });

  it.each(credentials)('GET /v1/setup answers 200 with %s', async (_, opts) => {
    const res = await app.call(setupRoute.GET, { path: '/v1/setup', ...withRevoked(opts) });
    expect(res.status).toBe(200);
    expect(typeof res.body.setup_required).toBe('boolean');
  });

  it('the /v1/[...path] catch-all answers 404 NOT_FOUND to every method without a key', async () => {
    const methods = HTTP_METHODS.filter((m) => typeof (catchAllRoute as RouteModule)[m] === 'function');
    expect(methods).toEqual(expect.arrayContaining(['GET', 'POST', 'PUT', 'PATCH', 'DELETE']));
    for (const method of methods) {
      for (const [, opts] of credentials) {
        const res = await app.call((catchAllRoute as RouteModule)[method]!, {
          method,
          path: '/v1/no-such-thing',
          params: { path: ['no-such-thing'] },
          ...withRevoked(opts),
        });
        const error = expectErrorBody(res, 404, 'NOT_FOUND');
        expect(error.details.path).toBe('/v1/no-such-thing');
      }
    }
  });

  it('the 405 handlers of the public routes need no key either', async () => {
    for (const [mod, p] of [
      [healthRoute, '/health'],
      [openapiRoute, '/v1/openapi.json'],
    ] as const) {
      for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
        const res = await app.call((mod as RouteModule)[method]!, { method, path: p, key: null });
        expectErrorBody(res, 405, 'METHOD_NOT_ALLOWED');
        expect(res.headers.get('allow')).toBe('GET');
      }
    }
  });
});

describe('after the matrix', () => {
  it('left maintenance off and the seeded file in place', async () => {
    const m = await app.call(maintenanceRoute.GET, { path: '/admin/maintenance' });
    expect(m.body.enabled).toBe(false);
    const f = await app.call(fileRoute.GET, { path: `/v1/files/${seededFileId}`, params: { file_id: seededFileId } });
    expect(f.status).toBe(200);
  });
});
