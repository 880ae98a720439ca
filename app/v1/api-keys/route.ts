import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createApiKey, listApiKeys } from '@/lib/auth/api-keys';
import { getConfig } from '@/lib/config';

export const POST = route(endpoints.createApiKey, ({ body, principal, services }) =>
  createApiKey(services.db, principal, body, getConfig().keyEnv),
);

export const GET = route(endpoints.listApiKeys, ({ query, services }) => listApiKeys(services.db, { ...query, sortBy: query.sort_by }));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
