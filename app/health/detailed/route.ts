import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { detailedHealth } from '@/lib/ops/health';

export const GET = route(endpoints.getDetailedHealth, async ({ services, respond }) => {
  const report = await detailedHealth(services);
  return respond(report, report.status === 'healthy' ? 200 : 503);
});

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
