import { z } from 'zod';
import { createDocument, type ZodOpenApiOperationObject, type ZodOpenApiPathsObject } from 'zod-openapi';
import { ERROR_STATUS, type ErrorCode } from '@/lib/errors';
import { VERSION } from '@/lib/version';
import { authLabel, errorCodesOf, type Endpoint } from './endpoint';
import { ENDPOINTS } from './endpoints';
import { errorSchema } from './schemas/common';

const jsonContent = (schema: z.ZodType) => ({ content: { 'application/json': { schema } } });

/** Error responses grouped by status, each naming its codes. */
function errorResponses(codes: ErrorCode[]) {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of codes) {
    const status = ERROR_STATUS[code];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  return Object.fromEntries(
    [...byStatus].map(([status, list]) => [String(status), { description: list.join(', '), ...jsonContent(errorSchema) }]),
  );
}

const idempotencyHeader = z.object({
  'idempotency-key': z.string().max(255).optional().meta({ description: 'Repeat-safe creation: the same key within 24 h returns the first result' }),
});

function operation(e: Endpoint): ZodOpenApiOperationObject {
  const { response } = e;
  const success = response.binary
    ? { description: response.description, content: { [response.binary]: { schema: z.string().meta({ format: 'binary' }) } } }
    : response.schema
      ? { description: response.description, ...jsonContent(response.schema) }
      : { description: response.description };
  const requestParams = {
    // Path and query schemas are zod objects (each key one parameter).
    ...(e.params ? { path: e.params as z.ZodObject } : {}),
    ...(e.query ? { query: e.query as z.ZodObject } : {}),
    ...(e.idempotent ? { header: idempotencyHeader } : {}),
  };
  return {
    operationId: e.id,
    summary: e.summary,
    ...(e.auth === 'public' ? { security: [] } : { description: `Required scope: ${authLabel(e.auth)}.` }),
    ...(Object.keys(requestParams).length > 0 ? { requestParams } : {}),
    ...(e.body ? { requestBody: jsonContent(e.body) } : {}),
    ...(e.upload ? { requestBody: { content: { [e.uploadMediaType ?? 'multipart/form-data']: { schema: e.upload } } } } : {}),
    responses: {
      [String(response.status)]: success,
      ...Object.fromEntries((e.alternatives ?? []).map((a) => [String(a.status), { description: a.description, ...jsonContent(a.schema) }])),
      ...errorResponses(errorCodesOf(e)),
    },
  };
}

/** The paths object: one operation per endpoint of the list. */
export function openApiPaths(endpoints: readonly Endpoint[] = ENDPOINTS): ZodOpenApiPathsObject {
  const paths: ZodOpenApiPathsObject = {};
  for (const e of endpoints) {
    paths[e.path] = { ...paths[e.path], [e.method.toLowerCase()]: operation(e) };
  }
  return paths;
}

let cached: ReturnType<typeof createDocument> | undefined;

/** The OpenAPI 3.1 document, generated from the endpoint list and the zod schemas the routes validate with. */
export function openApiDocument() {
  cached ??= createDocument({
    openapi: '3.1.0',
    info: {
      title: 'Quarry API',
      version: VERSION,
      description: 'Document extraction and knowledge base service. Errors use the body {"error": {"code", "message", "details"?, "request_id"}}.',
    },
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }],
    components: { securitySchemes: { bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API key: sk_live_… or sk_test_…' } } },
    paths: openApiPaths(),
  });
  return cached;
}
