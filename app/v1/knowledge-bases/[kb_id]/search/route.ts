import { json, otherMethods, route } from '@/lib/api/handler';
import { kbIdParams, searchBody } from '@/lib/api/schemas/knowledge-bases';
import { searchKnowledgeBase } from '@/lib/knowledge-bases/search';

export const POST = route({ auth: ['kb:search', 'kb:read'], params: kbIdParams, body: searchBody }, async ({ params, body, services }) =>
  json(await searchKnowledgeBase(services, params.kb_id, body)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
