import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { syncSource } from '@/lib/sources/service';

export const POST = route(endpoints.syncSource, ({ params, services }) => syncSource(services, params.source_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
