import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { listRuns } from '@/lib/sources/service';

export const GET = route(endpoints.listSourceRuns, ({ params, query, services }) => listRuns(services, params.source_id, query));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
