import { z } from 'zod';
import { DELIVERY_STATUSES } from '@/lib/db/schema';
import { EVENT_TYPES } from '@/lib/events';
import { idParam, listOf, paginationQuery, sortQuery, timestamp } from './common';

const MIN_SECRET_LENGTH = 16;
const EVENT_CHOICES = [...EVENT_TYPES, '*'] as const;

const url = z
  .string({ error: 'url is required and must be a string' })
  .trim()
  .min(1, 'url is required')
  .max(2048, 'url must be at most 2048 characters')
  .meta({ description: 'Receiving URL: https (http and private addresses only with QUARRY_WEBHOOK_ALLOW_INSECURE=true)', example: 'https://example.com/hooks/quarry' });

const events = z
  .array(z.enum(EVENT_CHOICES, { error: `events must contain only: ${EVENT_CHOICES.join(', ')}` }), {
    error: 'events must be an array of event types',
  })
  .min(1, 'events must name at least one event type (or "*")')
  .max(EVENT_CHOICES.length * 2, 'too many events')
  .meta({ description: 'Event types to receive; "*" for all', example: ['extraction.completed', 'document.indexed'] });

const secret = z
  .string({ error: 'secret is required and must be a string' })
  .min(MIN_SECRET_LENGTH, `secret must be at least ${MIN_SECRET_LENGTH} characters`)
  .max(512, 'secret must be at most 512 characters')
  .meta({ description: 'Signs every delivery (HMAC-SHA256). Write-only: never returned' });

export const createWebhookBody = z.object({ url, events, secret }).meta({ id: 'CreateWebhook' });

export const updateWebhookBody = z
  .object({
    events: events.optional(),
    enabled: z.boolean({ error: 'enabled must be a boolean' }).optional(),
    url: url.optional(),
    secret: secret.optional().meta({ description: 'A new signing secret (rotation)' }),
  })
  .meta({ id: 'UpdateWebhook' });

export const webhookIdParams = idParam('webhook_id', 'wh_01jd0000000000000000000000');
export const deliveryIdParams = webhookIdParams.extend(idParam('delivery_id', 'del_01jd0000000000000000000000').shape);

export const webhookListQuery = paginationQuery.extend(sortQuery(['created_at'] as const, 'created_at', 'asc').shape);

export { DELIVERY_STATUSES };
export const deliveryListQuery = paginationQuery.extend({
  status: z
    .enum(DELIVERY_STATUSES, { error: `status must be one of: ${DELIVERY_STATUSES.join(', ')}` })
    .optional()
    .meta({ description: 'Only deliveries in this status' }),
  event_type: z.string().max(100).optional().meta({ description: 'Only deliveries of this event type' }),
});

export const webhookSchema = z
  .object({
    id: z.string().meta({ example: 'wh_01jd0000000000000000000000' }),
    url: z.string(),
    events: z.array(z.string()),
    enabled: z.boolean(),
    last_delivery_at: timestamp.nullable().meta({ description: 'Time of the latest delivery attempt' }),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'Webhook' });

export const createdWebhookSchema = z
  .object({ id: z.string(), url: z.string(), events: z.array(z.string()), enabled: z.literal(true), created_at: timestamp })
  .meta({ id: 'CreatedWebhook' });

export const webhookListSchema = listOf(
  z
    .object({
      id: z.string(),
      url: z.string(),
      events: z.array(z.string()),
      enabled: z.boolean(),
      created_at: timestamp,
      recent_failures: z
        .number()
        .int()
        .min(0)
        .meta({
          description:
            'How many of the latest attempted deliveries failed in a row, newest first (up to 10; a delivery waiting for a retry counts as failed): 0 when the latest succeeded or none was attempted',
          example: 0,
        }),
    })
    .meta({ id: 'WebhookListItem' }),
  'WebhookList',
);

const deliveryBase = {
  id: z.string().meta({ example: 'del_01jd0000000000000000000000' }),
  webhook_id: z.string(),
  event_id: z.string(),
  event_type: z.string(),
  status: z.enum(DELIVERY_STATUSES),
  attempt_count: z.number().int(),
  last_response_status: z.number().int().nullable(),
  last_error: z.string().nullable(),
  next_attempt_at: timestamp.nullable(),
  redelivery_of: z.string().nullable().meta({ description: 'For a redelivery: the delivery it re-sends' }),
  created_at: timestamp,
  completed_at: timestamp.nullable(),
};

export const deliveryListSchema = listOf(z.object(deliveryBase).meta({ id: 'WebhookDeliveryListItem' }), 'WebhookDeliveryList');

export const deliverySchema = z
  .object({
    ...deliveryBase,
    payload: z.unknown().meta({ description: 'The body sent (the event envelope)' }),
    attempts: z.array(
      z.object({
        number: z.number().int(),
        attempted_at: timestamp,
        duration_ms: z.number().int(),
        response_status: z.number().int().nullable(),
        response_excerpt: z.string().nullable().meta({ description: 'At most 1 KB of the response body' }),
        error: z.string().nullable(),
      }),
    ),
  })
  .meta({ id: 'WebhookDelivery' });
