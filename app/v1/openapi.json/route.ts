import { json, otherMethods, route } from '@/lib/api/handler';
import { openApiDocument } from '@/lib/api/openapi';

export const GET = route({ auth: 'public' }, async () => json(openApiDocument()));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
