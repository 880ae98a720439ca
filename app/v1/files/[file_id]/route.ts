import { json, noContent, otherMethods, route } from '@/lib/api/handler';
import { fileIdParams } from '@/lib/api/schemas/files';
import { deleteFile, getFile } from '@/lib/files/service';

export const GET = route({ auth: 'files:read', params: fileIdParams }, async ({ params, services }) =>
  json(await getFile(services, params.file_id)),
);

export const DELETE = route({ auth: 'files:write', params: fileIdParams }, async ({ params, services }) => {
  await deleteFile(services, params.file_id);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods('GET', 'DELETE');
