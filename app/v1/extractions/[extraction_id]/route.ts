import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getExtraction } from '@/lib/extraction/service';

export const GET = route(endpoints.getExtraction, ({ params, services }) => getExtraction(services, params.extraction_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
