'use client';

/*
 * The console's client for the /v1 API: same-origin requests carrying the session cookie. Errors
 * become ApiClientError with the API's code and message, which pages show in plain words.
 */

export class ApiClientError extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.name = 'ApiClientError';
  }
}

export async function api<T = unknown>(path: string, init: RequestInit & { json?: unknown } = {}): Promise<T> {
  const { json, headers, ...rest } = init;
  const res = await fetch(path, {
    credentials: 'same-origin',
    ...rest,
    headers: { ...(json !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
    body: json !== undefined ? JSON.stringify(json) : rest.body,
  });
  if (res.status === 204) return undefined as T;
  const text = await res.text();
  let body: unknown = undefined;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  if (!res.ok) {
    const error = (body as { error?: { code?: string; message?: string; details?: Record<string, unknown> } } | undefined)?.error;
    if (res.status === 401 && typeof window !== 'undefined') window.location.assign('/sign-in');
    throw new ApiClientError(res.status, error?.code ?? 'HTTP_ERROR', error?.message ?? `The server answered ${res.status}`, error?.details);
  }
  return body as T;
}

/** A message for people: the API's own message, or a plain description of the failure. */
export function errorMessage(err: unknown): string {
  if (err instanceof ApiClientError) return err.message;
  if (err instanceof TypeError) return 'The server could not be reached. Check your connection and try again.';
  return err instanceof Error ? err.message : 'Something went wrong.';
}

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}
