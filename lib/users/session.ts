import { decode } from 'next-auth/jwt';
import { ApiError } from '@/lib/errors';
import { getConfig } from '@/lib/config';
import { dataDirSecret } from '@/lib/crypto/secret-box';
import type { Db } from '@/lib/db/client';
import type { Principal } from '@/lib/auth/api-keys';
import { ROLE_SCOPES } from '@/lib/auth/scopes';
import { findUser } from './service';

/*
 * Web-console sessions: next-auth JWT cookies, accepted by the /v1 wrapper like an API key. An
 * admin gets every scope; a member everything except API keys, webhooks, users and maintenance.
 * The user row is read on every request, so disabling a user or changing the role applies at once.
 */

export const SESSION_COOKIES = ['__Secure-next-auth.session-token', 'next-auth.session-token'];
const SECRET_FILE = 'auth.secret';

const globalForSecret = globalThis as unknown as { __quarryAuthSecret?: string };

/** NEXTAUTH_SECRET, or a random secret generated once into the data directory. */
export function authSecret(): string {
  if (globalForSecret.__quarryAuthSecret) return globalForSecret.__quarryAuthSecret;
  const secret = getConfig().console.authSecret ?? dataDirSecret(SECRET_FILE);
  globalForSecret.__quarryAuthSecret = secret;
  return secret;
}

export function resetAuthSecret(): void {
  globalForSecret.__quarryAuthSecret = undefined;
}

function cookieValue(header: string | null, name: string): string | null {
  if (!header) return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) {
      // A malformed escape is no session at all, not a server error.
      try {
        return decodeURIComponent(part.slice(eq + 1).trim());
      } catch {
        return null;
      }
    }
  }
  return null;
}

export function hasSessionCookie(request: Request): boolean {
  const header = request.headers.get('cookie');
  return SESSION_COOKIES.some((name) => cookieValue(header, name) !== null);
}

/** The signed-in user of a request as a principal, or null when there is no valid session. */
export async function sessionPrincipal(db: Db, request: Request): Promise<Principal | null> {
  const header = request.headers.get('cookie');
  for (const name of SESSION_COOKIES) {
    const token = cookieValue(header, name);
    if (!token) continue;
    const payload = await decode({ token, secret: authSecret() }).catch(() => null);
    const userId = typeof payload?.sub === 'string' ? payload.sub : null;
    if (!userId) continue;
    const user = await findUser(db, userId);
    if (!user || user.disabled) return null;
    return {
      keyId: user.id,
      name: user.email,
      scopes: [...ROLE_SCOPES[user.role]],
      allowedIps: null,
    };
  }
  return null;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard for cookie-authenticated requests: a state-changing request
 * must come from this site (its Origin, or else Sec-Fetch-Site, says so). API-key requests carry
 * no ambient credentials and are not affected.
 */
export function checkSameOrigin(request: Request, trustProxy: boolean): void {
  if (SAFE_METHODS.has(request.method)) return;
  const origin = request.headers.get('origin');
  const host = (trustProxy ? request.headers.get('x-forwarded-host') : null) ?? request.headers.get('host') ?? new URL(request.url).host;
  if (origin) {
    let originHost: string | null = null;
    try {
      originHost = new URL(origin).host;
    } catch {
      originHost = null;
    }
    if (originHost === host) return;
  } else if (request.headers.get('sec-fetch-site') === 'same-origin') {
    return;
  }
  throw new ApiError('CSRF_REJECTED', 'Cross-site requests with a session cookie are not accepted; use an API key for programmatic access');
}
