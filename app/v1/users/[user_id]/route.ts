import { json, otherMethods, route } from '@/lib/api/handler';
import { updateUserBody, userIdParams } from '@/lib/api/schemas/users';
import { updateUser } from '@/lib/users/service';

export const PATCH = route({ auth: '*', params: userIdParams, body: updateUserBody }, async ({ params, body, services }) =>
  json(await updateUser(services, params.user_id, body)),
);

export const { GET, POST, PUT, DELETE } = otherMethods('PATCH');
