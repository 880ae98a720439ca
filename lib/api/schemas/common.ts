import { z } from 'zod';
import 'zod-openapi';
import { MAX_METADATA_BYTES } from '@/lib/files/types';
import { replaceControlCharacters } from '@/lib/text/clean';

export const MAX_PAGE_SIZE = 100;

/** `limit` and `offset` of every paginated list. */
export const paginationQuery = z.object({
  limit: z.coerce
    .number({ error: 'limit must be an integer' })
    .int('limit must be an integer')
    .min(1, 'limit must be at least 1')
    .max(MAX_PAGE_SIZE, `limit must be at most ${MAX_PAGE_SIZE}`)
    .default(50)
    .meta({ description: 'Page size (1–100)', example: 50 }),
  offset: z.coerce
    .number({ error: 'offset must be an integer' })
    .int('offset must be an integer')
    .min(0, 'offset must be 0 or more')
    .default(0)
    .meta({ description: 'Number of items to skip', example: 0 }),
});

/** `sort_by` from a per-list whitelist and `order`. */
export function sortQuery<const F extends readonly [string, ...string[]]>(
  fields: F,
  defaultField: F[number],
  defaultOrder: 'asc' | 'desc' = 'asc',
) {
  return z.object({
    sort_by: z
      .enum(fields, { error: `sort_by must be one of: ${fields.join(', ')}` })
      .default(defaultField as never)
      .meta({ description: `Sort field: ${fields.join(', ')}` }),
    order: z
      .enum(['asc', 'desc'], { error: 'order must be asc or desc' })
      .default(defaultOrder)
      .meta({ description: 'Sort direction' }),
  });
}

export const timestamp = z.iso.datetime().meta({ description: 'ISO 8601 date-time (UTC)', example: '2026-01-01T12:00:00.000Z' });

export const errorSchema = z
  .object({
    error: z.object({
      code: z.string().meta({ example: 'INVALID_REQUEST' }),
      message: z.string(),
      details: z.record(z.string(), z.unknown()).optional(),
      request_id: z.string().meta({ example: 'req_01jd0000000000000000000000' }),
      retry_after: z.number().int().optional().meta({ description: 'Seconds to wait (429 only)' }),
    }),
  })
  .meta({ id: 'Error' });

export function listOf<T extends z.ZodType>(item: T, id: string) {
  return z
    .object({
      items: z.array(item),
      total: z.number().int(),
      limit: z.number().int(),
      offset: z.number().int(),
    })
    .meta({ id });
}

/** A path id: any non-empty string; services answer 404 for ids that do not exist. */
export const idParam = (name: string, example: string) =>
  z.object({ [name]: z.string().min(1).max(200).meta({ example }) });

/**
 * A name, title or label: control characters (C0 except tab, DEL, C1) become spaces, then the
 * value is trimmed, so stored names never split a header or a log line.
 */
export const label = (field: string) => z.string({ error: `${field} must be a string` }).overwrite(replaceControlCharacters).trim();

/**
 * The answer to a batch (207): how many items succeeded and failed, and each item's outcome in the
 * order sent, its result under `key` or the error it alone got.
 */
export function batchResultOf<K extends string, T extends z.ZodType>(key: K, result: T, id: string) {
  return z
    .object({
      created: z.number().int(),
      failed: z.number().int(),
      results: z.array(
        z.object({
          index: z.number().int(),
          file_id: z.string(),
          ...({ [key]: result.optional() } as Record<K, z.ZodOptional<T>>),
          error: z
            .object({ code: z.string(), message: z.string(), details: z.record(z.string(), z.unknown()).optional() })
            .optional()
            .meta({ description: 'Why this item failed; the others are not affected' }),
        }),
      ),
    })
    .meta({ id });
}

/** A custom JSON object of at most 16 KB (knowledge-base and document metadata). */
export const metadataObject = (what: string) =>
  z
    .record(z.string(), z.unknown(), { error: `${what} must be a JSON object` })
    .refine((v) => Buffer.byteLength(JSON.stringify(v)) <= MAX_METADATA_BYTES, `${what} must be at most ${MAX_METADATA_BYTES / 1024} KB of JSON`)
    .meta({ description: `Custom ${what} (a JSON object, at most 16 KB)` });
