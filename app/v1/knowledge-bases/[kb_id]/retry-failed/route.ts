import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { retryFailedDocuments } from '@/lib/ingestion/retry';

export const POST = route(endpoints.retryFailedDocuments, ({ params, services }) => retryFailedDocuments(services, params.kb_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
