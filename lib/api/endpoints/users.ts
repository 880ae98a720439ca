import { endpoint } from '../endpoint';
import { createUserBody, meSchema, setupBody, setupStatusSchema, updateUserBody, userIdParams, userListQuery, userListSchema, userSchema } from '../schemas/users';

export const listUsers = endpoint({
  id: 'listUsers',
  method: 'GET',
  path: '/v1/users',
  summary: 'List console users',
  auth: '*',
  query: userListQuery,
  response: { status: 200, description: 'A page of users', schema: userListSchema },
  errors: [],
});

export const createUser = endpoint({
  id: 'createUser',
  method: 'POST',
  path: '/v1/users',
  summary: 'Create a console user',
  auth: '*',
  body: createUserBody,
  idempotent: true,
  response: { status: 201, description: 'Created', schema: userSchema },
  errors: ['USER_EXISTS'],
});

export const updateUser = endpoint({
  id: 'updateUser',
  method: 'PATCH',
  path: '/v1/users/{user_id}',
  summary: 'Change a user: name, role, password, disabled',
  auth: '*',
  params: userIdParams,
  body: updateUserBody,
  response: { status: 200, description: 'The user', schema: userSchema },
  errors: ['USER_NOT_FOUND', 'LAST_ADMIN'],
});

export const getSetupStatus = endpoint({
  id: 'getSetupStatus',
  method: 'GET',
  path: '/v1/setup',
  summary: 'Whether the one-time setup is needed (no authentication)',
  auth: 'public',
  response: { status: 200, description: 'Setup state', schema: setupStatusSchema },
  errors: [],
});

export const completeSetup = endpoint({
  id: 'completeSetup',
  method: 'POST',
  path: '/v1/setup',
  summary: 'Create the first administrator while no user exists (no authentication)',
  auth: 'public',
  body: setupBody,
  response: { status: 201, description: 'Created', schema: userSchema },
  errors: ['SETUP_COMPLETED'],
});

export const getMe = endpoint({
  id: 'getMe',
  method: 'GET',
  path: '/v1/me',
  summary: 'Who is calling: the console user or API key, and its scopes',
  auth: 'authenticated',
  response: { status: 200, description: 'The caller', schema: meSchema },
  errors: [],
});
