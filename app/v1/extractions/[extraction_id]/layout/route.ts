import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getExtractionLayout } from '@/lib/extraction/service';

export const GET = route(endpoints.getExtractionLayout, ({ params, services }) => getExtractionLayout(services, params.extraction_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
