import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { deleteKnowledgeBase, getKnowledgeBase, updateKnowledgeBase } from '@/lib/knowledge-bases/service';

export const GET = route(endpoints.getKnowledgeBase, ({ params, services }) => getKnowledgeBase(services, params.kb_id));

export const PATCH = route(endpoints.updateKnowledgeBase, ({ params, body, services }) => updateKnowledgeBase(services, params.kb_id, body));

export const DELETE = route(endpoints.deleteKnowledgeBase, ({ params, services }) => deleteKnowledgeBase(services, params.kb_id));

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
