import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { deleteWebhook, getWebhook, updateWebhook } from '@/lib/webhooks/service';

export const GET = route(endpoints.getWebhook, ({ params, services }) => getWebhook(services, params.webhook_id));

export const PATCH = route(endpoints.updateWebhook, ({ params, body, services }) => updateWebhook(services, params.webhook_id, body));

export const DELETE = route(endpoints.deleteWebhook, ({ params, services }) => deleteWebhook(services, params.webhook_id));

export const { POST, PUT } = otherMethods('GET', 'PATCH', 'DELETE');
