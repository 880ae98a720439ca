import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { hybridSearchKnowledgeBase } from '@/lib/knowledge-bases/search';

export const POST = route(endpoints.hybridSearchKnowledgeBase, ({ params, body, services }) =>
  hybridSearchKnowledgeBase(services, params.kb_id, body),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
