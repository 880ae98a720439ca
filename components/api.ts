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

let leaving = false;

/**
 * The session ended (signed out elsewhere, expired, or the account was turned off): off to the
 * sign-in page, which says so and comes back here afterwards. Once, however many requests fail.
 */
export function sessionEnded(): void {
  if (typeof window === 'undefined' || leaving) return;
  leaving = true;
  const here = `${window.location.pathname}${window.location.search}`;
  window.location.assign(`/sign-in?expired=1&next=${encodeURIComponent(here)}`);
}

/** Signing out on purpose: the requests that fail meanwhile do not send the person to sign in again. */
export function leavingOnPurpose(): void {
  leaving = true;
}

/**
 * `next` when it is a page of this site (a path starting with one "/"), otherwise the overview: a
 * link to the sign-in page must not be able to send people elsewhere after they sign in.
 */
export function safeNextPath(next: string | null | undefined): string {
  if (!next || !next.startsWith('/') || next.startsWith('//') || /[\\\u0000-\u001f]/.test(next)) return '/';
  try {
    const base = 'http://quarry.invalid';
    const url = new URL(next, base);
    return url.origin === base ? `${url.pathname}${url.search}${url.hash}` : '/';
  } catch {
    return '/';
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
    if (res.status === 401) sessionEnded();
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
