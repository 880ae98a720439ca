import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { cancelExtraction } from '@/lib/extraction/service';

export const POST = route(endpoints.cancelExtraction, ({ params, services }) => cancelExtraction(services, params.extraction_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
