import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { addDocumentsBatch } from '@/lib/ingestion/batch';

export const POST = route(endpoints.addDocumentsBatch, ({ params, body, services }) => addDocumentsBatch(services, params.kb_id, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
