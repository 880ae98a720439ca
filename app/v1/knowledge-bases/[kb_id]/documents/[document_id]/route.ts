import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { deleteDocument, getDocument } from '@/lib/knowledge-bases/documents';

export const GET = route(endpoints.getDocument, ({ params, services }) => getDocument(services, params.kb_id, params.document_id));

export const DELETE = route(endpoints.deleteDocument, ({ params, services }) => deleteDocument(services, params.kb_id, params.document_id));

export const { POST, PUT, PATCH } = otherMethods('GET', 'DELETE');
