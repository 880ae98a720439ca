import { json, otherMethods, route } from '@/lib/api/handler';
import { extractionIdParams } from '@/lib/api/schemas/extractions';
import { getExtraction } from '@/lib/extraction/service';

export const GET = route({ auth: 'extractions:read', params: extractionIdParams }, async ({ params, services }) =>
  json(await getExtraction(services, params.extraction_id)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
