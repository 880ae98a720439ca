import { json, otherMethods, route } from '@/lib/api/handler';
import { apiKeyListQuery, createApiKeyBody } from '@/lib/api/schemas/api-keys';
import { createApiKey, listApiKeys } from '@/lib/auth/api-keys';
import { getConfig } from '@/lib/config';

export const POST = route({ auth: 'admin', body: createApiKeyBody, idempotent: true }, async ({ body, principal, services }) =>
  json(await createApiKey(services.db, principal, body, getConfig().keyEnv), 201),
);

export const GET = route({ auth: 'admin', query: apiKeyListQuery }, async ({ query, services }) => {
  const { items, total } = await listApiKeys(services.db, { ...query, sortBy: query.sort_by });
  return json({ items, total, limit: query.limit, offset: query.offset });
});

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
