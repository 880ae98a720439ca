import { and, eq } from 'drizzle-orm';
import { encode } from 'next-auth/jwt';
import { afterEach, describe, expect, it } from 'vitest';
import * as maintenanceRoute from '@/app/admin/maintenance/route';
import * as apiKeyRoute from '@/app/v1/api-keys/[key_id]/route';
import * as apiKeysRoute from '@/app/v1/api-keys/route';
import * as eventsRoute from '@/app/v1/events/route';
import * as kbsRoute from '@/app/v1/knowledge-bases/route';
import * as meRoute from '@/app/v1/me/route';
import * as setupRoute from '@/app/v1/setup/route';
import * as userRoute from '@/app/v1/users/[user_id]/route';
import * as usersRoute from '@/app/v1/users/route';
import * as webhookRoute from '@/app/v1/webhooks/[webhook_id]/route';
import * as webhooksRoute from '@/app/v1/webhooks/route';
import { forgetCachedKeys } from '@/lib/auth/api-keys';
import { SCOPES } from '@/lib/auth/scopes';
import { authSecret } from '@/lib/users/session';
import { apiKeys, events } from '@/lib/db/schema';
import { useTestApp } from '@/test/support/app';
import { createKb } from '@/test/support/knowledge-bases';
import { createUser, updateUser, verifyCredentials } from '@/lib/users/service';
import { setWebhookLookup } from '@/lib/webhooks/delivery';

/*
 * Every path from a narrower credential to a wider one: new keys, console users, sessions and
 * webhooks. Each row is an attempt that must be refused, beside the allowed case it mirrors.
 */

const app = useTestApp();
const PASSWORD = 'the original password';
const SECRET = 'a webhook secret of some length';

const NARROW_SCOPES = SCOPES.filter((s) => s !== '*');

async function createAdminUser(email: string) {
  const res = await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email, password: PASSWORD, role: 'admin' } });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

async function sessionOf(userId: string) {
  const token = await encode({ token: { sub: userId, email: 'x' }, secret: authSecret() });
  return { key: null, headers: { cookie: `next-auth.session-token=${token}`, origin: 'http://localhost' } };
}

async function keyCreatedBy(key: string, body: Record<string, unknown>, ip?: string) {
  return app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', key, body: { name: 'child', ...body }, ip });
}

describe('API keys never mint wider keys', () => {
  it('refuses every scope a key does not hold, and all scopes when omitted', async () => {
    const admin = await app.createKey({ scopes: ['api-keys:*'] });
    expect((await keyCreatedBy(admin.key, { scopes: ['api-keys:*'] })).status).toBe(201);
    for (const body of [{}, { scopes: ['*'] }, { scopes: ['files:read'] }, { scopes: ['api-keys:*', 'webhooks:*'] }]) {
      const res = await keyCreatedBy(admin.key, body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
    for (const scope of NARROW_SCOPES.filter((s) => s !== 'api-keys:*')) {
      const narrow = await app.createKey({ scopes: [scope] });
      const res = await keyCreatedBy(narrow.key, { scopes: [scope] });
      expect([res.status, res.body.error.code], scope).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
  });

  it('keeps a new key within its creator’s addresses, inheriting them when none are given', async () => {
    const limited = await app.createKey({ scopes: ['*'], allowedIps: ['10.0.0.0/8'] });
    const inherited = await keyCreatedBy(limited.key, {}, '10.1.2.3');
    expect(inherited.status, inherited.text).toBe(201);
    expect(inherited.body.allowed_ips).toEqual(['10.0.0.0/8']);
    const narrower = await keyCreatedBy(limited.key, { allowed_ips: ['10.1.0.0/16', '10.9.9.9'] }, '10.1.2.3');
    expect(narrower.status, narrower.text).toBe(201);
    for (const allowed_ips of [['0.0.0.0/0'], ['10.0.0.0/7'], ['192.168.1.1'], ['::/0'], ['10.1.0.0/16', '11.0.0.1']]) {
      const res = await keyCreatedBy(limited.key, { allowed_ips }, '10.1.2.3');
      expect([res.status, res.body.error.code, res.body.error.details?.field], allowed_ips.join()).toEqual([403, 'INSUFFICIENT_SCOPE', 'allowed_ips']);
    }
  });

  it('never lets a new key outlive its creator', async () => {
    const created = await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'temporary admin', expires_in_days: 2 } });
    const temporary = created.body as { key: string; expires_at: string };
    const inherited = await keyCreatedBy(temporary.key, {});
    expect(inherited.status, inherited.text).toBe(201);
    expect(inherited.body.expires_at).toBe(temporary.expires_at);
    expect((await keyCreatedBy(temporary.key, { expires_in_days: 1 })).status).toBe(201);
    const longer = await keyCreatedBy(temporary.key, { expires_in_days: 3 });
    expect([longer.status, longer.body.error.code, longer.body.error.details.field]).toEqual([403, 'INSUFFICIENT_SCOPE', 'expires_in_days']);
  });
});

describe('API keys never revoke wider keys', () => {
  const revokeBy = (key: string, id: string) =>
    app.call(apiKeyRoute.DELETE, { method: 'DELETE', path: `/v1/api-keys/${id}`, params: { key_id: id }, key });

  it('an api-keys:* key revokes keys within its scopes and itself, never a key holding more', async () => {
    const narrowAdmin = await app.createKey({ scopes: ['api-keys:*'] });
    const full = await app.createKey({ scopes: ['*'] });
    const reader = await app.createKey({ scopes: ['files:read'] });
    const peer = await app.createKey({ scopes: ['api-keys:*'] });
    for (const [target, unheld] of [[full, ['*']], [reader, ['files:read']]] as const) {
      const res = await revokeBy(narrowAdmin.key, target.id);
      expect([res.status, res.body.error.code], res.text).toEqual([403, 'INSUFFICIENT_SCOPE']);
      expect(res.body.error.details).toMatchObject({ required_scope: unheld[0], unheld_scopes: unheld });
      expect((await app.call(meRoute.GET, { path: '/v1/me', key: target.key })).status).toBe(200);
    }
    expect((await revokeBy(narrowAdmin.key, peer.id)).status).toBe(204);
    expect((await app.call(meRoute.GET, { path: '/v1/me', key: peer.key })).status).toBe(401);
    expect((await revokeBy(full.key, reader.id)).status).toBe(204);
    expect((await revokeBy(narrowAdmin.key, narrowAdmin.id)).status).toBe(204);
    expect((await app.call(meRoute.GET, { path: '/v1/me', key: narrowAdmin.key })).status).toBe(401);
  });

  it('answers 404 for a key that does not exist or is already revoked before weighing scopes', async () => {
    const narrowAdmin = await app.createKey({ scopes: ['api-keys:*'] });
    const full = await app.createKey({ scopes: ['*'] });
    expect((await revokeBy(app.adminKey, full.id)).status).toBe(204);
    for (const id of [full.id, 'key_doesnotexist']) {
      const res = await revokeBy(narrowAdmin.key, id);
      expect([res.status, res.body.error.code], id).toEqual([404, 'API_KEY_NOT_FOUND']);
    }
  });
});

describe('keys limited to knowledge bases never widen themselves', () => {
  it('create no keys at all, not even narrower ones, and neither list nor revoke keys', async () => {
    const a = await createKb(app, { name: 'a' });
    const b = await createKb(app, { name: 'b' });
    const limited = await app.createKey({ knowledgeBaseIds: [a] });
    const bystander = await app.createKey({ scopes: ['*'] });
    for (const body of [{}, { knowledge_base_ids: [a] }, { knowledge_base_ids: [a], scopes: ['kb:search'] }, { knowledge_base_ids: [a, b] }, { scopes: ['kb:read'] }]) {
      const res = await keyCreatedBy(limited.key, body);
      expect([res.status, res.body.error.code], JSON.stringify(body)).toEqual([403, 'INSUFFICIENT_SCOPE']);
    }
    const list = await app.call(apiKeysRoute.GET, { path: '/v1/api-keys', key: limited.key });
    const revoke = await app.call(apiKeyRoute.DELETE, { method: 'DELETE', path: `/v1/api-keys/${bystander.id}`, params: { key_id: bystander.id }, key: limited.key });
    for (const res of [list, revoke]) expect([res.status, res.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect((await app.call(meRoute.GET, { path: '/v1/me', key: bystander.key })).status).toBe(200);
  });

  it('an administrator cannot mint a limited key holding more than files, extractions and kb', async () => {
    const a = await createKb(app, { name: 'admin-made' });
    for (const scopes of [['*'], ['api-keys:*'], ['webhooks:*']]) {
      const res = await keyCreatedBy(app.adminKey, { scopes, knowledge_base_ids: [a] });
      expect([res.status, res.body.error.code, res.body.error.details.field], scopes[0]).toEqual([400, 'INVALID_REQUEST', 'scopes']);
    }
  });

  it('holds a limited key written with "*" by hand to files, extractions and kb: no keys, webhooks, events or users', async () => {
    const a = await createKb(app, { name: 'hand-written' });
    const { id, key } = await app.createKey({ knowledgeBaseIds: [a] });
    await app.db.update(apiKeys).set({ scopes: ['*'] }).where(eq(apiKeys.id, id));
    forgetCachedKeys();
    const me = await app.call(meRoute.GET, { path: '/v1/me', key });
    expect(me.body).toMatchObject({ scopes: ['files:*', 'extractions:*', 'kb:*', 'sources:*'], knowledge_base_ids: [a] });
    const attempts = [
      await keyCreatedBy(key, { knowledge_base_ids: [a] }),
      await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', key, body: { url: 'https://hooks.example.com/x', events: ['*'], secret: SECRET } }),
      await app.call(eventsRoute.GET, { path: '/v1/events', key }),
      await app.call(usersRoute.GET, { path: '/v1/users', key }),
      await app.call(maintenanceRoute.POST, { method: 'POST', path: '/admin/maintenance', key, body: { enabled: true } }),
      await app.call(kbsRoute.POST, { method: 'POST', path: '/v1/knowledge-bases', key, body: { name: 'more' } }),
    ];
    for (const res of attempts) expect([res.status, res.body.error.code], res.text).toEqual([403, 'INSUFFICIENT_SCOPE']);
    expect(attempts[1].body.error.message).toContain('limited to knowledge bases');
  });

  it('console sessions are not limited: a member sees every knowledge base', async () => {
    const a = await createKb(app, { name: 'seen by members' });
    const member = (await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'kb-member@example.com', password: PASSWORD } })).body.id;
    const res = await app.call(kbsRoute.GET, { path: '/v1/knowledge-bases?limit=100', ...(await sessionOf(member)) });
    expect(res.status).toBe(200);
    expect(res.body.items.map((k: { id: string }) => k.id)).toContain(a);
    const me = await app.call(meRoute.GET, { path: '/v1/me', ...(await sessionOf(member)) });
    expect(me.body.knowledge_base_ids).toBeNull();
  });
});

describe('console users need every scope a role grants', () => {
  it('refuses every narrower key: no creating users, no resetting an admin’s password, no promotion', async () => {
    const admin = await createAdminUser('owner@example.com');
    const member = (await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'm@example.com', password: PASSWORD } })).body.id;
    for (const scope of NARROW_SCOPES) {
      const { key } = await app.createKey({ scopes: [scope] });
      const attempts = [
        await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', key, body: { email: `${scope.replace(/\W/g, '')}@x.example`, password: PASSWORD, role: 'admin' } }),
        await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', key, body: { email: `m-${scope.replace(/\W/g, '')}@x.example`, password: PASSWORD } }),
        await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${admin}`, params: { user_id: admin }, key, body: { password: 'taken over by a key' } }),
        await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${member}`, params: { user_id: member }, key, body: { role: 'admin' } }),
        await app.call(usersRoute.GET, { path: '/v1/users', key }),
      ];
      for (const res of attempts) {
        expect([res.status, res.body.error.code, res.body.error.details.required_scope], scope).toEqual([403, 'INSUFFICIENT_SCOPE', '*']);
      }
    }
    expect(await verifyCredentials(app.db, 'owner@example.com', PASSWORD)).toMatchObject({ id: admin });
    expect(await verifyCredentials(app.db, 'owner@example.com', 'taken over by a key')).toBeNull();
  });

  it('checks the role in the service too: member scopes manage members only', async () => {
    const admin = await createAdminUser('boss@example.com');
    const ctx = (scopes: string[]) => ({ db: app.db, storage: null as never, requestId: null, principal: { keyId: 'key_x', name: 'x', scopes, allowedIps: null } });
    const memberScopes = ['files:*', 'extractions:*', 'kb:*', 'sources:*'];
    const created = await createUser(ctx(memberScopes), { email: 'helper@example.com', password: PASSWORD, role: 'member' });
    await expect(createUser(ctx(memberScopes), { email: 'sneaky@example.com', password: PASSWORD, role: 'admin' })).rejects.toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    await expect(updateUser(ctx(memberScopes), created.id, { role: 'admin' })).rejects.toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    await expect(updateUser(ctx(memberScopes), admin, { password: 'reset by a member' })).rejects.toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    await expect(updateUser(ctx(['files:*']), created.id, { name: 'renamed' })).rejects.toMatchObject({ code: 'INSUFFICIENT_SCOPE' });
    expect((await updateUser(ctx(memberScopes), created.id, { name: 'renamed' })).name).toBe('renamed');
  });

  it('records creating users, changing them and resetting passwords as events naming who did it', async () => {
    const admin = await createAdminUser('audited@example.com');
    const { id: keyId, key } = await app.createKey({ scopes: ['*'] });
    const reset = await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${admin}`, params: { user_id: admin }, key, body: { password: 'a new password here', name: 'Audited' } });
    expect(reset.status, reset.text).toBe(200);
    const of = async (type: string) =>
      (await app.db.select().from(events).where(eq(events.type, type))).filter((e) => (e.data as { user_id: string }).user_id === admin).map((e) => e.data);
    expect(await of('user.created')).toEqual([{ user_id: admin, role: 'admin', by: { kind: 'api_key', id: 'key_environment_admin' } }]);
    expect(await of('user.password_reset')).toEqual([{ user_id: admin, role: 'admin', by: { kind: 'api_key', id: keyId } }]);
    expect(await of('user.updated')).toEqual([{ user_id: admin, role: 'admin', by: { kind: 'api_key', id: keyId }, changes: ['name'] }]);
    const text = JSON.stringify(await app.db.select().from(events).where(and(eq(events.type, 'user.password_reset'))));
    expect(text).not.toContain('a new password here');
  });
});

describe('sessions reach no more than their role', () => {
  it('a member session cannot create keys, users, webhooks, promote itself or turn maintenance on', async () => {
    const member = (await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'climber@example.com', password: PASSWORD } })).body.id;
    const asMember = await sessionOf(member);
    const attempts = [
      await app.call(apiKeysRoute.POST, { method: 'POST', path: '/v1/api-keys', body: { name: 'mine', scopes: ['files:read'] }, ...asMember }),
      await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'mine@example.com', password: PASSWORD, role: 'admin' }, ...asMember }),
      await app.call(userRoute.PATCH, { method: 'PATCH', path: `/v1/users/${member}`, params: { user_id: member }, body: { role: 'admin' }, ...asMember }),
      await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body: { url: 'https://hooks.example.com/x', events: ['*'], secret: SECRET }, ...asMember }),
      await app.call(maintenanceRoute.POST, { method: 'POST', path: '/admin/maintenance', body: { enabled: true }, ...asMember }),
    ];
    for (const res of attempts) expect([res.status, res.body.error.code]).toEqual([403, 'INSUFFICIENT_SCOPE']);
    const setup = await app.call(setupRoute.POST, { method: 'POST', path: '/v1/setup', key: null, body: { email: 'late@example.com', password: PASSWORD } });
    expect([setup.status, setup.body.error.code]).toEqual([409, 'SETUP_COMPLETED']);
  });

  it('an administrator session may manage users (it holds every scope)', async () => {
    const admin = await createAdminUser('session-admin@example.com');
    const res = await app.call(usersRoute.POST, { method: 'POST', path: '/v1/users', body: { email: 'by-session@example.com', password: PASSWORD, role: 'admin' }, ...(await sessionOf(admin)) });
    expect(res.status, res.text).toBe(201);
  });
});

describe('webhooks cannot reach what delivery would refuse', () => {
  afterEach(() => setWebhookLookup(undefined));

  it('normalises host names (case, trailing dots, IDNA) before every check', async () => {
    const { key } = await app.createKey({ scopes: ['webhooks:*'] });
    const hosts = [
      'https://LOCALHOST.:8443/x',
      'https://LocalHost/x',
      'https://localhost../x',
      'https://api.LOCALHOST./x',
      'https://127.0.0.1./x',
      'https://0x7f.1/x',
      'https://[::1]/x',
      'https://[::ffff:127.0.0.1]/x',
      'https://169.254.169.254./latest',
      'https://METADATA.google.INTERNAL./x',
      'https://printer.local./x',
      'https://router.home.arpa/x',
      'https://ｌｏｃａｌｈｏｓｔ/x',
      'https://intranet./x',
    ];
    for (const url of hosts) {
      const res = await app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', key, body: { url, events: ['*'], secret: SECRET } });
      expect([res.status, res.body.error.code, res.body.error.details?.field], url).toEqual([400, 'INVALID_REQUEST', 'url']);
    }
  });

  it('refuses at creation and on update a name that resolves to a private address', async () => {
    setWebhookLookup(async (host) => {
      if (host === 'rebind.example.com') return [{ address: '93.184.216.35', family: 4 }, { address: '10.0.0.5', family: 4 }];
      if (host === 'public.example.com') return [{ address: '93.184.216.34', family: 4 }];
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    const create = (url: string) => app.call(webhooksRoute.POST, { method: 'POST', path: '/v1/webhooks', body: { url, events: ['*'], secret: SECRET } });
    const blocked = await create('https://REBIND.example.com./hook');
    expect([blocked.status, blocked.body.error.details?.reason]).toEqual([400, 'rebind.example.com resolves to 10.0.0.5, which is not a public address']);
    const ok = await create('https://public.example.com/hook');
    expect(ok.status, ok.text).toBe(201);
    // A name that does not resolve yet is accepted: delivery checks again at every attempt.
    expect((await create('https://not-yet.example.com/hook')).status).toBe(201);
    const moved = await app.call(webhookRoute.PATCH, {
      method: 'PATCH',
      path: `/v1/webhooks/${ok.body.id}`,
      params: { webhook_id: ok.body.id },
      body: { url: 'https://rebind.example.com/hook' },
    });
    expect([moved.status, moved.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });
});
