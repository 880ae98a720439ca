import { endpoint } from '../endpoint';
import { apiKeyIdParams, apiKeyListQuery, apiKeyListSchema, createApiKeyBody, createdApiKeySchema } from '../schemas/api-keys';

export const createApiKey = endpoint({
  id: 'createApiKey',
  method: 'POST',
  path: '/v1/api-keys',
  summary: 'Create an API key (the key is returned once)',
  auth: 'admin',
  body: createApiKeyBody,
  idempotent: true,
  response: { status: 201, description: 'Created', schema: createdApiKeySchema },
  errors: ['KNOWLEDGE_BASE_NOT_FOUND'],
});

export const listApiKeys = endpoint({
  id: 'listApiKeys',
  method: 'GET',
  path: '/v1/api-keys',
  summary: 'List API keys',
  auth: 'admin',
  query: apiKeyListQuery,
  response: { status: 200, description: 'A page of keys', schema: apiKeyListSchema },
  errors: [],
});

export const revokeApiKey = endpoint({
  id: 'revokeApiKey',
  method: 'DELETE',
  path: '/v1/api-keys/{key_id}',
  summary: 'Revoke an API key',
  auth: 'admin',
  params: apiKeyIdParams,
  response: { status: 204, description: 'Revoked' },
  errors: ['API_KEY_NOT_FOUND'],
});
