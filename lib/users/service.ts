import { hash, verify } from '@node-rs/argon2';
import { asc, count, eq, sql } from 'drizzle-orm';
import { ApiError, notFound } from '@/lib/errors';
import type { ServiceContext } from '@/lib/context';
import type { Db, DbOrTx } from '@/lib/db/client';
import { isUniqueViolation } from '@/lib/db/errors';
import { paginate } from '@/lib/db/paginate';
import { users, type UserRow } from '@/lib/db/schema';
import { recordEvent } from '@/lib/events';
import { ROLE_SCOPES, ungrantableScopes } from '@/lib/auth/scopes';
import { ID_PREFIXES, newId } from '@/lib/ids';
import { unstorableTextReason } from '@/lib/text/clean';

/*
 * Console users. Passwords are hashed with Argon2id (@node-rs/argon2, its default parameters:
 * 19 MiB, 2 iterations). Roles: admin (everything) and member (everything except API keys,
 * webhooks, users and maintenance). Managing users needs every scope a role grants: a caller may
 * neither create nor change a user who could do more than the caller, since signing in as that
 * user would hand the caller the difference. Creations, changes and password resets are events.
 */

export const USER_ROLES = ['admin', 'member'] as const;
export type UserRole = (typeof USER_ROLES)[number];
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_EMAIL_LENGTH = 320;

export function toUserView(row: UserRow) {
  return {
    id: row.id,
    email: row.email,
    name: row.name,
    role: row.role,
    disabled: row.disabled,
    last_sign_in_at: row.lastSignInAt ? row.lastSignInAt.toISOString() : null,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}

export const normaliseEmail = (email: string) => email.trim().toLowerCase();

export interface CreateUserInput {
  email: string;
  password: string;
  role: UserRole;
  name?: string;
}

export async function insertUser(db: DbOrTx, input: CreateUserInput): Promise<UserRow> {
  const now = new Date();
  try {
    const [row] = await db
      .insert(users)
      .values({
        id: newId('user'),
        email: normaliseEmail(input.email),
        name: input.name?.trim() ?? '',
        passwordHash: await hash(input.password),
        role: input.role,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    return row;
  } catch (err) {
    if (isUniqueViolation(err)) throw new ApiError('USER_EXISTS', `A user with the email ${normaliseEmail(input.email)} already exists`, { field: 'email' });
    throw err;
  }
}

/** Refuses when the caller does not hold every scope the role grants. */
function checkMayManage(ctx: ServiceContext, role: UserRole, action: string): void {
  const missing = ungrantableScopes(ctx.principal?.scopes ?? [], ROLE_SCOPES[role]);
  if (missing.length > 0) {
    throw new ApiError('INSUFFICIENT_SCOPE', `Only a holder of ${missing.map((m) => `"${m}"`).join(', ')} may ${action} a user with the role ${role}`, {
      required_scope: missing[0],
      role,
    });
  }
}

/** Console sessions carry the user's id where API keys carry the key's. */
const isUserId = (id: string | null | undefined): id is string => !!id?.startsWith(`${ID_PREFIXES.user}_`);

/** Who made a change to a user, for the event log. */
function actor(ctx: ServiceContext) {
  const id = ctx.principal?.keyId ?? null;
  return { kind: isUserId(id) ? 'user' : 'api_key', id };
}

export async function createUser(ctx: ServiceContext, input: CreateUserInput) {
  checkMayManage(ctx, input.role, 'create');
  const row = await ctx.db.transaction(async (tx) => {
    const created = await insertUser(tx, input);
    await recordEvent(tx, 'user.created', { user_id: created.id, role: created.role, by: actor(ctx) }, ctx.requestId);
    return created;
  });
  return toUserView(row);
}

export async function countUsers(db: DbOrTx): Promise<number> {
  const [{ n }] = await db.select({ n: count() }).from(users);
  return Number(n);
}

/** The first administrator, from the one-time setup page: only while no user exists. */
export async function createFirstAdmin(ctx: ServiceContext, input: Omit<CreateUserInput, 'role'>) {
  const row = await ctx.db.transaction(async (tx) => {
    // Serialise concurrent setups: the table lock makes the emptiness check and insert atomic.
    await tx.execute(sql`lock table users in exclusive mode`);
    if ((await countUsers(tx)) > 0) throw new ApiError('SETUP_COMPLETED', 'Setup has already been completed; sign in instead');
    return insertUser(tx, { ...input, role: 'admin' });
  });
  return toUserView(row);
}

export async function listUsers(ctx: ServiceContext, input: { limit: number; offset: number }) {
  return paginate(
    ctx.db,
    { from: users, orderBy: [asc(users.createdAt), asc(users.id)], limit: input.limit, offset: input.offset },
    toUserView,
  );
}

export interface UpdateUserInput {
  name?: string;
  role?: UserRole;
  password?: string;
  disabled?: boolean;
}

/** Changes role, name, password or the disabled flag; the last enabled admin cannot be demoted or disabled. */
export async function updateUser(ctx: ServiceContext, id: string, input: UpdateUserInput) {
  const row = await ctx.db.transaction(async (tx) => {
    const [current] = await tx.select().from(users).where(eq(users.id, id)).for('update');
    if (!current) throw notFound('USER_NOT_FOUND', 'User', id);
    checkMayManage(ctx, current.role, 'change');
    if (input.role !== undefined) checkMayManage(ctx, input.role, 'give the role to');
    const losesAdmin = current.role === 'admin' && !current.disabled && (input.role === 'member' || input.disabled === true);
    if (losesAdmin) {
      const admins = await tx.select({ id: users.id, disabled: users.disabled }).from(users).where(eq(users.role, 'admin')).for('update');
      if (admins.filter((a) => !a.disabled && a.id !== id).length === 0) {
        throw new ApiError('LAST_ADMIN', 'This is the only enabled administrator; make another user an administrator first');
      }
    }
    const patch: Partial<UserRow> = { updatedAt: new Date() };
    if (input.name !== undefined) patch.name = input.name.trim();
    if (input.role !== undefined) patch.role = input.role;
    if (input.disabled !== undefined) patch.disabled = input.disabled;
    if (input.password !== undefined) patch.passwordHash = await hash(input.password);
    const [updated] = await tx.update(users).set(patch).where(eq(users.id, id)).returning();
    // No email in events: webhook holders see the log, and need not learn who the users are.
    const subject = { user_id: updated.id, role: updated.role, by: actor(ctx) };
    const changes = (['name', 'role', 'disabled'] as const).filter((f) => input[f] !== undefined && input[f] !== current[f]);
    if (changes.length > 0) await recordEvent(tx, 'user.updated', { ...subject, changes }, ctx.requestId);
    if (input.password !== undefined) await recordEvent(tx, 'user.password_reset', subject, ctx.requestId);
    return updated;
  });
  return toUserView(row);
}

/** The user for a sign-in, or null (unknown email, wrong password or disabled: not told apart). */
export async function verifyCredentials(db: Db, email: string, password: string): Promise<UserRow | null> {
  // No stored email holds NUL or unpaired surrogates, and the database would refuse to compare them.
  const comparable = email.length <= MAX_EMAIL_LENGTH && unstorableTextReason(email) === null;
  const [row] = comparable ? await db.select().from(users).where(eq(users.email, normaliseEmail(email))).limit(1) : [];
  if (!row) {
    // Spend the same time as a real check, so response times do not reveal which emails exist.
    await verify(DUMMY_HASH, password).catch(() => false);
    return null;
  }
  const ok = await verify(row.passwordHash, password).catch(() => false);
  if (!ok || row.disabled) return null;
  await db.update(users).set({ lastSignInAt: new Date() }).where(eq(users.id, row.id));
  return row;
}

const DUMMY_HASH = '$argon2id$v=19$m=19456,t=2,p=1$6F3tsXVGZ/4EcdY+pVHwMQ$bq0Jyl/9nagzz5ronXuI9o+4xbOoSDS5Fxm0qWZN1B8';

export async function findUser(db: DbOrTx, id: string): Promise<UserRow | undefined> {
  const [row] = await db.select().from(users).where(eq(users.id, id)).limit(1);
  return row;
}

/** QUARRY_ADMIN_EMAIL + QUARRY_ADMIN_PASSWORD: that administrator exists (created once, at start). */
export async function ensureConfiguredAdmin(db: Db, email: string | undefined, password: string | undefined): Promise<void> {
  if (!email || !password) return;
  const [existing] = await db.select({ id: users.id }).from(users).where(eq(users.email, normaliseEmail(email))).limit(1);
  if (existing) return;
  try {
    await insertUser(db, { email, password, role: 'admin', name: 'Administrator' });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 'USER_EXISTS')) throw err;
  }
}

/** Whether the one-time setup page is needed: no user yet and none configured in the environment. */
export async function setupStatus(ctx: ServiceContext) {
  return { setup_required: (await countUsers(ctx.db)) === 0 };
}

/** Who is calling: a console user (with role) or an API key, and the scopes in force. */
export async function describePrincipal(ctx: ServiceContext) {
  const principal = ctx.principal!;
  const user = isUserId(principal.keyId) ? await findUser(ctx.db, principal.keyId) : undefined;
  return {
    kind: user ? ('user' as const) : ('api_key' as const),
    id: principal.keyId,
    name: user ? user.name || user.email : principal.name,
    role: user ? user.role : null,
    scopes: principal.scopes,
    knowledge_base_ids: principal.knowledgeBaseIds ?? null,
  };
}
