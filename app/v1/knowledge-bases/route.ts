import { json, otherMethods, route } from '@/lib/api/handler';
import { createKnowledgeBaseBody, kbListQuery } from '@/lib/api/schemas/knowledge-bases';
import { createKnowledgeBase, listKnowledgeBases } from '@/lib/knowledge-bases/service';

export const POST = route({ auth: 'kb:write', body: createKnowledgeBaseBody, idempotent: true }, async ({ body, services }) =>
  json(await createKnowledgeBase(services, body), 201),
);

export const GET = route({ auth: 'kb:read', query: kbListQuery }, async ({ query, services }) =>
  json(await listKnowledgeBases(services, query)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
