/**
 * Every error the API answers with. The status is fixed per code so that a service
 * throwing ApiError('FILE_NOT_FOUND', …) can never pick the wrong HTTP status.
 */
export const ERROR_STATUS = {
  INVALID_REQUEST: 400,
  INVALID_FILE: 400,
  INVALID_FILE_ID: 400,
  RERANK_NOT_CONFIGURED: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_SCOPE: 403,
  IP_NOT_ALLOWED: 403,
  CSRF_REJECTED: 403,
  NOT_FOUND: 404,
  FILE_NOT_FOUND: 404,
  EXTRACTION_NOT_FOUND: 404,
  DOCUMENT_NOT_AVAILABLE: 404,
  API_KEY_NOT_FOUND: 404,
  KNOWLEDGE_BASE_NOT_FOUND: 404,
  DOCUMENT_NOT_FOUND: 404,
  WEBHOOK_NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  SOURCE_NOT_FOUND: 404,
  SOURCE_RUN_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  IDEMPOTENCY_KEY_REUSED: 409,
  IDEMPOTENCY_KEY_IN_USE: 409,
  EXTRACTION_NOT_CANCELLABLE: 409,
  EXTRACTION_NOT_COMPLETED: 409,
  DOCUMENT_EXISTS: 409,
  DOCUMENT_NOT_FAILED: 409,
  DOCUMENT_BUSY: 409,
  WEBHOOK_DISABLED: 409,
  USER_EXISTS: 409,
  LAST_ADMIN: 409,
  SETUP_COMPLETED: 409,
  EMBEDDING_PROVIDER_MISMATCH: 409,
  SOURCE_BUSY: 409,
  FILE_TOO_LARGE: 413,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_FORMAT: 415,
  RANGE_NOT_SATISFIABLE: 416,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  EMBEDDING_FAILED: 502,
  SOURCE_UNREACHABLE: 502,
  RERANK_FAILED: 502,
  EMBEDDING_NOT_CONFIGURED: 503,
  SERVICE_UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export type ErrorDetails = Record<string, unknown>;

export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetails,
    /** Extra fields placed beside code/message in the error object (e.g. retry_after). */
    readonly extra?: Record<string, unknown>,
    /** Extra response headers (e.g. Retry-After). */
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = ERROR_STATUS[code];
  }
}

export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

export interface ErrorBody {
  error: {
    code: string;
    message: string;
    details?: ErrorDetails;
    request_id: string;
    [extra: string]: unknown;
  };
}

export function errorBody(err: ApiError, requestId: string): ErrorBody {
  return {
    error: {
      code: err.code,
      message: err.message,
      ...(err.details ? { details: err.details } : {}),
      ...(err.extra ?? {}),
      request_id: requestId,
    },
  };
}

export function errorResponse(err: ApiError, requestId: string): Response {
  const headers = new Headers(err.headers);
  headers.set('X-Request-Id', requestId);
  return Response.json(errorBody(err, requestId), { status: err.status, headers });
}

export const notFound = (code: ErrorCode, what: string, id: string) =>
  new ApiError(code, `${what} ${id} does not exist`, { id });
