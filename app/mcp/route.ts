import { otherMethods, route } from '@/lib/api/handler';
import { endpoints } from '@/lib/api/endpoints';
import { handleMcpRequest } from '@/lib/mcp/server';

export const POST = route(endpoints.mcp, ({ request, services }) => handleMcpRequest(request, services));

// Stateless: no server-initiated stream (GET) and no session to end (DELETE), as the transport allows.
export const { GET, PUT, PATCH, DELETE } = otherMethods('POST');
