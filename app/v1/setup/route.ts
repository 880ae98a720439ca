import { json, otherMethods, route } from '@/lib/api/handler';
import { setupBody } from '@/lib/api/schemas/users';
import { createFirstAdmin, setupStatus } from '@/lib/users/service';

export const GET = route({ auth: 'public' }, async ({ services }) => json(await setupStatus(services)));

export const POST = route({ auth: 'public', body: setupBody }, async ({ body, services }) => json(await createFirstAdmin(services, body), 201));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
