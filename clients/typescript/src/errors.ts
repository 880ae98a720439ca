import type { ApiErrorBody } from './types.js';

/**
 * An error answer of the API: the status and the body's `code`, `message`, `details` and
 * `request_id` (quote the request id when reporting a problem).
 */
export class QuarryError extends Error {
  override readonly name = 'QuarryError';
  readonly status: number;
  readonly code: string;
  readonly details: Record<string, unknown> | undefined;
  readonly requestId: string | undefined;
  /** Seconds to wait before retrying (429 only). */
  readonly retryAfter: number | undefined;
  /** The error body as received (or a stand-in when the answer was not the API's JSON). */
  readonly body: ApiErrorBody;

  constructor(status: number, body: ApiErrorBody) {
    super(body.error.message);
    this.status = status;
    this.body = body;
    this.code = body.error.code;
    this.details = body.error.details;
    this.requestId = body.error.request_id || undefined;
    this.retryAfter = body.error.retry_after;
  }

  /**
   * The error for a non-2xx answer whose body was already read (`payload`: parsed JSON or text).
   * A proxy's HTML page or an empty body becomes code `HTTP_<status>` with the status text.
   */
  static fromResponse(response: Response, payload: unknown): QuarryError {
    if (isErrorBody(payload)) return new QuarryError(response.status, payload);
    const text = typeof payload === 'string' ? payload.trim().slice(0, 200) : '';
    const message = `HTTP ${response.status}${response.statusText ? ` ${response.statusText}` : ''}${text ? `: ${text}` : ''}`;
    return new QuarryError(response.status, {
      error: { code: `HTTP_${response.status}`, message, request_id: response.headers.get('x-request-id') ?? '' },
    });
  }
}

function isErrorBody(value: unknown): value is ApiErrorBody {
  if (!value || typeof value !== 'object') return false;
  const error = (value as { error?: unknown }).error;
  return !!error && typeof error === 'object' && typeof (error as { code?: unknown }).code === 'string' && typeof (error as { message?: unknown }).message === 'string';
}

/** An extraction, knowledge-base document or source sync that ended `failed` while being waited for. */
export class QuarryJobFailedError extends Error {
  override readonly name = 'QuarryJobFailedError';
  /** The failure's code (e.g. OCR_FAILED, EXTRACTION_FAILED, EMBEDDING_FAILED, SOURCE_UNREACHABLE). */
  readonly code: string;
  /** The extraction, document or sync run as last read. */
  readonly job: FailedJob;

  constructor(kind: JobKind, job: FailedJob) {
    super(`${kind} ${job.id} failed: ${job.error ? `${job.error.code}: ${job.error.message}` : 'no reason given'}`);
    this.code = job.error?.code ?? 'FAILED';
    this.job = job;
  }
}

/** What a wait follows. */
export type JobKind = 'extraction' | 'document' | 'sync';

/** A job as last read: its id, status and, when it failed, why. */
export interface FailedJob {
  id: string;
  status: string;
  error?: { code: string; message: string } | null;
}

/** A wait that did not see its extraction, document or sync finish within `timeoutMs`. */
export class QuarryTimeoutError extends Error {
  override readonly name = 'QuarryTimeoutError';
  constructor(what: string, timeoutMs: number) {
    super(`${what} did not finish within ${Math.round(timeoutMs / 1000)} s`);
  }
}
