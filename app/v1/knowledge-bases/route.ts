import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createKnowledgeBase, listKnowledgeBases } from '@/lib/knowledge-bases/service';

export const POST = route(endpoints.createKnowledgeBase, ({ body, services }) => createKnowledgeBase(services, body));

export const GET = route(endpoints.listKnowledgeBases, ({ query, services }) => listKnowledgeBases(services, query));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
