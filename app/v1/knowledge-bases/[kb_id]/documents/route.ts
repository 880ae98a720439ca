import { json, otherMethods, route } from '@/lib/api/handler';
import { addDocumentBody, documentListQuery, kbIdParams } from '@/lib/api/schemas/knowledge-bases';
import { addDocument, listDocuments } from '@/lib/knowledge-bases/documents';

export const POST = route(
  { auth: 'kb:write', params: kbIdParams, body: addDocumentBody, idempotent: true, fieldErrors: { file_id: 'INVALID_FILE_ID' } },
  async ({ params, body, services }) => json(await addDocument(services, params.kb_id, body), 201),
);

export const GET = route({ auth: 'kb:read', params: kbIdParams, query: documentListQuery }, async ({ params, query, services }) =>
  json(await listDocuments(services, params.kb_id, query)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
