import { json, otherMethods, route } from '@/lib/api/handler';
import { deliveryListQuery, webhookIdParams } from '@/lib/api/schemas/webhooks';
import { listDeliveries } from '@/lib/webhooks/service';

export const GET = route({ auth: 'webhooks:*', params: webhookIdParams, query: deliveryListQuery }, async ({ params, query, services }) =>
  json(await listDeliveries(services, params.webhook_id, query)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
