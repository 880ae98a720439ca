import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type Page } from '@playwright/test';
import { ADMIN_KEY, signIn } from './helpers';

/*
 * The administrator pages, used as a person would: webhooks with a real local receiver, API keys,
 * users and what a member may see, and maintenance mode.
 */

const BEARER = { authorization: `Bearer ${ADMIN_KEY}` };

/** Full-page screenshots at desktop and phone widths; fails when the page scrolls sideways on the phone. */
async function screens(page: Page, name: string) {
  await expect(page.locator('[data-sonner-toast]')).toHaveCount(0, { timeout: 15_000 });
  for (const [width, height] of [
    [1280, 800],
    [390, 844],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.waitForTimeout(300);
    await page.screenshot({ path: `test-results/screens/${name}-${width}.png`, fullPage: true });
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow, `${name} at ${width}px scrolls sideways`).toBeLessThanOrEqual(0);
  }
  await page.setViewportSize({ width: 1280, height: 800 });
}

interface Received {
  event: string | undefined;
  delivery: string | undefined;
  body: string;
}

/** A webhook receiver on 127.0.0.1 that records every request and answers 200. */
async function startReceiver() {
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      received.push({ event: req.headers['x-service-event'] as string | undefined, delivery: req.headers['x-service-delivery'] as string | undefined, body: Buffer.concat(chunks).toString('utf8') });
      res.writeHead(200, { 'content-type': 'text/plain' }).end('thanks from the e2e receiver');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { received, url: `http://127.0.0.1:${port}/hook`, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test('webhooks: add one, see a delivery and its attempt, send it again, and send a test event', async ({ page, request }) => {
  const receiver = await startReceiver();
  try {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Webhooks' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Webhooks' })).toBeVisible();
    await expect(page.getByText('No webhooks yet')).toBeVisible();

    await page.getByRole('button', { name: 'Add webhook' }).click();
    await page.getByLabel('Receiving address (URL)').fill(receiver.url);
    const events = page.getByRole('group', { name: 'Events to send' });
    await events.getByRole('checkbox', { name: /knowledge_base\.created/ }).check();
    // The secret is made for the person, shown once with a warning.
    await expect(page.getByLabel('Signing secret')).toHaveValue(/^[A-Za-z0-9]{40}$/);
    await expect(page.getByRole('note').filter({ hasText: 'Shown once: store it now.' })).toBeVisible();
    await screens(page, 'webhook-form');
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expect(page).toHaveURL(/\/webhooks\/wh_/);
    await expect(page.getByRole('heading', { level: 1, name: 'Webhook' })).toBeVisible();
    await expect(page.getByText(receiver.url).first()).toBeVisible();
    await expect(page.getByText('Nothing has been sent yet')).toBeVisible();

    const kb = await request.post('/v1/knowledge-bases', { headers: BEARER, data: { name: 'Webhook e2e knowledge base' } });
    expect(kb.status()).toBe(201);
    await expect.poll(() => receiver.received.filter((r) => r.event === 'knowledge_base.created').length).toBe(1);

    const log = page.getByRole('list', { name: 'Deliveries' });
    const first = log.getByRole('listitem').filter({ hasText: 'A knowledge base was created' }).first();
    await expect(first).toContainText('succeeded');
    await first.getByRole('button', { name: 'Show attempts' }).click();
    const attempts = first.getByRole('list', { name: 'Attempts' });
    await expect(attempts).toContainText('Attempt 1');
    await expect(attempts).toContainText('HTTP 200');
    await expect(attempts).toContainText('thanks from the e2e receiver');
    await expect(first.getByRole('button', { name: 'Hide attempts' })).toHaveAttribute('aria-expanded', 'true');

    await first.getByRole('button', { name: 'Send again' }).click();
    await expect.poll(() => receiver.received.filter((r) => r.event === 'knowledge_base.created').length).toBe(2);
    const [original, again] = receiver.received;
    expect(again.body).toBe(original.body);
    expect(again.delivery).not.toBe(original.delivery);
    await expect(log.getByRole('listitem').filter({ hasText: 'sent again' })).toContainText('succeeded', { timeout: 30_000 });

    await page.getByRole('button', { name: 'Send test event' }).click();
    await expect(page.getByText('Test result:')).toBeVisible();
    await expect(page.getByText('The receiver accepted the message.')).toBeVisible();
    expect(receiver.received.some((r) => r.event === 'webhook.test')).toBe(true);
    await expect(log.getByRole('listitem').filter({ hasText: 'Test message' })).toBeVisible();

    const toggle = page.getByRole('switch', { name: 'Send messages' });
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await expect(first.getByRole('button', { name: 'Send again' })).toBeDisabled();
    await toggle.click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');

    await screens(page, 'webhook-detail');
  } finally {
    await receiver.close();
  }
});

test('API keys: create one shown once, use it, revoke it', async ({ page, request, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'API keys' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'API keys' })).toBeVisible();

  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Name', { exact: true }).fill('E2E reader');
  const permissions = page.getByRole('group', { name: 'Permissions' });
  await permissions.getByRole('checkbox', { name: /files:read/ }).check();
  await permissions.getByRole('checkbox', { name: /kb:\*/ }).check();
  await expect(permissions.getByRole('checkbox', { name: /kb:search/ })).toBeDisabled();
  await page.getByLabel('Expires after (days)').fill('30');
  await page.getByLabel('Allowed addresses (optional)').fill('127.0.0.1\n::1');
  await screens(page, 'api-key-form');
  await page.getByRole('button', { name: 'Create key' }).click();

  const dialog = page.getByRole('dialog').filter({ hasText: 'Your new API key' });
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText('It will not be shown again');
  const key = await dialog.getByLabel(/Key for/).inputValue();
  expect(key).toMatch(/^sk_(test|live)_[A-Za-z0-9]{32}$/);
  await screens(page, 'api-key-shown');
  await dialog.getByRole('button', { name: 'Copy key' }).click();
  await expect(dialog.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(key);
  // Escape does not lose the key: the dialog closes once the key is said to be stored.
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByRole('button', { name: 'Close' })).toBeDisabled();
  await dialog.getByLabel('I have stored this key somewhere safe').check();
  await dialog.getByRole('button', { name: 'Close' }).click();
  await expect(dialog).toBeHidden();

  const row = page.getByRole('row').filter({ hasText: 'E2E reader' });
  await expect(row).toContainText(key.slice(0, 12));
  await expect(row).toContainText('See files');
  await expect(row).toContainText('Only from 127.0.0.1, ::1');

  const ok = await request.get('/v1/files', { headers: { authorization: `Bearer ${key}` } });
  expect(ok.status()).toBe(200);
  await page.reload();
  await expect(row.locator('time').first()).toBeVisible();

  await screens(page, 'api-keys');

  await row.getByRole('button', { name: 'Revoke' }).click();
  const confirm = page.getByRole('dialog').filter({ hasText: 'Revoke this API key?' });
  await expect(confirm).toContainText('E2E reader');
  await confirm.getByRole('button', { name: 'Revoke key' }).click();
  await expect(row).toHaveCount(0);

  const refused = await request.get('/v1/files', { headers: { authorization: `Bearer ${key}` } });
  expect(refused.status()).toBe(401);
});

test('users: an administrator adds a member, who sees no administrator pages', async ({ page }) => {
  const member = { email: 'member.e2e@quarry.test', password: 'member-password-e2e', name: 'Mia Member' };
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
  await page.getByRole('link', { name: 'Manage users' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
  await expect(page.getByRole('row').filter({ hasText: 'you' })).toBeVisible();

  await page.getByRole('button', { name: 'Add user' }).click();
  await page.getByLabel('Email', { exact: true }).fill(member.email);
  await page.getByLabel('Name (optional)').fill(member.name);
  await page.getByLabel('Password', { exact: true }).fill('short');
  await page.getByRole('button', { name: 'Add user' }).click();
  await expect(page.getByText('The password must be at least 10 characters.')).toBeVisible();
  await page.getByLabel('Password', { exact: true }).fill(member.password);
  await page.getByRole('button', { name: 'Add user' }).click();
  const row = page.getByRole('row').filter({ hasText: member.email });
  await expect(row).toBeVisible();
  await expect(row.getByRole('combobox', { name: `Role of ${member.name}` })).toHaveValue('member');
  await screens(page, 'users');

  await page.getByRole('button', { name: 'Sign out' }).click();
  await expect(page).toHaveURL(/\/sign-in/);
  await signIn(page, member.email, member.password);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await expect(nav.getByRole('link', { name: 'Files' })).toBeVisible();
  for (const name of ['API keys', 'Webhooks', 'Settings']) await expect(nav.getByRole('link', { name })).toHaveCount(0);

  await page.goto('/api-keys');
  await expect(page.getByText('Only administrators can manage API keys.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Create API key' })).toHaveCount(0);
  await page.goto('/webhooks');
  await expect(page.getByText('Only administrators can manage webhooks.')).toBeVisible();
  await page.goto('/settings');
  await expect(page.getByText('Only administrators can change settings.')).toBeVisible();
  await page.goto('/settings/users');
  await expect(page.getByText('Only administrators can manage users.')).toBeVisible();
});

test('maintenance mode: turned on with a message shows a banner, and is turned off again', async ({ page, request }) => {
  const message = 'Upgrading the database, back at 14:00.';
  try {
    await signIn(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
    const toggle = page.getByRole('switch', { name: 'Maintenance mode' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    await page.getByLabel('Message shown to people').fill(message);
    await screens(page, 'settings');
    await toggle.click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Turn on maintenance mode?' });
    await expect(confirm).toContainText(message);
    await confirm.getByRole('button', { name: 'Turn on maintenance mode' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    const banner = page.getByRole('alert').filter({ hasText: 'Maintenance mode is on.' });
    await expect(banner).toContainText(message);
    await page.reload();
    await expect(banner).toContainText(message);
    await expect(page.getByLabel('Message shown to people')).toHaveValue(message);

    const refused = await request.get('/v1/files', { headers: BEARER });
    expect(refused.status()).toBe(503);

    await page.getByRole('switch', { name: 'Maintenance mode' }).click();
    await expect(page.getByRole('switch', { name: 'Maintenance mode' })).toHaveAttribute('aria-checked', 'false');
    await expect(banner).toBeHidden();
  } finally {
    const off = await request.post('/admin/maintenance', { headers: BEARER, data: { enabled: false } });
    expect(off.status()).toBe(200);
  }
});
