import { json, otherMethods, route } from '@/lib/api/handler';
import { describePrincipal } from '@/lib/users/service';

export const GET = route({ auth: 'authenticated' }, async ({ services }) => json(await describePrincipal(services)));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
