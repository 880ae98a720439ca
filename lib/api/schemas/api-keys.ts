import { z } from 'zod';
import { isValidIpOrCidr } from '@/lib/auth/ip';
import { SCOPES } from '@/lib/auth/scopes';
import { idParam, label, listOf, paginationQuery, sortQuery, timestamp } from './common';
import { API_KEY_SORT_FIELDS } from '@/lib/auth/api-keys';

export const scopeSchema = z.enum(SCOPES, { error: `unknown scope; known scopes: ${SCOPES.join(', ')}` });

export const createApiKeyBody = z
  .object({
    name: label('name').min(1, 'name is required').max(200, 'name must be at most 200 characters'),
    scopes: z.array(scopeSchema).min(1, 'scopes must not be empty; omit it to grant all permissions').max(SCOPES.length).optional(),
    expires_in_days: z
      .number({ error: 'expires_in_days must be a positive integer' })
      .int('expires_in_days must be a positive integer')
      .min(1, 'expires_in_days must be at least 1')
      .max(3650, 'expires_in_days must be at most 3650')
      .optional(),
    allowed_ips: z
      .array(z.string().refine(isValidIpOrCidr, { error: 'must be an IP address or CIDR range' }))
      .max(100, 'at most 100 allowed_ips entries')
      .optional(),
  })
  .meta({ id: 'CreateApiKey' });

export const apiKeyListQuery = paginationQuery.extend(sortQuery(API_KEY_SORT_FIELDS, 'created_at', 'desc').shape);
export const apiKeyIdParams = idParam('key_id', 'key_01jd0000000000000000000000');

export const createdApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().meta({ description: 'The full key; shown only in this response', example: 'sk_test_…' }),
    key_prefix: z.string(),
    scopes: z.array(z.string()),
    allowed_ips: z.array(z.string()).nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'CreatedApiKey' });

export const apiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key_prefix: z.string().meta({ example: 'sk_test_Ab12' }),
    scopes: z.array(z.string()),
    allowed_ips: z.array(z.string()).nullable(),
    last_used_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiKey' });

export const apiKeyListSchema = listOf(apiKeySchema, 'ApiKeyList');
