import { noContent, otherMethods, route } from '@/lib/api/handler';
import { apiKeyIdParams } from '@/lib/api/schemas/api-keys';
import { revokeApiKey } from '@/lib/auth/api-keys';

export const DELETE = route({ auth: 'admin', params: apiKeyIdParams }, async ({ params, services }) => {
  await revokeApiKey(services.db, params.key_id);
  return noContent();
});

export const { GET, POST, PUT, PATCH } = otherMethods('DELETE');
