import { json, noContent, otherMethods, route } from '@/lib/api/handler';
import { documentIdParams } from '@/lib/api/schemas/knowledge-bases';
import { deleteDocument, getDocument } from '@/lib/knowledge-bases/documents';

export const GET = route({ auth: 'kb:read', params: documentIdParams }, async ({ params, services }) =>
  json(await getDocument(services, params.kb_id, params.document_id)),
);

export const DELETE = route({ auth: 'kb:write', params: documentIdParams }, async ({ params, services }) => {
  await deleteDocument(services, params.kb_id, params.document_id);
  return noContent();
});

export const { POST, PUT, PATCH } = otherMethods('GET', 'DELETE');
