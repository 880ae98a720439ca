import type { z } from 'zod';
import type { Scope } from '@/lib/auth/scopes';
import type { ErrorCode } from '@/lib/errors';

/** Who may call a route: anyone, any valid key, an administrator, or holders of a scope (any of a list). */
export type AuthRule = 'public' | 'authenticated' | 'admin' | Scope | readonly Scope[];

export type HttpMethod = 'GET' | 'POST' | 'PATCH' | 'DELETE';

export interface EndpointResponse<R extends z.ZodType | undefined> {
  status: 200 | 201 | 202 | 204 | 207;
  description: string;
  /** The JSON body; none for 204. */
  schema?: R;
  /** A non-JSON body (downloads): its media type and a description of the bytes. */
  binary?: string;
}

/**
 * One operation of the API, declared once: the route validates and answers with it, and the
 * OpenAPI document, the security matrix and the README's scope table are derived from the list.
 */
export interface Endpoint<
  P extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  R extends z.ZodType | undefined = z.ZodType | undefined,
> {
  /** operationId: getFile, createExtraction… */
  id: string;
  method: HttpMethod;
  /** OpenAPI path: /v1/files/{file_id} */
  path: string;
  summary: string;
  auth: AuthRule;
  params?: P;
  query?: Q;
  body?: B;
  /** A body the handler reads itself (uploads, the MCP server); the schema documents it. */
  upload?: z.ZodType;
  /** The media type of `upload` (default multipart/form-data). */
  uploadMediaType?: string;
  response: EndpointResponse<R>;
  /** Other documented outcomes than errors (a 503 health report). */
  alternatives?: { status: number; description: string; schema: z.ZodType }[];
  /** Errors the operation itself may answer with, beyond those the wrapper adds (see errorCodesOf). */
  errors: readonly ErrorCode[];
  /** A creation endpoint: honours the Idempotency-Key header. */
  idempotent?: boolean;
  /** Still served while maintenance mode is on (health and /admin routes). */
  duringMaintenance?: boolean;
  /** Validation failures of these fields answer with their own error code instead of INVALID_REQUEST. */
  fieldErrors?: Record<string, ErrorCode>;
}

export function endpoint<
  P extends z.ZodType | undefined = undefined,
  Q extends z.ZodType | undefined = undefined,
  B extends z.ZodType | undefined = undefined,
  R extends z.ZodType | undefined = undefined,
>(def: Endpoint<P, Q, B, R>): Endpoint<P, Q, B, R> {
  return def;
}

/** Every error code an operation may answer with: its own, plus those the wrapper adds by its declaration. */
export function errorCodesOf(e: Endpoint): ErrorCode[] {
  const codes: ErrorCode[] = [];
  if (e.auth !== 'public') codes.push('UNAUTHORIZED', 'IP_NOT_ALLOWED', 'RATE_LIMIT_EXCEEDED');
  if (e.auth !== 'public' && e.auth !== 'authenticated') codes.push('INSUFFICIENT_SCOPE');
  if (e.query || e.body || e.upload) codes.push('INVALID_REQUEST');
  if (e.body) codes.push('PAYLOAD_TOO_LARGE');
  if (e.idempotent) codes.push('IDEMPOTENCY_KEY_REUSED', 'IDEMPOTENCY_KEY_IN_USE');
  if (!e.duringMaintenance) codes.push('SERVICE_UNAVAILABLE');
  for (const code of e.errors) if (!codes.includes(code)) codes.push(code);
  return codes;
}

/**
 * The permission an operation needs, in words: "files:read", "kb:search or kb:read",
 * "administrator (* or api-keys:*)"; `scope` formats each scope name (Markdown code in the README).
 */
export function authLabel(auth: AuthRule, scope: (name: string) => string = (name) => name): string {
  if (auth === 'public') return 'none';
  if (auth === 'authenticated') return 'any valid key or console session';
  if (auth === 'admin') return `administrator (${scope('*')} or ${scope('api-keys:*')})`;
  if (auth === '*') return `${scope('*')} (all permissions)`;
  return (typeof auth === 'string' ? [auth] : auth).map(scope).join(' or ');
}

/** The output type of a response schema: what a service returns for an endpoint. */
export type ResponseOf<E> = E extends Endpoint<any, any, any, infer R> ? (R extends z.ZodType ? z.output<R> : void) : never;
