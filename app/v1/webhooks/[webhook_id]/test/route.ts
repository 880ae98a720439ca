import { json, otherMethods, route } from '@/lib/api/handler';
import { webhookIdParams } from '@/lib/api/schemas/webhooks';
import { sendTestEvent } from '@/lib/webhooks/service';

export const POST = route({ auth: 'webhooks:*', params: webhookIdParams }, async ({ params, services }) =>
  json(await sendTestEvent(services, params.webhook_id)),
);

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
