import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { describePrincipal } from '@/lib/users/service';

export const GET = route(endpoints.getMe, ({ services }) => describePrincipal(services));

export const { POST, PUT, PATCH, DELETE } = otherMethods('GET');
