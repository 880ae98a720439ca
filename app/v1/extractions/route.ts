import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createExtraction } from '@/lib/extraction/service';

export const POST = route(endpoints.createExtraction, ({ body, services }) => createExtraction(services, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
