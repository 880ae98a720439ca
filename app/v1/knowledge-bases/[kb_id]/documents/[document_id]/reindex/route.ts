import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { reindexDocument } from '@/lib/ingestion/retry';

export const POST = route(endpoints.reindexDocument, ({ params, body, services }) =>
  reindexDocument(services, params.kb_id, params.document_id, body.extraction_id),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
