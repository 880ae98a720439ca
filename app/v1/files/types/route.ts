import { json, otherMethods, route } from '@/lib/api/handler';
import { listFileTypes } from '@/lib/files/types';

export const GET = route({ auth: 'files:read' }, async () => json({ types: listFileTypes() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
