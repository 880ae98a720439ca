import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { redeliver } from '@/lib/webhooks/service';

export const POST = route(endpoints.redeliver, ({ params, services }) => redeliver(services, params.webhook_id, params.delivery_id));

export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
