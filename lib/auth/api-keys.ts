import { createHash, randomInt, timingSafeEqual } from 'node:crypto';
import { and, asc, count, desc, eq, isNull, lt, or } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/errors';
import type { Db } from '@/lib/db/client';
import { paginate, type Page } from '@/lib/db/paginate';
import { apiKeys, settings, type ApiKeyRow } from '@/lib/db/schema';
import { newId } from '@/lib/ids';
import { rangeCovered } from './ip';
import type { Principal } from './principal';
import { checkKnowledgeBasesExist, newKeyScopes, refuseLimitedKey } from './reach';
import { isAdministrator, scopesWithinKnowledgeBases, ungrantableScopes } from './scopes';

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** 32 base-62 characters: about 190 bits of randomness. */
const SECRET_LENGTH = 32;
const PREFIX_LENGTH = 12;
const LAST_USED_RESOLUTION_MS = 60_000;

export type { Principal } from './principal';

/** The id under which the QUARRY_ADMIN_KEY principal is rate-limited and audited. */
export const ENV_ADMIN_KEY_ID = 'key_environment_admin';

export function generateApiKey(env: 'live' | 'test'): string {
  let secret = '';
  for (let i = 0; i < SECRET_LENGTH; i++) secret += ALPHABET[randomInt(ALPHABET.length)];
  return `sk_${env}_${secret}`;
}

export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function safeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb);
}

export interface ApiKeyView {
  id: string;
  name: string;
  key_prefix: string;
  scopes: string[];
  allowed_ips: string[] | null;
  knowledge_base_ids: string[] | null;
  last_used_at: string | null;
  expires_at: string | null;
  created_at: string;
}

export function toApiKeyView(row: ApiKeyRow): ApiKeyView {
  return {
    id: row.id,
    name: row.name,
    key_prefix: row.keyPrefix,
    scopes: row.scopes,
    allowed_ips: row.allowedIps,
    knowledge_base_ids: row.knowledgeBaseIds,
    last_used_at: row.lastUsedAt?.toISOString() ?? null,
    expires_at: row.expiresAt?.toISOString() ?? null,
    created_at: row.createdAt.toISOString(),
  };
}

const keyCache = globalThis as unknown as { __quarryKeyCache?: Map<string, ApiKeyRow> };
const KEY_CACHE_LIMIT = 10_000;

/** Drops every cached key row (after changing api_keys outside these functions). */
export function forgetCachedKeys(): void {
  keyCache.__quarryKeyCache = undefined;
}

function forgetCachedKey(id: string): void {
  for (const [hash, row] of keyCache.__quarryKeyCache ?? []) if (row.id === id) keyCache.__quarryKeyCache!.delete(hash);
}

async function findKey(db: Db, hash: string, cache: boolean): Promise<ApiKeyRow | undefined> {
  const cached = cache ? keyCache.__quarryKeyCache?.get(hash) : undefined;
  if (cached) return cached;
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.keyHash, hash)).limit(1);
  if (row && cache) {
    const map = (keyCache.__quarryKeyCache ??= new Map());
    if (map.size >= KEY_CACHE_LIMIT) map.clear();
    map.set(hash, row);
  }
  return row;
}

/**
 * Resolves a bearer token to a principal. Throws 401 for a missing, unknown, revoked or expired key.
 * `adminKey` is the QUARRY_ADMIN_KEY value, accepted as an administrator with every scope.
 * With `cache` (only when this process is the database's sole user, as with the embedded database)
 * key rows are kept in memory; revoking through revokeApiKey updates the cache.
 */
export async function authenticate(
  db: Db,
  token: string | null,
  adminKey: string | undefined,
  now = new Date(),
  { cache = false }: { cache?: boolean } = {},
): Promise<Principal> {
  if (!token) {
    throw new ApiError('UNAUTHORIZED', 'Missing API key: send the header "Authorization: Bearer <API key>"');
  }
  if (adminKey && safeEqual(token, adminKey)) {
    return { keyId: ENV_ADMIN_KEY_ID, name: 'QUARRY_ADMIN_KEY', scopes: ['*'], allowedIps: null };
  }
  const row = await findKey(db, hashApiKey(token), cache);
  if (!row) throw new ApiError('UNAUTHORIZED', 'Invalid API key');
  if (row.revokedAt) throw new ApiError('UNAUTHORIZED', 'This API key has been revoked');
  if (row.expiresAt && row.expiresAt.getTime() <= now.getTime()) {
    throw new ApiError('UNAUTHORIZED', `This API key expired at ${row.expiresAt.toISOString()}`);
  }
  if (!row.lastUsedAt || now.getTime() - row.lastUsedAt.getTime() >= LAST_USED_RESOLUTION_MS) {
    // At most one write a minute per key; the condition keeps concurrent requests from all writing.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: now })
      .where(
        and(
          eq(apiKeys.id, row.id),
          or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, new Date(now.getTime() - LAST_USED_RESOLUTION_MS))),
        ),
      );
    row.lastUsedAt = now;
  }
  const limited = row.knowledgeBaseIds;
  return {
    keyId: row.id,
    name: row.name,
    // A limited key never acts beyond files, extractions and knowledge bases, whatever its row says.
    scopes: limited ? scopesWithinKnowledgeBases(row.scopes) : row.scopes,
    allowedIps: row.allowedIps,
    expiresAt: row.expiresAt,
    knowledgeBaseIds: limited,
  };
}

export interface CreateApiKeyInput {
  name: string;
  scopes?: string[];
  expires_in_days?: number;
  allowed_ips?: string[];
  /** Limit the key to these knowledge bases (null or absent: all of them). */
  knowledge_base_ids?: string[] | null;
}

export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  key_prefix: string;
  scopes: string[];
  allowed_ips: string[] | null;
  knowledge_base_ids: string[] | null;
  expires_at: string | null;
  created_at: string;
}

/**
 * The new key's address list and expiry, never wider than its creator's: a key limited to some
 * addresses or a date can only create keys limited to (a subset of) the same addresses, expiring no
 * later. When the request leaves them out, the creator's limits are inherited.
 */
function narrowerThanCreator(creator: Principal, input: CreateApiKeyInput, now: Date) {
  const requested = input.allowed_ips && input.allowed_ips.length > 0 ? [...new Set(input.allowed_ips.map((s) => s.trim()))] : null;
  const creatorIps = creator.allowedIps && creator.allowedIps.length > 0 ? creator.allowedIps : null;
  let allowedIps = requested;
  if (creatorIps) {
    const outside = (requested ?? []).filter((entry) => !rangeCovered(entry, creatorIps));
    if (outside.length > 0) {
      throw new ApiError('INSUFFICIENT_SCOPE', `A key limited to ${creatorIps.join(', ')} cannot create a key usable from ${outside.join(', ')}`, {
        field: 'allowed_ips',
        reason: 'wider than the creating key',
        creator_allowed_ips: creatorIps,
      });
    }
    allowedIps ??= [...creatorIps];
  }
  let expiresAt = input.expires_in_days ? new Date(now.getTime() + input.expires_in_days * 86_400_000) : null;
  const limit = creator.expiresAt ?? null;
  if (limit) {
    if (expiresAt && expiresAt.getTime() > limit.getTime()) {
      throw new ApiError('INSUFFICIENT_SCOPE', `A key expiring at ${limit.toISOString()} cannot create a key that outlives it`, {
        field: 'expires_in_days',
        reason: 'outlives the creating key',
        creator_expires_at: limit.toISOString(),
      });
    }
    expiresAt ??= limit;
  }
  return { allowedIps, expiresAt };
}

export async function createApiKey(
  db: Db,
  creator: Principal,
  input: CreateApiKeyInput,
  keyEnv: 'live' | 'test',
  now = new Date(),
): Promise<CreatedApiKey> {
  // A key limited to knowledge bases creates no keys: it cannot widen itself through one.
  refuseLimitedKey(creator, 'create API keys', { required_scope: 'api-keys:*' });
  if (!isAdministrator(creator.scopes)) {
    throw new ApiError('INSUFFICIENT_SCOPE', 'Creating API keys needs an administrator key (scope "*" or "api-keys:*")', {
      required_scope: 'api-keys:*',
    });
  }
  const knowledgeBaseIds = input.knowledge_base_ids ? [...new Set(input.knowledge_base_ids)] : null;
  const scopes = newKeyScopes(input.scopes, knowledgeBaseIds);
  const missing = ungrantableScopes(creator.scopes, scopes);
  if (missing.length > 0) {
    throw new ApiError(
      'INSUFFICIENT_SCOPE',
      `A key cannot grant scopes it does not hold itself: ${missing.join(', ')}`,
      { field: 'scopes', ungrantable_scopes: missing },
    );
  }
  const { allowedIps, expiresAt } = narrowerThanCreator(creator, input, now);
  // A knowledge base deleted after this check leaves an id that reaches nothing (ids are never reused).
  if (knowledgeBaseIds) await checkKnowledgeBasesExist(db, knowledgeBaseIds);
  const key = generateApiKey(keyEnv);
  const [row] = await db
    .insert(apiKeys)
    .values({
      id: newId('apiKey'),
      name: input.name,
      keyHash: hashApiKey(key),
      keyPrefix: key.slice(0, PREFIX_LENGTH),
      scopes,
      allowedIps,
      knowledgeBaseIds,
      expiresAt,
      createdByKey: creator.keyId,
      createdAt: now,
    })
    .returning();
  const view = toApiKeyView(row);
  return {
    id: view.id,
    name: view.name,
    key,
    key_prefix: view.key_prefix,
    scopes: view.scopes,
    allowed_ips: view.allowed_ips,
    knowledge_base_ids: view.knowledge_base_ids,
    expires_at: view.expires_at,
    created_at: view.created_at,
  };
}

export const API_KEY_SORT_FIELDS = ['created_at', 'name', 'last_used_at', 'expires_at'] as const;

export async function listApiKeys(
  db: Db,
  opts: { limit: number; offset: number; sortBy: (typeof API_KEY_SORT_FIELDS)[number]; order: 'asc' | 'desc' },
): Promise<Page<ApiKeyView>> {
  const column = {
    created_at: apiKeys.createdAt,
    name: apiKeys.name,
    last_used_at: apiKeys.lastUsedAt,
    expires_at: apiKeys.expiresAt,
  }[opts.sortBy];
  const dir = opts.order === 'asc' ? asc : desc;
  return paginate(
    db,
    { from: apiKeys, where: isNull(apiKeys.revokedAt), orderBy: [dir(column), dir(apiKeys.id)], limit: opts.limit, offset: opts.offset },
    toApiKeyView,
  );
}

/**
 * Revokes a key. A key can revoke only keys it could have created: one holding a scope the revoker
 * does not hold (an `api-keys:*` key and a `*` key) answers 403, so a narrower administrator
 * cannot lock a wider one out.
 */
export async function revokeApiKey(db: Db, revoker: Principal, id: string, now = new Date()): Promise<void> {
  const [target] = await db
    .select({ scopes: apiKeys.scopes })
    .from(apiKeys)
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .limit(1);
  if (!target) throw notFound('API_KEY_NOT_FOUND', 'API key', id);
  const unheld = ungrantableScopes(revoker.scopes, target.scopes);
  if (unheld.length > 0) {
    throw new ApiError(
      'INSUFFICIENT_SCOPE',
      `A key cannot revoke a key holding scopes it does not hold itself: ${unheld.join(', ')}`,
      { required_scope: unheld.includes('*') ? '*' : unheld[0], unheld_scopes: unheld },
    );
  }
  const revoked = await db
    .update(apiKeys)
    .set({ revokedAt: now })
    .where(and(eq(apiKeys.id, id), isNull(apiKeys.revokedAt)))
    .returning({ id: apiKeys.id });
  forgetCachedKey(id);
  if (revoked.length === 0) throw notFound('API_KEY_NOT_FOUND', 'API key', id);
}

/**
 * On a fresh installation without QUARRY_ADMIN_KEY, creates one administrator key and returns it
 * (to be printed once). A settings row makes this happen once even when several processes start together.
 */
export async function bootstrapAdminKey(db: Db, keyEnv: 'live' | 'test'): Promise<string | null> {
  const [{ existing }] = await db.select({ existing: count() }).from(apiKeys);
  if (existing > 0) return null;
  const claimed = await db
    .insert(settings)
    .values({ key: 'bootstrap_admin_key', value: { created_at: new Date().toISOString() } })
    .onConflictDoNothing()
    .returning({ key: settings.key });
  if (claimed.length === 0) return null;
  const key = generateApiKey(keyEnv);
  await db.insert(apiKeys).values({
    id: newId('apiKey'),
    name: 'Bootstrap administrator',
    keyHash: hashApiKey(key),
    keyPrefix: key.slice(0, PREFIX_LENGTH),
    scopes: ['*'],
  });
  return key;
}
