import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { updateUser } from '@/lib/users/service';

export const PATCH = route(endpoints.updateUser, ({ params, body, services }) => updateUser(services, params.user_id, body));

export const { GET, POST, PUT, DELETE } = otherMethods('PATCH');
