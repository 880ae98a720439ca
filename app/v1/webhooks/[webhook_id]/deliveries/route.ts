import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { listDeliveries } from '@/lib/webhooks/service';

export const GET = route(endpoints.listDeliveries, ({ params, query, services }) => listDeliveries(services, params.webhook_id, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
