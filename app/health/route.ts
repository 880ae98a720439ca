import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { basicHealth } from '@/lib/ops/health';

export const GET = route(endpoints.getHealth, async () => basicHealth());

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
