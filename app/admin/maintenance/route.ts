import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getMaintenance, setMaintenance } from '@/lib/ops/maintenance';

export const GET = route(endpoints.getMaintenance, ({ services }) => getMaintenance(services.db, { fresh: true }));

export const POST = route(endpoints.setMaintenance, ({ body, services }) => setMaintenance(services.db, body));

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
