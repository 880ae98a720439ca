import { json, otherMethods, route } from '@/lib/api/handler';
import { deliveryIdParams } from '@/lib/api/schemas/webhooks';
import { getDelivery } from '@/lib/webhooks/service';

export const GET = route({ auth: 'webhooks:*', params: deliveryIdParams }, async ({ params, services }) =>
  json(await getDelivery(services, params.webhook_id, params.delivery_id)),
);

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
