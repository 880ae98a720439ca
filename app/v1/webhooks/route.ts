import { json, otherMethods, route } from '@/lib/api/handler';
import { createWebhookBody, webhookListQuery } from '@/lib/api/schemas/webhooks';
import { createWebhook, listWebhooks } from '@/lib/webhooks/service';

export const GET = route({ auth: 'webhooks:*', query: webhookListQuery }, async ({ query, services }) => json(await listWebhooks(services, query)));

export const POST = route({ auth: 'webhooks:*', body: createWebhookBody, idempotent: true }, async ({ body, services }) =>
  json(await createWebhook(services, body), 201),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
