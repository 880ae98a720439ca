import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { revokeApiKey } from '@/lib/auth/api-keys';

export const DELETE = route(endpoints.revokeApiKey, ({ params, principal, services }) =>
  revokeApiKey(services.db, principal, params.key_id),
);

export const { GET, POST, PUT, PATCH } = otherMethods('DELETE');
