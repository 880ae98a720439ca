import { route } from '@/lib/api/handler';
import { ApiError } from '@/lib/errors';

/** Any /v1 path no route serves: 404 in the standard error body (no key needed to learn that). */
const unknownPath = route({ auth: 'public' }, async ({ request }) => {
  const { pathname } = new URL(request.url);
  throw new ApiError('NOT_FOUND', `No endpoint ${request.method} ${pathname}`, { path: pathname });
});

export const GET = unknownPath;
export const POST = unknownPath;
export const PUT = unknownPath;
export const PATCH = unknownPath;
export const DELETE = unknownPath;
