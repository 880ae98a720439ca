import { boolean, pgTable, text, timestamp, uniqueIndex } from 'drizzle-orm/pg-core';

/** People who sign in to the web console. */
export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    /** Lower-cased. */
    email: text('email').notNull(),
    name: text('name').notNull().default(''),
    /** Argon2id hash (PHC string). */
    passwordHash: text('password_hash').notNull(),
    role: text('role', { enum: ['admin', 'member'] }).notNull(),
    disabled: boolean('disabled').notNull().default(false),
    lastSignInAt: timestamp('last_sign_in_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('users_email_idx').on(t.email)],
);

export type UserRow = typeof users.$inferSelect;
