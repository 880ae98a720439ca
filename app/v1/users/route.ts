import { json, otherMethods, route } from '@/lib/api/handler';
import { createUserBody, userListQuery } from '@/lib/api/schemas/users';
import { createUser, listUsers } from '@/lib/users/service';

export const GET = route({ auth: '*', query: userListQuery }, async ({ query, services }) => json(await listUsers(services, query)));

export const POST = route({ auth: '*', body: createUserBody, idempotent: true }, async ({ body, services }) =>
  json(await createUser(services, body), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
