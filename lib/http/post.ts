/*
 * JSON POSTs to model servers (embedding and reranking endpoints): one timeout per attempt,
 * transient failures (network errors, timeouts, 408, 429, 5xx) retried with exponential backoff and
 * jitter, honouring Retry-After. The caller turns each failure into its own error, in its own words.
 */

export interface RetryPolicy {
  /** Per attempt, including reading the answer. */
  timeoutMs: number;
  /** Retries after the first attempt. */
  maxRetries: number;
  /** First backoff delay; it doubles with each retry (with jitter) up to maxRetryDelayMs. */
  retryBaseMs: number;
  maxRetryDelayMs: number;
}

/** Why one attempt failed. `message` of a status failure is the server's own, shortened. */
export type PostFailure =
  | { kind: 'status'; status: number; message: string; retryAfterMs?: number }
  | { kind: 'timeout'; cause: unknown }
  | { kind: 'network'; detail: string; cause: unknown };

/** Turns a failure into the caller's error; `attempts` is set when it was the last of several tries. */
export type FailureMapper = (failure: PostFailure, attempts?: number) => Error;

/** The longest wait a Retry-After header may impose before the next attempt. */
const MAX_RETRY_AFTER_MS = 60_000;
/** How much of a server's error message is kept in ours. */
const MAX_SERVER_MESSAGE = 300;

export function isTransient(failure: PostFailure): boolean {
  return failure.kind !== 'status' || failure.status === 408 || failure.status === 429 || failure.status >= 500;
}

/** The endpoint as shown in messages: without the query string (it may carry keys). */
export function displayEndpoint(endpoint: string): string {
  const url = new URL(endpoint);
  return `${url.origin}${url.pathname}`;
}

/** The error text a server sent: OpenAI's {error:{message}}, Ollama's {error:"…"}, {message}, {detail}, or the body itself, shortened. */
export function serverMessage(body: string): string {
  let message = body;
  try {
    const json = JSON.parse(body) as { error?: unknown; message?: unknown; detail?: unknown };
    const error = json.error as { message?: unknown } | string | undefined;
    const found = typeof error === 'string' ? error : (error?.message ?? json.message ?? json.detail);
    if (typeof found === 'string') message = found;
  } catch {
    // Not JSON: the body is the message.
  }
  message = message.replace(/\s+/g, ' ').trim() || '(empty response body)';
  return message.length > MAX_SERVER_MESSAGE ? `${message.slice(0, MAX_SERVER_MESSAGE)}…` : message;
}

/** Milliseconds to wait from Retry-After (seconds or an HTTP date) or Azure's retry-after-ms, capped; undefined when absent. */
export function retryAfterMs(headers: Headers, now = Date.now()): number | undefined {
  const ms = headers.get('retry-after-ms');
  if (ms && Number.isFinite(Number(ms))) return Math.min(Math.max(0, Number(ms)), MAX_RETRY_AFTER_MS);
  const value = headers.get('retry-after');
  if (!value) return undefined;
  const seconds = Number(value);
  const wait = Number.isFinite(seconds) ? seconds * 1000 : Date.parse(value) - now;
  return Number.isFinite(wait) ? Math.min(Math.max(0, wait), MAX_RETRY_AFTER_MS) : undefined;
}

/** Exponential backoff with jitter: between half and all of base·2^attempt, capped. */
function backoffMs(attempt: number, baseMs: number, maxMs: number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** attempt);
  return ceiling / 2 + Math.random() * (ceiling / 2);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One attempt: the body of a 2xx answer, or why it failed. */
async function attempt(endpoint: string, headers: Record<string, string>, body: string, timeoutMs: number): Promise<{ text: string } | PostFailure> {
  try {
    const res = await fetch(endpoint, { method: 'POST', headers, body, signal: AbortSignal.timeout(timeoutMs), redirect: 'error' });
    const text = await res.text();
    if (res.ok) return { text };
    return { kind: 'status', status: res.status, message: serverMessage(text), retryAfterMs: retryAfterMs(res.headers) };
  } catch (err) {
    if (err instanceof Error && (err.name === 'TimeoutError' || err.name === 'AbortError')) return { kind: 'timeout', cause: err };
    const cause = err instanceof Error && err.cause instanceof Error ? err.cause : err;
    const detail = (cause as { code?: string })?.code ?? (cause instanceof Error ? cause.message : String(cause));
    return { kind: 'network', detail, cause: err };
  }
}

/** POSTs until a 2xx answer (its body), a permanent failure, or the last retry; failures become `fail`'s errors. */
export async function postWithRetries(
  endpoint: string,
  headers: Record<string, string>,
  body: string,
  policy: RetryPolicy,
  fail: FailureMapper,
): Promise<string> {
  for (let tries = 0; ; tries++) {
    const outcome = await attempt(endpoint, headers, body, policy.timeoutMs);
    if ('text' in outcome) return outcome.text;
    if (!isTransient(outcome)) throw fail(outcome);
    if (tries >= policy.maxRetries) throw fail(outcome, tries + 1);
    const wait = outcome.kind === 'status' ? outcome.retryAfterMs : undefined;
    await sleep(wait ?? backoffMs(tries, policy.retryBaseMs, policy.maxRetryDelayMs));
  }
}
