import { json, otherMethods, route } from '@/lib/api/handler';
import { maintenanceBody } from '@/lib/api/schemas/operations';
import { getMaintenance, setMaintenance } from '@/lib/ops/maintenance';

export const GET = route({ auth: 'admin', duringMaintenance: true }, async ({ services }) =>
  json(await getMaintenance(services.db, { fresh: true })),
);

export const POST = route({ auth: 'admin', body: maintenanceBody, duringMaintenance: true }, async ({ body, services }) =>
  json(await setMaintenance(services.db, body)),
);

export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST');
