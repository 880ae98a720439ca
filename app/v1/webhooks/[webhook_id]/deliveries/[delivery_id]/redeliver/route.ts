import { json, otherMethods, route } from '@/lib/api/handler';
import { deliveryIdParams } from '@/lib/api/schemas/webhooks';
import { redeliver } from '@/lib/webhooks/service';

export const POST = route({ auth: 'webhooks:*', params: deliveryIdParams, idempotent: true }, async ({ params, services }) =>
  json(await redeliver(services, params.webhook_id, params.delivery_id), 201),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
