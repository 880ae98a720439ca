import { endpoint } from '../endpoint';
import {
  createSourceBody,
  deleteSourceQuery,
  runListQuery,
  sourceIdParams,
  sourceListQuery,
  sourceListSchema,
  sourceRunDetailSchema,
  sourceRunIdParams,
  sourceRunListSchema,
  sourceRunSchema,
  sourceSchema,
  sourceTestSchema,
  testSourceBody,
  updateSourceBody,
  verifyCitationsBody,
  verifyCitationsSchema,
} from '../schemas/sources';

export const createSource = endpoint({
  id: 'createSource',
  method: 'POST',
  path: '/v1/sources',
  summary: 'Create a source that keeps a knowledge base in step with a bucket, a site or a URL (its first sync starts now)',
  auth: 'sources:write',
  body: createSourceBody,
  idempotent: true,
  response: { status: 201, description: 'Created', schema: sourceSchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const listSources = endpoint({
  id: 'listSources',
  method: 'GET',
  path: '/v1/sources',
  summary: 'List sources, newest first',
  auth: 'sources:read',
  query: sourceListQuery,
  response: { status: 200, description: 'A page of sources', schema: sourceListSchema },
  errors: [],
});

export const testSource = endpoint({
  id: 'testSource',
  method: 'POST',
  path: '/v1/sources/test',
  summary: 'Try a source’s settings: list the first items it would sync, storing nothing',
  auth: 'sources:write',
  body: testSourceBody,
  response: { status: 200, description: 'What was found, or why the source could not be read', schema: sourceTestSchema },
  errors: [],
});

export const getSource = endpoint({
  id: 'getSource',
  method: 'GET',
  path: '/v1/sources/{source_id}',
  summary: 'Source detail with its newest sync',
  auth: 'sources:read',
  params: sourceIdParams,
  response: { status: 200, description: 'The source', schema: sourceSchema },
  errors: ['SOURCE_NOT_FOUND'],
});

export const updateSource = endpoint({
  id: 'updateSource',
  method: 'PATCH',
  path: '/v1/sources/{source_id}',
  summary: 'Update a source’s name, config, credentials, schedule, extraction mode, chunking or enabled flag',
  auth: 'sources:write',
  params: sourceIdParams,
  body: updateSourceBody,
  response: { status: 200, description: 'The updated source', schema: sourceSchema },
  errors: ['SOURCE_NOT_FOUND'],
});

export const deleteSource = endpoint({
  id: 'deleteSource',
  method: 'DELETE',
  path: '/v1/sources/{source_id}',
  summary: 'Delete a source and its sync history, with its documents unless keep_documents=true',
  auth: 'sources:write',
  params: sourceIdParams,
  query: deleteSourceQuery,
  response: { status: 204, description: 'Deleted' },
  errors: ['SOURCE_NOT_FOUND'],
});

export const syncSource = endpoint({
  id: 'syncSource',
  method: 'POST',
  path: '/v1/sources/{source_id}/sync',
  summary: 'Sync now: fetch what changed, add what is new, remove what is gone',
  auth: 'sources:write',
  params: sourceIdParams,
  response: { status: 202, description: 'The sync, queued', schema: sourceRunSchema },
  errors: ['SOURCE_NOT_FOUND', 'SOURCE_BUSY'],
});

export const listSourceRuns = endpoint({
  id: 'listSourceRuns',
  method: 'GET',
  path: '/v1/sources/{source_id}/runs',
  summary: 'The history of syncs, newest first, with counts added, updated, unchanged, deleted, failed and skipped',
  auth: 'sources:read',
  params: sourceIdParams,
  query: runListQuery,
  response: { status: 200, description: 'A page of syncs', schema: sourceRunListSchema },
  errors: ['SOURCE_NOT_FOUND'],
});

export const getSourceRun = endpoint({
  id: 'getSourceRun',
  method: 'GET',
  path: '/v1/sources/{source_id}/runs/{run_id}',
  summary: 'One sync with each failure and its reason',
  auth: 'sources:read',
  params: sourceRunIdParams,
  response: { status: 200, description: 'The sync', schema: sourceRunDetailSchema },
  errors: ['SOURCE_NOT_FOUND', 'SOURCE_RUN_NOT_FOUND'],
});

export const verifyCitations = endpoint({
  id: 'verifyCitations',
  method: 'POST',
  path: '/v1/citations/verify',
  summary: 'Whether cited passages are still current, stale or gone (compared with each source’s version without downloading it)',
  auth: ['kb:search', 'kb:read'],
  body: verifyCitationsBody,
  response: { status: 200, description: 'A verdict per citation, in order', schema: verifyCitationsSchema },
  errors: [],
});
