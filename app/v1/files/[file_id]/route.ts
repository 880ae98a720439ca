import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getFile } from '@/lib/files/service';
import { deleteFile } from '@/lib/ingestion/delete-file';

export const GET = route(endpoints.getFile, ({ params, services }) => getFile(services, params.file_id));

export const DELETE = route(endpoints.deleteFile, ({ params, services }) => deleteFile(services, params.file_id));

export const { POST, PUT, PATCH } = otherMethods('GET', 'DELETE');
