import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createUser, listUsers } from '@/lib/users/service';

export const GET = route(endpoints.listUsers, ({ query, services }) => listUsers(services, query));

export const POST = route(endpoints.createUser, ({ body, services }) => createUser(services, body));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
