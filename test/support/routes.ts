import type { RouteHandler } from '@/lib/api/handler';
import * as maintenanceRoute from '@/app/admin/maintenance/route';
import * as healthDetailedRoute from '@/app/health/detailed/route';
import * as healthRoute from '@/app/health/route';
import * as mcpRoute from '@/app/mcp/route';
import * as catchAllRoute from '@/app/v1/[...path]/route';
import * as apiKeyRoute from '@/app/v1/api-keys/[key_id]/route';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as eventsRoute from '@/app/v1/events/route';
import * as extractionsRoute from '@/app/v1/extractions/route';
import * as extractionRoute from '@/app/v1/extractions/[extraction_id]/route';
import * as extractionCancelRoute from '@/app/v1/extractions/[extraction_id]/cancel/route';
import * as extractionLayoutRoute from '@/app/v1/extractions/[extraction_id]/layout/route';
import * as extractionDocumentRoute from '@/app/v1/extractions/[extraction_id]/document/route';
import * as downloadRoute from '@/app/v1/files/[file_id]/download/route';
import * as fileExtractionsRoute from '@/app/v1/files/[file_id]/extractions/route';
import * as kbsRoute from '@/app/v1/knowledge-bases/route';
import * as usersRoute from '@/app/v1/users/route';
import * as userRoute from '@/app/v1/users/[user_id]/route';
import * as setupRoute from '@/app/v1/setup/route';
import * as meRoute from '@/app/v1/me/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import * as webhookRoute from '@/app/v1/webhooks/[webhook_id]/route';
import * as webhookDeliveriesRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/route';
import * as webhookDeliveryRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/route';
import * as webhookRedeliverRoute from '@/app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/redeliver/route';
import * as webhookTestRoute from '@/app/v1/webhooks/[webhook_id]/test/route';
import * as kbRoute from '@/app/v1/knowledge-bases/[kb_id]/route';
import * as kbDocumentsRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/route';
import * as kbDocumentRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route';
import * as kbSearchRoute from '@/app/v1/knowledge-bases/[kb_id]/search/route';
import * as kbHybridRoute from '@/app/v1/knowledge-bases/[kb_id]/hybrid-search/route';
import * as kbDocumentRetryRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/retry/route';
import * as kbDocumentReindexRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/[document_id]/reindex/route';
import * as kbRetryFailedRoute from '@/app/v1/knowledge-bases/[kb_id]/retry-failed/route';
import * as kbDocumentsBatchRoute from '@/app/v1/knowledge-bases/[kb_id]/documents/batch/route';
import * as extractionsBatchRoute from '@/app/v1/extractions/batch/route';
import * as fileRoute from '@/app/v1/files/[file_id]/route';
import * as filesRoute from '@/app/v1/files/route';
import * as typesRoute from '@/app/v1/files/types/route';
import * as openapiRoute from '@/app/v1/openapi.json/route';
import * as citationsVerifyRoute from '@/app/v1/citations/verify/route';
import * as sourcesRoute from '@/app/v1/sources/route';
import * as sourceTestRoute from '@/app/v1/sources/test/route';
import * as sourceRoute from '@/app/v1/sources/[source_id]/route';
import * as sourceSyncRoute from '@/app/v1/sources/[source_id]/sync/route';
import * as sourceRunsRoute from '@/app/v1/sources/[source_id]/runs/route';
import * as sourceRunRoute from '@/app/v1/sources/[source_id]/runs/[run_id]/route';

export const HTTP_METHODS = ['GET', 'HEAD', 'OPTIONS', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export type Method = (typeof HTTP_METHODS)[number];
export type RouteModule = Partial<Record<Method, RouteHandler>>;

/** The route file serving an OpenAPI path: /v1/files/{file_id} → app/v1/files/[file_id]/route.ts. */
export function routeFileOf(apiPath: string): string {
  return `app${apiPath.replace(/\{(\w+)\}/g, '[$1]')}/route.ts`;
}

/** Every route file under app/, keyed by its path relative to the repository. */
export const ROUTE_FILES: Record<string, RouteModule> = {
  'app/admin/maintenance/route.ts': maintenanceRoute,
  'app/health/detailed/route.ts': healthDetailedRoute,
  'app/health/route.ts': healthRoute,
  'app/mcp/route.ts': mcpRoute,
  'app/v1/[...path]/route.ts': catchAllRoute,
  'app/v1/api-keys/[key_id]/route.ts': apiKeyRoute,
  'app/v1/api-keys/route.ts': apiKeysRoute,
  'app/v1/events/route.ts': eventsRoute,
  'app/v1/extractions/route.ts': extractionsRoute,
  'app/v1/extractions/[extraction_id]/route.ts': extractionRoute,
  'app/v1/extractions/[extraction_id]/cancel/route.ts': extractionCancelRoute,
  'app/v1/extractions/[extraction_id]/layout/route.ts': extractionLayoutRoute,
  'app/v1/extractions/[extraction_id]/document/route.ts': extractionDocumentRoute,
  'app/v1/files/[file_id]/download/route.ts': downloadRoute,
  'app/v1/files/[file_id]/extractions/route.ts': fileExtractionsRoute,
  'app/v1/files/[file_id]/route.ts': fileRoute,
  'app/v1/files/route.ts': filesRoute,
  'app/v1/files/types/route.ts': typesRoute,
  'app/v1/openapi.json/route.ts': openapiRoute,
  'app/v1/knowledge-bases/route.ts': kbsRoute,
  'app/v1/users/route.ts': usersRoute,
  'app/v1/users/[user_id]/route.ts': userRoute,
  'app/v1/setup/route.ts': setupRoute,
  'app/v1/me/route.ts': meRoute,
  'app/v1/webhooks/route.ts': webhooksRoute,
  'app/v1/webhooks/[webhook_id]/route.ts': webhookRoute,
  'app/v1/webhooks/[webhook_id]/deliveries/route.ts': webhookDeliveriesRoute,
  'app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/route.ts': webhookDeliveryRoute,
  'app/v1/webhooks/[webhook_id]/deliveries/[delivery_id]/redeliver/route.ts': webhookRedeliverRoute,
  'app/v1/webhooks/[webhook_id]/test/route.ts': webhookTestRoute,
  'app/v1/knowledge-bases/[kb_id]/route.ts': kbRoute,
  'app/v1/knowledge-bases/[kb_id]/documents/route.ts': kbDocumentsRoute,
  'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/route.ts': kbDocumentRoute,
  'app/v1/knowledge-bases/[kb_id]/search/route.ts': kbSearchRoute,
  'app/v1/knowledge-bases/[kb_id]/hybrid-search/route.ts': kbHybridRoute,
  'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/retry/route.ts': kbDocumentRetryRoute,
  'app/v1/knowledge-bases/[kb_id]/documents/[document_id]/reindex/route.ts': kbDocumentReindexRoute,
  'app/v1/knowledge-bases/[kb_id]/retry-failed/route.ts': kbRetryFailedRoute,
  'app/v1/knowledge-bases/[kb_id]/documents/batch/route.ts': kbDocumentsBatchRoute,
  'app/v1/extractions/batch/route.ts': extractionsBatchRoute,
  'app/v1/citations/verify/route.ts': citationsVerifyRoute,
  'app/v1/sources/route.ts': sourcesRoute,
  'app/v1/sources/test/route.ts': sourceTestRoute,
  'app/v1/sources/[source_id]/route.ts': sourceRoute,
  'app/v1/sources/[source_id]/sync/route.ts': sourceSyncRoute,
  'app/v1/sources/[source_id]/runs/route.ts': sourceRunsRoute,
  'app/v1/sources/[source_id]/runs/[run_id]/route.ts': sourceRunRoute,
};


export {
  maintenanceRoute,
  healthDetailedRoute,
  healthRoute,
  catchAllRoute,
  apiKeyRoute,
  apiKeysRoute,
  eventsRoute,
  extractionsRoute,
  extractionRoute,
  extractionCancelRoute,
  downloadRoute,
  fileExtractionsRoute,
  kbsRoute,
  usersRoute,
  userRoute,
  setupRoute,
  meRoute,
  webhooksRoute,
  webhookRoute,
  webhookDeliveriesRoute,
  webhookDeliveryRoute,
  webhookRedeliverRoute,
  webhookTestRoute,
  kbRoute,
  kbDocumentsRoute,
  kbDocumentRoute,
  kbSearchRoute,
  kbHybridRoute,
  fileRoute,
  filesRoute,
  typesRoute,
  openapiRoute,
  citationsVerifyRoute,
  sourcesRoute,
  sourceTestRoute,
  sourceRoute,
  sourceSyncRoute,
  sourceRunsRoute,
  sourceRunRoute,
};
