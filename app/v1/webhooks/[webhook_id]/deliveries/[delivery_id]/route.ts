import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getDelivery } from '@/lib/webhooks/service';

export const GET = route(endpoints.getDelivery, ({ params, services }) => getDelivery(services, params.webhook_id, params.delivery_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
