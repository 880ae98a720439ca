import { json, otherMethods, route } from '@/lib/api/handler';
import { eventListQuery } from '@/lib/api/schemas/operations';
import { listEvents } from '@/lib/events';

export const GET = route({ auth: 'webhooks:*', query: eventListQuery }, async ({ query, services }) => {
  const { items, total } = await listEvents(services.db, query);
  return json({ items, total, limit: query.limit, offset: query.offset });
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
