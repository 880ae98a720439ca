import { arrayContains, inArray, sql, type AnyColumn, type SQL } from 'drizzle-orm';
import type { DbOrTx } from '@/lib/db/client';
import { apiKeys, kbDocuments, knowledgeBases } from '@/lib/db/schema';
import { ApiError, notFound } from '@/lib/errors';
import type { Principal } from './principal';
import { KNOWLEDGE_BASE_KEY_SCOPES, scopesBeyondKnowledgeBases } from './scopes';

/*
 * What an API key limited to knowledge bases reaches, decided here once and applied by each area's
 * lookups (knowledge bases, files, extractions), so REST routes and the MCP server, which call the
 * same services with the same principal, are held to it alike:
 * - knowledge bases: only its own; any other id is 404 KNOWLEDGE_BASE_NOT_FOUND, lists show only
 *   its own, and it cannot create any;
 * - files and extractions: only files that are documents of its knowledge bases (and their
 *   extractions); any other is 404 as if it did not exist; it uploads only into its knowledge bases;
 * - webhooks, the event log, keys, users and maintenance: never (its scopes are cut to files,
 *   extractions and kb when it authenticates, see authenticate()).
 * Background work (no principal), console sessions and unlimited keys reach everything.
 */

/** The knowledge bases a caller is limited to, or null when it is not limited. */
export function knowledgeBaseLimit(principal: Principal | null | undefined): readonly string[] | null {
  return principal?.knowledgeBaseIds ?? null;
}

/** Answers 404 KNOWLEDGE_BASE_NOT_FOUND for a knowledge base outside the caller's, as for one that does not exist. */
export function checkKnowledgeBaseReach(principal: Principal | null | undefined, kbId: string): void {
  const limit = knowledgeBaseLimit(principal);
  if (limit !== null && !limit.includes(kbId)) throw notFound('KNOWLEDGE_BASE_NOT_FOUND', 'Knowledge base', kbId);
}

/** A condition on a knowledge-base id column keeping the caller's knowledge bases (undefined: all). */
export function knowledgeBasesInReach(principal: Principal | null | undefined, kbIdColumn: AnyColumn): SQL | undefined {
  const limit = knowledgeBaseLimit(principal);
  if (limit === null) return undefined;
  return limit.length === 0 ? sql`false` : inArray(kbIdColumn, [...limit]);
}

/** A condition on a file id column keeping files that are documents of the caller's knowledge bases (undefined: all). */
export function filesInReach(principal: Principal | null | undefined, fileIdColumn: AnyColumn): SQL | undefined {
  const limit = knowledgeBaseLimit(principal);
  if (limit === null) return undefined;
  if (limit.length === 0) return sql`false`;
  return sql`${fileIdColumn} in (select ${kbDocuments.fileId} from ${kbDocuments} where ${inArray(kbDocuments.kbId, [...limit])})`;
}

/**
 * Refuses a limited caller what reaches beyond its knowledge bases (creating one, a file outside
 * them) with 403 INSUFFICIENT_SCOPE; `action` completes "A key limited to knowledge bases cannot …".
 */
export function refuseLimitedKey(principal: Principal | null | undefined, action: string, details: Record<string, unknown> = {}): void {
  if (knowledgeBaseLimit(principal) === null) return;
  throw new ApiError('INSUFFICIENT_SCOPE', `A key limited to knowledge bases cannot ${action}`, { reason: 'limited to knowledge bases', ...details });
}

/**
 * The scopes of a new key: those asked for, or when omitted all (`*`), or for a key limited to
 * knowledge bases files:*, extractions:* and kb:*. A limited key asking for more is 400 naming `scopes`.
 */
export function newKeyScopes(requested: string[] | undefined, knowledgeBaseIds: string[] | null): string[] {
  if (knowledgeBaseIds === null) return [...new Set(requested ?? ['*'])];
  const scopes = [...new Set(requested ?? KNOWLEDGE_BASE_KEY_SCOPES)];
  const beyond = scopesBeyondKnowledgeBases(scopes);
  if (beyond.length > 0) {
    throw new ApiError('INVALID_REQUEST', `A key limited to knowledge bases can hold only files, extractions, kb and sources scopes, not ${beyond.join(', ')}`, {
      field: 'scopes',
      reason: 'not available to a key limited to knowledge bases',
      scopes: beyond,
    });
  }
  return scopes;
}

/** 404 KNOWLEDGE_BASE_NOT_FOUND naming `knowledge_base_ids` and the ids that do not exist. */
export async function checkKnowledgeBasesExist(db: DbOrTx, ids: string[]): Promise<void> {
  const found = new Set((await db.select({ id: knowledgeBases.id }).from(knowledgeBases).where(inArray(knowledgeBases.id, ids))).map((r) => r.id));
  const missing = ids.filter((id) => !found.has(id));
  if (missing.length === 0) return;
  throw new ApiError('KNOWLEDGE_BASE_NOT_FOUND', `Knowledge base ${missing.join(', ')} does not exist`, {
    field: 'knowledge_base_ids',
    reason: 'unknown knowledge base',
    ids: missing,
  });
}

/**
 * Takes a deleted knowledge base out of the keys limited to it, inside the deletion's transaction
 * (call forgetCachedKeys() after the commit). A key left with none keeps an empty list: it reaches nothing.
 */
export async function removeKnowledgeBaseFromKeys(tx: DbOrTx, kbId: string): Promise<void> {
  await tx
    .update(apiKeys)
    .set({ knowledgeBaseIds: sql`array_remove(${apiKeys.knowledgeBaseIds}, ${kbId}::text)` })
    .where(arrayContains(apiKeys.knowledgeBaseIds, [kbId]));
}
