import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { retryDocument } from '@/lib/ingestion/retry';

export const POST = route(endpoints.retryDocument, ({ params, services }) => retryDocument(services, params.kb_id, params.document_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
