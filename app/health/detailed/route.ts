import { json, otherMethods, route } from '@/lib/api/handler';
import { detailedHealth } from '@/lib/ops/health';

export const GET = route({ auth: 'authenticated', duringMaintenance: true }, async ({ services }) => {
  const report = await detailedHealth(services);
  return json(report, report.status === 'healthy' ? 200 : 503);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
