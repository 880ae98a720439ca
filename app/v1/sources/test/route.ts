import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { testSource } from '@/lib/sources/test-connection';

export const POST = route(endpoints.testSource, ({ body, services }) => testSource(services, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
