import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { getRun } from '@/lib/sources/service';

export const GET = route(endpoints.getSourceRun, ({ params, services }) => getRun(services, params.source_id, params.run_id));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
