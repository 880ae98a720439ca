import { json, noContent, otherMethods, route } from '@/lib/api/handler';
import { updateWebhookBody, webhookIdParams } from '@/lib/api/schemas/webhooks';
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/service';

export const GET = route({ auth: 'webhooks:*', params: webhookIdParams }, async ({ params, services }) =>
  json(await getWebhook(services, params.webhook_id)),
);

export const PATCH = route({ auth: 'webhooks:*', params: webhookIdParams, body: updateWebhookBody }, async ({ params, body, services }) =>
  json(await updateWebhook(services, params.webhook_id, body)),
);

export const DELETE = route({ auth: 'webhooks:*', params: webhookIdParams }, async ({ params, services }) => {
  await deleteWebhook(services, params.webhook_id);
  return noContent();
});

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
