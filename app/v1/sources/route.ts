import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createSource, listSources } from '@/lib/sources/service';

export const GET = route(endpoints.listSources, ({ query, services }) => listSources(services, query));

export const POST = route(endpoints.createSource, ({ body, services }) => createSource(services, body));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
