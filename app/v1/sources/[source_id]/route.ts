import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { deleteSource, getSource, updateSource } from '@/lib/sources/service';

export const GET = route(endpoints.getSource, ({ params, services }) => getSource(services, params.source_id));

export const PATCH = route(endpoints.updateSource, ({ params, body, services }) => updateSource(services, params.source_id, body));

export const DELETE = route(endpoints.deleteSource, ({ params, query, services }) => deleteSource(services, params.source_id, query.keep_documents === 'true'));

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
