import { index, integer, jsonb, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

/**
 * Durable workflow runs. A row is written in the same transaction as the change that starts the
 * workflow; the embedded runner executes it, or in Inngest mode a relay forwards it to Inngest.
 */
export const workflowRuns = pgTable(
  'workflow_runs',
  {
    id: text('id').primaryKey(),
    workflow: text('workflow').notNull(),
    input: jsonb('input').$type<Record<string, unknown>>().notNull(),
    status: text('status', { enum: ['queued', 'running', 'completed', 'failed', 'dispatched'] }).notNull(),
    attempt: integer('attempt').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull(),
    nextRunAt: timestamp('next_run_at', { withTimezone: true }).notNull(),
    leaseOwner: text('lease_owner'),
    leaseExpiresAt: timestamp('lease_expires_at', { withTimezone: true }),
    lastError: text('last_error'),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
    completedAt: timestamp('completed_at', { withTimezone: true }),
  },
  (t) => [index('workflow_runs_due_idx').on(t.status, t.workflow, t.nextRunAt)],
);

/** Memoised step results: a step that has a row here is never run again for that run. */
export const workflowSteps = pgTable(
  'workflow_steps',
  {
    runId: text('run_id')
      .notNull()
      .references(() => workflowRuns.id, { onDelete: 'cascade' }),
    stepId: text('step_id').notNull(),
    output: jsonb('output').$type<{ value?: unknown; sleepUntil?: string }>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.runId, t.stepId] })],
);

export type WorkflowRunRow = typeof workflowRuns.$inferSelect;
