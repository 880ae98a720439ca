import { json, noContent, otherMethods, route } from '@/lib/api/handler';
import { kbIdParams, updateKnowledgeBaseBody } from '@/lib/api/schemas/knowledge-bases';
import { deleteKnowledgeBase, getKnowledgeBase, updateKnowledgeBase } from '@/lib/knowledge-bases/service';

export const GET = route({ auth: 'kb:read', params: kbIdParams }, async ({ params, services }) =>
  json(await getKnowledgeBase(services, params.kb_id)),
);

export const PATCH = route({ auth: 'kb:write', params: kbIdParams, body: updateKnowledgeBaseBody }, async ({ params, body, services }) =>
  json(await updateKnowledgeBase(services, params.kb_id, body)),
);

export const DELETE = route({ auth: 'kb:write', params: kbIdParams }, async ({ params, services }) => {
  await deleteKnowledgeBase(services, params.kb_id);
  return noContent();
});

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
