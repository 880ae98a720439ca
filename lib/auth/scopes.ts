import { ApiError } from '@/lib/errors';

export const SCOPES = [
  'files:read',
  'files:write',
  'files:*',
  'extractions:read',
  'extractions:write',
  'extractions:*',
  'kb:read',
  'kb:write',
  'kb:search',
  'kb:*',
  'sources:read',
  'sources:write',
  'sources:*',
  'api-keys:*',
  'webhooks:*',
  '*',
] as const;

export type Scope = (typeof SCOPES)[number];

export function isScope(value: string): value is Scope {
  return (SCOPES as readonly string[]).includes(value);
}

/** True when the held scopes cover `needed`: the scope itself, its area's `:*`, or `*`. */
export function hasScope(held: readonly string[], needed: string): boolean {
  if (held.includes('*') || held.includes(needed)) return true;
  const area = needed.split(':')[0];
  return held.includes(`${area}:*`);
}

/** True when the held scopes cover any one of `anyOf` (an operation several scopes allow). */
export function hasAnyScope(held: readonly string[], anyOf: readonly string[]): boolean {
  return anyOf.some((needed) => hasScope(held, needed));
}

/**
 * Refuses a caller without `needed` with 403 INSUFFICIENT_SCOPE, saying what it was needed for
 * (a request that does more than its endpoint's own scope covers: an upload that also starts an
 * extraction). Background work (no caller) may do anything.
 */
export function requireScope(held: readonly string[] | undefined, needed: Scope, purpose: string): void {
  if (held === undefined || hasScope(held, needed)) return;
  throw new ApiError('INSUFFICIENT_SCOPE', `This API key lacks the scope ${needed}, which ${purpose} needs`, { required_scope: needed });
}

/** An administrator holds `*` or `api-keys:*`. */
export function isAdministrator(held: readonly string[]): boolean {
  return held.includes('*') || held.includes('api-keys:*');
}

/**
 * What a key limited to knowledge bases may hold: the file, extraction, knowledge-base and source scopes
 * (a source belongs to one knowledge base).
 * Webhooks and the event log see every knowledge base, and administration reaches everything.
 */
export const KNOWLEDGE_BASE_KEY_SCOPES = ['files:*', 'extractions:*', 'kb:*', 'sources:*'] as const satisfies readonly Scope[];

/** The scopes of `held` a key limited to knowledge bases may not hold (`*`, `api-keys:*`, `webhooks:*`). */
export function scopesBeyondKnowledgeBases(held: readonly string[]): string[] {
  return held.filter((s) => !KNOWLEDGE_BASE_KEY_SCOPES.some((area) => hasScope([area], s)));
}

/** `held` cut down to what a key limited to knowledge bases may use (`*` becomes the three areas). */
export function scopesWithinKnowledgeBases(held: readonly string[]): string[] {
  if (held.includes('*')) return [...KNOWLEDGE_BASE_KEY_SCOPES];
  const beyond = scopesBeyondKnowledgeBases(held);
  return held.filter((s) => !beyond.includes(s));
}

/** The requested scopes the holder may not hand out, because it does not hold them itself. */
export function ungrantableScopes(held: readonly string[], requested: readonly string[]): string[] {
  return requested.filter((s) => !hasScope(held, s));
}

/**
 * What a console user of each role may do. Only a holder of every scope a role grants may create
 * a user of that role or change one, so no credential can mint a wider one through the console.
 */
export const ROLE_SCOPES = {
  admin: ['*'],
  member: ['files:*', 'extractions:*', 'kb:*', 'sources:*'],
} as const satisfies Record<string, readonly Scope[]>;

export type ConsoleRole = keyof typeof ROLE_SCOPES;
