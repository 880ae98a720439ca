import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { sendTestEvent } from '@/lib/webhooks/service';

export const POST = route(endpoints.testWebhook, ({ params, services }) => sendTestEvent(services, params.webhook_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
