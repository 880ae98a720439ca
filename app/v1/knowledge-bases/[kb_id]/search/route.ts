import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { searchKnowledgeBase } from '@/lib/knowledge-bases/search';

export const POST = route(endpoints.searchKnowledgeBase, ({ params, body, services }) => searchKnowledgeBase(services, params.kb_id, body));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
