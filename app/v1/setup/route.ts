import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createFirstAdmin, setupStatus } from '@/lib/users/service';

export const GET = route(endpoints.getSetupStatus, ({ services }) => setupStatus(services));

export const POST = route(endpoints.completeSetup, ({ body, services }) => createFirstAdmin(services, body));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
