import { z } from 'zod';
import { MAX_EMAIL_LENGTH, MIN_PASSWORD_LENGTH, USER_ROLES } from '@/lib/users/service';
import { idParam, label, listOf, paginationQuery, timestamp } from './common';

const email = z.email({ error: 'email must be an email address' }).max(MAX_EMAIL_LENGTH).meta({ example: 'ana@example.com' });
const password = z
  .string({ error: 'password must be a string' })
  .min(MIN_PASSWORD_LENGTH, `password must be at least ${MIN_PASSWORD_LENGTH} characters`)
  .max(200, 'password must be at most 200 characters')
  .meta({ description: `At least ${MIN_PASSWORD_LENGTH} characters; write-only` });
const name = label('name').max(200, 'name must be at most 200 characters');
const role = z.enum(USER_ROLES, { error: `role must be one of: ${USER_ROLES.join(', ')}` });

export const createUserBody = z.object({ email, password, role: role.default('member'), name: name.optional() }).meta({ id: 'CreateUser' });
export const updateUserBody = z
  .object({ name: name.optional(), role: role.optional(), password: password.optional(), disabled: z.boolean({ error: 'disabled must be a boolean' }).optional() })
  .meta({ id: 'UpdateUser' });
export const setupBody = z.object({ email, password, name: name.optional() }).meta({ id: 'Setup' });
export const userIdParams = idParam('user_id', 'usr_01jd0000000000000000000000');
export const userListQuery = paginationQuery;

export const userSchema = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    role: role,
    disabled: z.boolean(),
    last_sign_in_at: timestamp.nullable(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: 'User' });
export const userListSchema = listOf(userSchema, 'UserList');
export const setupStatusSchema = z.object({ setup_required: z.boolean() }).meta({ id: 'SetupStatus' });
export const meSchema = z
  .object({
    kind: z.enum(['user', 'api_key']),
    id: z.string(),
    name: z.string(),
    role: z.enum(['admin', 'member']).nullable(),
    scopes: z.array(z.string()),
    knowledge_base_ids: z
      .array(z.string())
      .nullable()
      .meta({ description: 'The knowledge bases an API key is limited to; null when it is not limited (and for console users)' }),
  })
  .meta({ id: 'Me' });
