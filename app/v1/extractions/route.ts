import { json, otherMethods, route } from '@/lib/api/handler';
import { createExtractionBody } from '@/lib/api/schemas/extractions';
import { createExtraction } from '@/lib/extraction/service';

export const POST = route(
  { auth: 'extractions:write', body: createExtractionBody, idempotent: true, fieldErrors: { file_id: 'INVALID_FILE_ID' } },
  async ({ body, services }) => json(await createExtraction(services, body), 201),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
