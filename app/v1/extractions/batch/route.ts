import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createExtractionsBatch } from '@/lib/ingestion/batch';

export const POST = route(endpoints.createExtractionsBatch, ({ body, services }) => createExtractionsBatch(services, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
