import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { listEvents } from '@/lib/events';

export const GET = route(endpoints.listEvents, ({ query, services }) => listEvents(services.db, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
