import { json, otherMethods, route } from '@/lib/api/handler';
import { hybridSearchBody, kbIdParams } from '@/lib/api/schemas/knowledge-bases';
import { hybridSearchKnowledgeBase } from '@/lib/knowledge-bases/search';

export const POST = route(
  { auth: ['kb:search', 'kb:read'], params: kbIdParams, body: hybridSearchBody },
  async ({ params, body, services }) => json(await hybridSearchKnowledgeBase(services, params.kb_id, body)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
