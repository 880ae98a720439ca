import { index, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    keyPrefix: text('key_prefix').notNull(),
    scopes: text('scopes').array().notNull(),
    allowedIps: text('allowed_ips').array(),
    /** The knowledge bases the key is limited to; null: not limited. Emptied (never nulled) as they are deleted. */
    knowledgeBaseIds: text('knowledge_base_ids').array(),
    expiresAt: timestamp('expires_at', { withTimezone: true }),
    lastUsedAt: timestamp('last_used_at', { withTimezone: true }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    createdByKey: text('created_by_key'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('api_keys_key_hash_idx').on(t.keyHash), index('api_keys_created_at_idx').on(t.createdAt)],
);

export type ApiKeyRow = typeof apiKeys.$inferSelect;
