import { isDeepStrictEqual } from 'node:util';
import { z } from 'zod';
import { authenticate, ENV_ADMIN_KEY_ID, type Principal } from '@/lib/auth/api-keys';
import { ipAllowed } from '@/lib/auth/ip';
import { checkSameOrigin, hasSessionCookie, sessionPrincipal } from '@/lib/users/session';
import { hasAnyScope, isAdministrator } from '@/lib/auth/scopes';
import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { newId } from '@/lib/ids';
import { getMaintenance, maintenanceMessage } from '@/lib/ops/maintenance';
import { ensureReady } from '@/lib/ops/startup';
import { getStorage } from '@/lib/storage';
import { findUnsafeValue } from '@/lib/text/clean';
import { clientIp } from './client-ip';
import { ApiError, errorResponse, isApiError, type ErrorCode } from '@/lib/errors';
import { fingerprintOf, runIdempotent, validateIdempotencyKey } from './idempotency';
import type { AuthRule, Endpoint } from './endpoint';
import { consumeRateLimit, consumeRateLimitInMemory, rateLimitError } from './rate-limit';

export type { AuthRule } from './endpoint';

/** A route that is not an operation of the API (the /v1 catch-all): the wrapper's checks only. */
export interface RouteConfig<P extends z.ZodType | undefined, Q extends z.ZodType | undefined, B extends z.ZodType | undefined> {
  auth: AuthRule;
  params?: P;
  query?: Q;
  body?: B;
  /** A creation endpoint: honours the Idempotency-Key header. */
  idempotent?: boolean;
  /** Still served while maintenance mode is on (health and /admin routes). */
  duringMaintenance?: boolean;
  /** Validation failures of these fields answer with their own error code instead of INVALID_REQUEST. */
  fieldErrors?: Record<string, ErrorCode>;
}

export interface HandlerContext<P, Q, B> {
  request: Request;
  requestId: string;
  principal: Principal;
  params: P;
  query: Q;
  body: B;
  services: ServiceContext;
  /**
   * Runs a creation effect under the request's Idempotency-Key (if any). JSON routes are wrapped
   * automatically; upload routes call this once they know what the request contains.
   */
  once(fingerprint: string, effect: () => Promise<Response>): Promise<Response>;
  /** The response for a result: the endpoint's status (or `status`), checked against its schema under test. */
  respond(data: unknown, status?: number): Response;
}

type Output<T> = T extends z.ZodType ? z.output<T> : undefined;
type Result<R> = R extends z.ZodType ? z.output<R> : void;

/**
 * Under test (and with QUARRY_VALIDATE_RESPONSES=1) every JSON response is parsed with the
 * schema its endpoint documents, and a field the schema does not list counts as a mismatch: a
 * documented shape that drifts from what is sent fails the tests with a 500 naming the field.
 */
const validateResponses = () => process.env.VITEST !== undefined || process.env.QUARRY_VALIDATE_RESPONSES === '1';

function checkResponse(e: Endpoint, status: number, data: unknown): void {
  const schema = status === e.response.status ? e.response.schema : e.alternatives?.find((a) => a.status === status)?.schema;
  if (!schema) throw new Error(`${e.id} answered ${status}, which its endpoint does not document`);
  const plain: unknown = JSON.parse(JSON.stringify(data ?? null));
  const parsed = schema.safeParse(plain);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new Error(`${e.id}: the response does not match its schema at ${issue.path.join('.') || '(root)'}: ${issue.message}`);
  }
  if (!isDeepStrictEqual(parsed.data, plain)) {
    throw new Error(`${e.id}: the response has fields its schema does not document: ${JSON.stringify(undocumented(plain, parsed.data))}`);
  }
}

/** The paths of values present in `sent` but not in what the schema kept. */
function undocumented(sent: unknown, kept: unknown, at = ''): string[] {
  if (sent === null || typeof sent !== 'object') return isDeepStrictEqual(sent, kept) ? [] : [at || '(root)'];
  if (kept === null || typeof kept !== 'object') return [at || '(root)'];
  const out: string[] = [];
  for (const [key, value] of Object.entries(sent)) {
    const path = at ? `${at}.${key}` : key;
    if (!(key in kept)) out.push(path);
    else out.push(...undocumented(value, (kept as Record<string, unknown>)[key], path));
  }
  return out;
}

export type RouteHandler = (request: Request, context: { params: Promise<Record<string, string | string[]>> }) => Promise<Response>;

const ANONYMOUS: Principal = { keyId: 'anonymous', name: 'anonymous', scopes: [], allowedIps: null };
export const MAX_JSON_BODY_BYTES = 1024 * 1024;

export function json(data: unknown, status = 200): Response {
  return Response.json(data, { status });
}

export function noContent(): Response {
  return new Response(null, { status: 204 });
}

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;

/**
 * Handlers for the methods a route does not serve, answering 405 in the standard error body:
 * `export const { PUT, PATCH, DELETE } = otherMethods('GET', 'POST')`.
 */
export function otherMethods(...allowed: (typeof METHODS)[number][]): Record<(typeof METHODS)[number], RouteHandler> {
  const handler: RouteHandler = async () => {
    const requestId = newId('request');
    const res = errorResponse(
      new ApiError('METHOD_NOT_ALLOWED', `This endpoint supports ${allowed.join(', ')}`, { allowed }),
      requestId,
    );
    res.headers.set('Allow', allowed.join(', '));
    return res;
  };
  return Object.fromEntries(METHODS.map((m) => [m, handler])) as Record<(typeof METHODS)[number], RouteHandler>;
}

function validationError(error: z.ZodError, where: string, fieldErrors: Record<string, ErrorCode> = {}): ApiError {
  const issues = error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : where,
    reason: issue.message,
  }));
  const first = issues[0];
  return new ApiError(fieldErrors[first.field] ?? 'INVALID_REQUEST', `Invalid ${where}: ${first.field}: ${first.reason}`, { ...first, issues });
}

/** Refuses values PostgreSQL cannot store (NUL, unpaired surrogates) and over-deep JSON, naming the field. */
function rejectUnsafe(value: unknown, where: string, fieldErrors: Record<string, ErrorCode> = {}): void {
  const unsafe = findUnsafeValue(value, '');
  if (!unsafe) return;
  const field = unsafe.field || where;
  const issue = { field, reason: unsafe.reason };
  throw new ApiError(fieldErrors[field.split('.')[0]] ?? 'INVALID_REQUEST', `Invalid ${where}: ${field}: ${unsafe.reason}`, { ...issue, issues: [issue] });
}

function parseWith<T extends z.ZodType>(
  schema: T | undefined,
  value: unknown,
  where: string,
  fieldErrors?: Record<string, ErrorCode>,
): Output<T> {
  if (!schema) return undefined as Output<T>;
  const result = schema.safeParse(value);
  if (!result.success) throw validationError(result.error, where, fieldErrors);
  return result.data as Output<T>;
}

/**
 * Validates values a handler reads itself (the text parts of an upload) the way the wrapper
 * validates a JSON body: 400 INVALID_REQUEST naming the field.
 */
export function validate<T extends z.ZodType>(schema: T, value: unknown, where: string): z.output<T> {
  rejectUnsafe(value, where);
  return parseWith(schema, value, where) as z.output<T>;
}

async function readJsonBody(request: Request): Promise<unknown> {
  const declared = Number(request.headers.get('content-length') ?? '0');
  if (declared > MAX_JSON_BODY_BYTES) {
    throw new ApiError('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${MAX_JSON_BODY_BYTES / 1024} KB`);
  }
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (request.body) {
    const reader = request.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_JSON_BODY_BYTES) {
        await reader.cancel();
        throw new ApiError('PAYLOAD_TOO_LARGE', `Request bodies are limited to ${MAX_JSON_BODY_BYTES / 1024} KB`);
      }
      chunks.push(value);
    }
  }
  const raw = Buffer.concat(chunks).toString('utf8');
  if (raw.trim() === '') return {};
  try {
    return JSON.parse(raw);
  } catch {
    throw new ApiError('INVALID_REQUEST', 'The request body is not valid JSON', { field: 'body', reason: 'invalid JSON' });
  }
}

function authorize(principal: Principal, rule: AuthRule): void {
  if (rule === 'public' || rule === 'authenticated') return;
  // A key limited to knowledge bases holds only files, extractions, kb and sources scopes (see lib/auth/reach.ts).
  const limited = principal.knowledgeBaseIds ? ' (it is limited to knowledge bases)' : '';
  if (rule === 'admin') {
    if (!isAdministrator(principal.scopes)) {
      throw new ApiError('INSUFFICIENT_SCOPE', `This endpoint needs an administrator key (scope "*" or "api-keys:*")${limited}`, {
        required_scope: 'api-keys:*',
      });
    }
    return;
  }
  const anyOf: readonly string[] = typeof rule === 'string' ? [rule] : rule;
  if (!hasAnyScope(principal.scopes, anyOf)) {
    const wanted = anyOf.length === 1 && anyOf[0] === '*' ? '"*" (all permissions)' : anyOf.join(' or ');
    throw new ApiError('INSUFFICIENT_SCOPE', `This API key lacks the scope ${wanted}${limited}`, {
      required_scope: anyOf[0],
      ...(anyOf.length > 1 ? { accepted_scopes: anyOf } : {}),
    });
  }
}

function bearerToken(request: Request): string | null {
  const header = request.headers.get('authorization');
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new ApiError('UNAUTHORIZED', 'The Authorization header must have the form "Bearer <API key>"');
  return match[1];
}

/**
 * The one wrapper every /v1 and operations route goes through: request id, maintenance mode,
 * authentication (API key, or a console session with a same-origin check), IP allow-list, rate
 * limit, scopes, validation, idempotency and the error body.
 */
export function route<
  P extends z.ZodType | undefined,
  Q extends z.ZodType | undefined,
  B extends z.ZodType | undefined,
  R extends z.ZodType | undefined,
>(
  endpoint: Endpoint<P, Q, B, R>,
  handler: (ctx: HandlerContext<Output<P>, Output<Q>, Output<B>>) => Promise<Result<R> | Response>,
): RouteHandler;
export function route<P extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined, B extends z.ZodType | undefined = undefined>(
  config: RouteConfig<P, Q, B>,
  handler: (ctx: HandlerContext<Output<P>, Output<Q>, Output<B>>) => Promise<Response>,
): RouteHandler;
export function route(
  config: RouteConfig<z.ZodType | undefined, z.ZodType | undefined, z.ZodType | undefined> | Endpoint,
  handler: (ctx: HandlerContext<unknown, unknown, unknown>) => Promise<unknown>,
): RouteHandler {
  const op = 'id' in config ? config : undefined;
  // An upload endpoint reads its body itself and calls `once` when it knows what was sent.
  const rawBody = op?.upload !== undefined;
  const respond = (data: unknown, status?: number): Response => {
    if (!op) throw new Error('respond() needs an endpoint declaration');
    const code = status ?? op.response.status;
    if (code === 204) return new Response(null, { status: 204 });
    if (validateResponses()) checkResponse(op, code, data);
    return Response.json(data, { status: code });
  };
  const toResponse = (result: unknown): Response => (result instanceof Response ? result : respond(result));
  return async (request, routeContext) => {
    const requestId = newId('request');
    const extraHeaders: Record<string, string> = {};
    let response: Response;
    try {
      const { db, kind } = await ensureReady();
      const appConfig = getConfig();
      if (!config.duringMaintenance) {
        const maintenance = await getMaintenance(db);
        if (maintenance.enabled) {
          throw new ApiError('SERVICE_UNAVAILABLE', maintenanceMessage(maintenance), { maintenance: true }, undefined, {
            'Retry-After': '60',
          });
        }
      }

      let principal = ANONYMOUS;
      if (config.auth !== 'public') {
        const token = bearerToken(request);
        const session = token === null && hasSessionCookie(request) ? await sessionPrincipal(db, request) : null;
        if (session) {
          checkSameOrigin(request, appConfig.trustProxy);
          principal = session;
        } else {
          principal = await authenticate(db, token, appConfig.adminKey, new Date(), { cache: kind === 'pglite' });
        }
        if (principal.allowedIps && principal.allowedIps.length > 0) {
          const ip = clientIp(request.headers, appConfig.trustProxy);
          if (!ipAllowed(ip, principal.allowedIps)) {
            throw new ApiError('IP_NOT_ALLOWED', `This API key may not be used from ${ip ?? 'an unknown address'}`, {
              ip: ip ?? null,
            });
          }
        }
        // The embedded database is served by one process only, so memory counts exactly; the
        // environment admin key is counted in memory too, so it still works when the database does not.
        const limit =
          kind === 'pglite' || principal.keyId === ENV_ADMIN_KEY_ID
            ? consumeRateLimitInMemory(principal.keyId, appConfig.rateLimitPerMinute)
            : await consumeRateLimit(db, principal.keyId, appConfig.rateLimitPerMinute);
        Object.assign(extraHeaders, limit.headers);
        if (!limit.allowed) throw rateLimitError(limit);
        authorize(principal, config.auth);
      }

      const url = new URL(request.url);
      const rawParams = await routeContext.params;
      rejectUnsafe(rawParams, 'path parameter', config.fieldErrors);
      const params = parseWith(config.params, rawParams, 'path parameter');
      const rawQuery = Object.fromEntries(url.searchParams);
      rejectUnsafe(rawQuery, 'query parameter', config.fieldErrors);
      const query = parseWith(config.query, rawQuery, 'query parameter');
      let body: unknown = undefined;
      if (config.body) {
        const rawBody = await readJsonBody(request);
        rejectUnsafe(rawBody, 'request body', config.fieldErrors);
        body = parseWith(config.body, rawBody, 'request body', config.fieldErrors);
      }

      const idempotencyKey = config.idempotent ? request.headers.get('idempotency-key') : null;
      if (idempotencyKey !== null) validateIdempotencyKey(idempotencyKey);
      const services: ServiceContext = { db, storage: getStorage(), requestId, principal };
      const ctx: HandlerContext<unknown, unknown, unknown> = {
        request,
        requestId,
        principal,
        params,
        query,
        body,
        services,
        once: (fingerprint, effect) =>
          idempotencyKey === null
            ? effect()
            : runIdempotent(
                { db, principal: principal.keyId, key: idempotencyKey, method: request.method, path: url.pathname },
                fingerprint,
                effect,
              ),
        respond,
      };
      response =
        rawBody || idempotencyKey === null
          ? toResponse(await handler(ctx))
          : // The validated body is the fingerprint: key order and whitespace do not make a request different.
            await ctx.once(fingerprintOf(request.method, url.pathname, JSON.stringify(body ?? null)), async () => toResponse(await handler(ctx)));
    } catch (err) {
      response = errorResponse(toApiError(err, requestId), requestId);
    }
    for (const [name, value] of Object.entries(extraHeaders)) {
      if (!response.headers.has(name)) response.headers.set(name, value);
    }
    response.headers.set('X-Request-Id', requestId);
    return response;
  };
}

function toApiError(err: unknown, requestId: string): ApiError {
  if (isApiError(err)) return err;
  console.error(`[${requestId}] unhandled error`, err);
  return new ApiError('INTERNAL_ERROR', `An internal error occurred; quote request id ${requestId} when reporting it`);
}
