import { z } from 'zod';
import { EVENT_TYPES } from '@/lib/events';
import { listOf, paginationQuery, timestamp } from './common';

export const maintenanceBody = z
  .object({
    enabled: z.boolean({ error: 'enabled must be a boolean' }),
    message: z.string().max(1000, 'message must be at most 1000 characters').optional(),
  })
  .meta({ id: 'MaintenanceRequest' });

export const maintenanceSchema = z
  .object({ enabled: z.boolean(), message: z.string().nullable(), updated_at: timestamp.nullable() })
  .meta({ id: 'Maintenance' });

export const healthSchema = z
  .object({ status: z.literal('healthy'), version: z.string().meta({ example: '1.0.0' }) })
  .meta({ id: 'Health' });

const componentSchema = z.object({
  status: z.enum(['healthy', 'unhealthy']),
  latency_ms: z.number().optional(),
  error: z.string().optional(),
});

export const detailedHealthSchema = z
  .object({
    status: z.enum(['healthy', 'unhealthy']),
    version: z.string(),
    maintenance: z.object({ enabled: z.boolean(), message: z.string().nullable() }),
    components: z.object({
      database: componentSchema.extend({ kind: z.string() }),
      storage: componentSchema.extend({ kind: z.string() }),
      pipeline: componentSchema
        .extend({
          kind: z.enum(['embedded', 'inngest']),
          queued: z.number().int().optional().meta({ description: 'Runs due and waiting for a free slot' }),
          running: z.number().int().optional(),
          oldest_wait_s: z.number().int().optional().meta({ description: 'How long the oldest due run has waited' }),
        })
        .meta({ description: 'Background workflows (extraction, indexing, webhook delivery); informational' }),
    }),
  })
  .meta({ id: 'DetailedHealth' });

export const eventListQuery = paginationQuery.extend({
  type: z.enum(EVENT_TYPES, { error: `type must be one of: ${EVENT_TYPES.join(', ')}` }).optional(),
});

export const eventSchema = z
  .object({
    id: z.string().meta({ example: 'evt_01jd0000000000000000000000' }),
    type: z.string(),
    created_at: timestamp,
    data: z.record(z.string(), z.unknown()),
  })
  .meta({ id: 'Event' });

export const eventListSchema = listOf(eventSchema, 'EventList');
