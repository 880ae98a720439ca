import { z } from 'zod';
import { isValidIpOrCidr } from '@/lib/auth/ip';
import { SCOPES } from '@/lib/auth/scopes';
import { idParam, label, listOf, paginationQuery, sortQuery, timestamp } from './common';
import { API_KEY_SORT_FIELDS } from '@/lib/auth/api-keys';
import { isId } from '@/lib/ids';

export const scopeSchema = z.enum(SCOPES, { error: `unknown scope; known scopes: ${SCOPES.join(', ')}` });

const KNOWLEDGE_BASE_LIMIT_DESCRIPTION =
  'The knowledge bases the key is limited to (null: all). Such a key sees only these knowledge bases, their documents, ' +
  'and the files and extractions of those documents; it cannot create knowledge bases, upload outside them, or use webhooks, ' +
  'the event log or administration. A deleted knowledge base leaves the list; a key left with none reaches nothing.';

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
    knowledge_base_ids: z
      .array(z.string().refine((v) => isId('knowledgeBase', v), { error: 'must be a knowledge base id (kb_…)' }))
      .min(1, 'knowledge_base_ids must not be empty; omit it (or send null) for a key that reaches every knowledge base')
      .max(100, 'at most 100 knowledge_base_ids')
      .nullable()
      .optional()
      .meta({
        description: `${KNOWLEDGE_BASE_LIMIT_DESCRIPTION} Each must exist (404 KNOWLEDGE_BASE_NOT_FOUND). With it, scopes may only be files, extractions, kb and sources scopes and default to files:*, extractions:*, kb:*, sources:*.`,
        example: ['kb_01jd0000000000000000000000'],
      }),
  })
  .meta({ id: 'CreateApiKey' });

export const apiKeyListQuery = paginationQuery.extend(sortQuery(API_KEY_SORT_FIELDS, 'created_at', 'desc').shape);
export const apiKeyIdParams = idParam('key_id', 'key_01jd0000000000000000000000');

const knowledgeBaseLimit = z.array(z.string()).nullable().meta({ description: KNOWLEDGE_BASE_LIMIT_DESCRIPTION, example: null });

export const createdApiKeySchema = z
  .object({
    id: z.string(),
    name: z.string(),
    key: z.string().meta({ description: 'The full key; shown only in this response', example: 'sk_test_…' }),
    key_prefix: z.string(),
    scopes: z.array(z.string()),
    allowed_ips: z.array(z.string()).nullable(),
    knowledge_base_ids: knowledgeBaseLimit,
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
    knowledge_base_ids: knowledgeBaseLimit,
    last_used_at: timestamp.nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: 'ApiKey' });

export const apiKeyListSchema = listOf(apiKeySchema, 'ApiKeyList');
