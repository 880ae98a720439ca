import { json, otherMethods, route } from '@/lib/api/handler';
import { extractionIdParams } from '@/lib/api/schemas/extractions';
import { cancelExtraction } from '@/lib/extraction/service';

export const POST = route({ auth: 'extractions:write', params: extractionIdParams }, async ({ params, services }) =>
  json(await cancelExtraction(services, params.extraction_id)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
