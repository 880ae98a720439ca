import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { openApiDocument } from '@/lib/api/openapi';

export const GET = route(endpoints.getOpenApiDocument, async () => openApiDocument() as unknown as Record<string, unknown>);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
