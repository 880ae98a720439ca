import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { verifyCitations } from '@/lib/sources/citations';

export const POST = route(endpoints.verifyCitations, ({ body, services }) => verifyCitations(services, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
