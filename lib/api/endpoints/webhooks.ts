import { endpoint } from '../endpoint';
import {
  createdWebhookSchema,
  createWebhookBody,
  deliveryIdParams,
  deliveryListQuery,
  deliveryListSchema,
  deliverySchema,
  updateWebhookBody,
  webhookIdParams,
  webhookListQuery,
  webhookListSchema,
  webhookSchema,
} from '../schemas/webhooks';

export const createWebhook = endpoint({
  id: 'createWebhook',
  method: 'POST',
  path: '/v1/webhooks',
  summary: 'Create a webhook (enabled; the secret is write-only)',
  auth: 'webhooks:*',
  body: createWebhookBody,
  idempotent: true,
  response: { status: 201, description: 'Created', schema: createdWebhookSchema },
  errors: [],
});

export const listWebhooks = endpoint({
  id: 'listWebhooks',
  method: 'GET',
  path: '/v1/webhooks',
  summary: 'List webhooks',
  auth: 'webhooks:*',
  query: webhookListQuery,
  response: { status: 200, description: 'A page of webhooks', schema: webhookListSchema },
  errors: [],
});

export const getWebhook = endpoint({
  id: 'getWebhook',
  method: 'GET',
  path: '/v1/webhooks/{webhook_id}',
  summary: 'Webhook detail',
  auth: 'webhooks:*',
  params: webhookIdParams,
  response: { status: 200, description: 'The webhook', schema: webhookSchema },
  errors: ['WEBHOOK_NOT_FOUND'],
});

export const updateWebhook = endpoint({
  id: 'updateWebhook',
  method: 'PATCH',
  path: '/v1/webhooks/{webhook_id}',
  summary: 'Update events and enabled (and url, secret)',
  auth: 'webhooks:*',
  params: webhookIdParams,
  body: updateWebhookBody,
  response: { status: 200, description: 'The updated webhook', schema: webhookSchema },
  errors: ['WEBHOOK_NOT_FOUND'],
});

export const deleteWebhook = endpoint({
  id: 'deleteWebhook',
  method: 'DELETE',
  path: '/v1/webhooks/{webhook_id}',
  summary: 'Delete a webhook and its delivery history',
  auth: 'webhooks:*',
  params: webhookIdParams,
  response: { status: 204, description: 'Deleted' },
  errors: ['WEBHOOK_NOT_FOUND'],
});

export const listDeliveries = endpoint({
  id: 'listDeliveries',
  method: 'GET',
  path: '/v1/webhooks/{webhook_id}/deliveries',
  summary: 'Delivery history, newest first',
  auth: 'webhooks:*',
  params: webhookIdParams,
  query: deliveryListQuery,
  response: { status: 200, description: 'A page of deliveries', schema: deliveryListSchema },
  errors: ['WEBHOOK_NOT_FOUND'],
});

export const getDelivery = endpoint({
  id: 'getDelivery',
  method: 'GET',
  path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}',
  summary: 'A delivery with its payload and every attempt',
  auth: 'webhooks:*',
  params: deliveryIdParams,
  response: { status: 200, description: 'The delivery', schema: deliverySchema },
  errors: ['WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND'],
});

export const redeliver = endpoint({
  id: 'redeliver',
  method: 'POST',
  path: '/v1/webhooks/{webhook_id}/deliveries/{delivery_id}/redeliver',
  summary: 'Send a delivery again, as a new delivery with the same body',
  auth: 'webhooks:*',
  params: deliveryIdParams,
  idempotent: true,
  response: { status: 201, description: 'The new delivery, pending', schema: deliverySchema },
  errors: ['WEBHOOK_NOT_FOUND', 'DELIVERY_NOT_FOUND', 'WEBHOOK_DISABLED'],
});

export const testWebhook = endpoint({
  id: 'testWebhook',
  method: 'POST',
  path: '/v1/webhooks/{webhook_id}/test',
  summary: 'Send a signed webhook.test event now (one attempt, recorded in the history)',
  auth: 'webhooks:*',
  params: webhookIdParams,
  response: { status: 200, description: 'The delivery with its attempt', schema: deliverySchema },
  errors: ['WEBHOOK_NOT_FOUND'],
});
