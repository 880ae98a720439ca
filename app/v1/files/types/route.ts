import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { listFileTypes } from '@/lib/files/types';

export const GET = route(endpoints.listFileTypes, async () => ({ types: listFileTypes() }));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
