import { json, otherMethods, route } from '@/lib/api/handler';
import { paginationQuery } from '@/lib/api/schemas/common';
import { fileIdParams } from '@/lib/api/schemas/files';
import { listFileExtractions } from '@/lib/extraction/queries';

export const GET = route(
  { auth: 'extractions:read', params: fileIdParams, query: paginationQuery },
  async ({ params, query, services }) => {
    const { items, total } = await listFileExtractions(services, params.file_id, query);
    return json({ items, total, limit: query.limit, offset: query.offset });
  },
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
