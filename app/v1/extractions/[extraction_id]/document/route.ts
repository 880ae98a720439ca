import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getExtractionDocument } from '@/lib/extraction/service';

export const GET = route(endpoints.getExtractionDocument, ({ params, services }) => getExtractionDocument(services, params.extraction_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
