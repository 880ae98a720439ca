import { eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { describe, expect, it } from 'vitest';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as filesRoute from '@/app/v1/files/route';
import * as meRoute from '@/app/v1/me/route';
import * as setupRoute from '@/app/v1/setup/route';
import * as userRoute from '@/app/v1/users/[user_id]/route';
import * as usersRoute from '@/app/v1/users/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import { authSecret } from '@/lib/users/session';
import { files, users } from '@/lib/db/schema';
import { useTestApp } from '@/test/support/app';
import { formWith } from '@/test/support/fixtures';
import { verifyCredentials } from '@/lib/users/service';

const app = useTestApp();
const ORIGIN = 'http://localhost';

async function sessionCookie(userId: string): Promise<string> {
  const token = await encode({ token: { sub: userId, email: 'x' }, secret: authSecret() });
  return `next-auth.session-token=${token}`;
}

async function createUser(email: string, role: 'admin' | 'member', password = 'correct horse battery') {
  const res = await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email, password, role } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe('first-run setup', () => {
  it('creates the first administrator once, and only while no user exists', async () => {
    const status = await app.call(setupRoute.GET, { path: '/v1/setup', key: null });
    expect(status.body).toEqual({ setup_required: true });
    const attempts = await Promise.all(
      ['first@example.com', 'second@example.com'].map((email) =>
        app.call(setupRoute.POST, { method: 'POST', path: '/v1/setup', key: null, body: { email, password: 'a long password 1' } }),
      ),
    );
    expect(attempts.map((r) => r.status).sort()).toEqual([201, 409]);
    const created = attempts.find((r) => r.status === 201)!;
    expect(created.body).toMatchObject({ role: 'admin', disabled: false });
    expect(created.text).not.toContain('password');
    expect(attempts.find((r) => r.status === 409)!.body.error.code).toBe('SETUP_COMPLETED');
    expect((await app.call(setupRoute.GET, { path: '/v1/setup', key: null })).body).toEqual({ setup_required: false });
    const short = await app.call(setupRoute.POST, { method: 'POST', path: '/v1/setup', key: null, body: { email: 'x@example.com', password: 'short' } });
    expect(short.status).toBe(400);
  });
});

describe('users', () => {
  it('stores an Argon2id hash and checks credentials; disabled users cannot sign in', async () => {
    const id = await createUser('Mia@Example.com', 'member');
    const [row] = await app.db.select().from(users).where(eq(users.id, id));
    expect(row.email).toBe('mia@example.com');
    expect(row.passwordHash).toMatch(/^\$argon2id\$/);
    expect(await verifyCredentials(app.db, 'MIA@example.com', 'correct horse battery')).toMatchObject({ id });
    expect(await verifyCredentials(app.db, 'mia@example.com', 'wrong password')).toBeNull();
    expect(await verifyCredentials(app.db, 'nobody@example.com', 'correct horse battery')).toBeNull();
    for (const hostile of ['mia\u0000@example.com', 'mia\ud800@example.com', `${'m'.repeat(400)}@example.com`]) {
      expect(await verifyCredentials(app.db, hostile, 'correct horse battery')).toBeNull();
    }
    const disabled = await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${id}`, params: { user_id: id }, body: { disabled: true } });
    expect(disabled.body.disabled).toBe(true);
    expect(await verifyCredentials(app.db, 'mia@example.com', 'correct horse battery')).toBeNull();
    const duplicate = await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'mia@example.com', password: 'another password' } });
    expect([duplicate.status, duplicate.body.error.code]).toEqual([409, 'USER_EXISTS']);
  });

  it('resets passwords and changes roles, but never leaves no enabled administrator', async () => {
    const list = await app.call(usersRoute.GET, { path: '/v1/users' });
    const admins = list.body.items.filter((u: { role: string; disabled: boolean }) => u.role === 'admin' && !u.disabled);
    expect(admins).toHaveLength(1);
    const only = admins[0].id;
    const demote = await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${only}`, params: { user_id: only }, body: { role: 'member' } });
    expect([demote.status, demote.body.error.code]).toEqual([409, 'LAST_ADMIN']);
    const id = await createUser('leo@example.com', 'member');
    const reset = await app.call(userRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/users/${id}`,
      params: { user_id: id },
      body: { password: 'a brand new password', role: 'admin' },
    });
    expect(reset.body.role).toBe('admin');
    expect(await verifyCredentials(app.db, 'leo@example.com', 'a brand new password')).toMatchObject({ id });
    const missing = await app.call(userRoute.PATCH, { method: 'PATCH', path: '/v1/users/usr_01jd0000000000000000000000', params: { user_id: 'usr_01jd0000000000000000000000' }, body: { role: 'admin' } });
    expect([missing.status, missing.body.error.code]).toEqual([404, 'USER_NOT_FOUND']);
  });
});

describe('console sessions on the /v1 API', () => {
  it('accepts a session cookie: admins get everything, members everything but keys, webhooks and users', async () => {
    const admin = await createUser('admin2@example.com', 'admin');
    const member = await createUser('member2@example.com', 'member');
    const asAdmin = { key: null, headers: { cookie: await sessionCookie(admin) } };
    const asMember = { key: null, headers: { cookie: await sessionCookie(member) } };
    expect((await app.call(filesRoute.GET, { path: '/v1/files', ...asMember })).status).toBe(200);
    expect((await app.call(apiKeysRoute.GET, { path: '/v1/api-keys', ...asAdmin })).status).toBe(200);
    expect((await app.call(webhooksRoute.GET, { path: '/v1/webhooks', ...asAdmin })).status).toBe(200);
    for (const [handler, path] of [
      [apiKeysRoute.GET, '/v1/api-keys'],
      [webhooksRoute.GET, '/v1/webhooks'],
      [usersRoute.GET, '/v1/users'],
    ] as const) {
      const res = await app.call(handler, { path, ...asMember });
      expect([res.status, res.body.error.code], path).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
    const me = await app.call(meRoute.GET, { path: '/v1/me', ...asMember });
    expect(me.body).toMatchObject({ kind: 'user', id: member, role: 'member', scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'] });
  });

  it('rejects cross-site writes with a cookie, records the user on what they create', async () => {
    const member = await createUser('writer@example.com', 'member');
    const cookie = await sessionCookie(member);
    const upload = (headers: Record<string, string>) =>
      app.call(filesRoute.POST, { method: 'POST', path: '/v1/files', key: null, headers: { cookie, ...headers }, body: formWith('csrf.txt', Buffer.from('x')) });
    const attempts: Record<string, string>[] = [{}, { origin: 'https://evil.example' }, { origin: 'null' }, { 'sec-fetch-site': 'cross-site' }];
    for (const headers of attempts) {
      const res = await upload(headers);
      expect([res.status, res.body.error.code], JSON.stringify(headers)).toEqual([403, 'CSRF_REJECTED']);
    }
    const ok = await upload({ origin: ORIGIN });
    expect(ok.status).toBe(201);
    expect((await upload({ 'sec-fetch-site': 'same-origin' })).status).toBe(201);
    const [row] = await app.db.select().from(files).where(eq(files.id, ok.body.id));
    expect(row.createdByKey).toBe(member);
  });

  it('answers 401 for a forged, expired or disabled user session', async () => {
    const id = await createUser('gone@example.com', 'member');
    const forged = await encode({ token: { sub: id }, secret: 'a different secret entirely' });
    const expired = await encode({ token: { sub: id }, secret: authSecret(), maxAge: -3600 });
    for (const cookie of [`next-auth.session-token=${forged}`, `next-auth.session-token=${expired}`, 'next-auth.session-token=garbage']) {
      const res = await app.call(filesRoute.GET, { path: '/v1/files', key: null, headers: { cookie } });
      expect([res.status, res.body?.error?.code], `${cookie.slice(0, 40)} ${res.text.slice(0, 200)}`).toEqual([401, "UNAUTHORIZED"]);
    }
    await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${id}`, params: { user_id: id }, body: { disabled: true } });
    const res = await app.call(filesRoute.GET, { path: '/v1/files', key: null, headers: { cookie: await sessionCookie(id) } });
    expect(res.status).toBe(401);
  });
});
