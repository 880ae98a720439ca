import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { createWebhook, listWebhooks } from '@/lib/webhooks/service';

export const GET = route(endpoints.listWebhooks, ({ query, services }) => listWebhooks(services, query));

export const POST = route(endpoints.createWebhook, ({ body, services }) => createWebhook(services, body));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
