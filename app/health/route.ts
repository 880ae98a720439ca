import { json, otherMethods, route } from '@/lib/api/handler';
import { basicHealth } from '@/lib/ops/health';

export const GET = route({ auth: 'public', duringMaintenance: true }, async () => json(basicHealth()));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
