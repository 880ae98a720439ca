import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { addDocumentToKnowledgeBase } from '@/lib/ingestion/add-document';
import { listDocuments } from '@/lib/knowledge-bases/documents';

export const POST = route(endpoints.addDocument, ({ params, body, services }) => addDocumentToKnowledgeBase(services, params.kb_id, body));

export const GET = route(endpoints.listDocuments, ({ params, query, services }) => listDocuments(services, params.kb_id, query));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
