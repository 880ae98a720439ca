import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { expect, test, type APIRequestContext } from '@playwright/test';
import { ADMIN, ADMIN_KEY, signIn } from './helpers';

/*
 * The console made easy for people who are not technical: a webhook secret made for them, form
 * messages that go once a field is fixed, failing webhooks pointed out, a new key that cannot be
 * lost by a stray Escape, a session that ends without losing the page, tables as cards on phones,
 * activity in sentences, a 404 page inside the console, and a question before maintenance mode.
 */

const BEARER = { authorization: `Bearer ${ADMIN_KEY}` };
const run = Date.now().toString(36);
const PHONE = { width: 390, height: 844 };

/** An http address on loopback where nothing listens, so every delivery to it fails. */
async function closedAddress(): Promise<string> {
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as AddressInfo;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return `http://127.0.0.1:${port}/hook-${run}`;
}

async function created<T>(request: APIRequestContext, path: string, data: unknown): Promise<T> {
  const res = await request.post(path, { headers: BEARER, data });
  expect(res.status(), await res.text()).toBe(201);
  return (await res.json()) as T;
}

test('webhooks: a secret made for you, messages that clear as you fix them, and a failing webhook pointed out', async ({ page, context, request }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  const url = await closedAddress();
  let webhookId: string | undefined;
  try {
    await signIn(page);
    await page.goto('/webhooks');
    await page.getByRole('button', { name: 'Add webhook' }).click();

    // A strong secret is already there, read-only, with a copy button and the warning.
    const secret = page.getByLabel('Signing secret');
    await expect(page.getByRole('radio', { name: 'Make a strong secret for me (recommended)' })).toBeChecked();
    await expect(secret).toHaveValue(/^[A-Za-z0-9]{40}$/);
    await expect(secret).toHaveAttribute('readonly', '');
    await expect(page.getByRole('note').filter({ hasText: 'Shown once: store it now.' })).toBeVisible();
    const generated = await secret.inputValue();
    await page.screenshot({ path: 'test-results/screens/webhook-secret-1280.png', fullPage: true });
    await page.getByRole('button', { name: 'Copy secret' }).click();
    await expect(page.getByRole('button', { name: 'Copied', exact: true })).toBeVisible();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(generated);
    await page.getByRole('button', { name: 'Make another' }).click();
    await expect(secret).not.toHaveValue(generated);
    await expect(secret).toHaveValue(/^[A-Za-z0-9]{40}$/);

    // Messages go away as soon as each field is right, without sending the form again.
    const add = page.getByRole('button', { name: 'Add webhook' });
    await add.click();
    const urlMessage = page.getByText('Enter the web address that should receive the messages.');
    const eventsMessage = page.getByText('Choose at least one event, or "All events".');
    await expect(urlMessage).toBeVisible();
    await expect(eventsMessage).toBeVisible();
    await page.getByLabel('Receiving address (URL)').fill('example.com/hook');
    await expect(page.getByText('The address must start with https://')).toBeVisible();
    await expect(urlMessage).toBeHidden();
    await page.getByLabel('Receiving address (URL)').fill(url);
    await expect(page.getByText('The address must start with https://')).toBeHidden();
    await expect(eventsMessage).toBeVisible();
    await page.getByRole('group', { name: 'Events to send' }).getByRole('checkbox', { name: /knowledge_base\.deleted/ }).check();
    await expect(eventsMessage).toBeHidden();

    // People who already have a secret type their own; a short one is refused until it is long enough.
    await page.getByRole('radio', { name: 'I will type my own secret' }).check();
    await expect(secret).toHaveValue('');
    await expect(secret).not.toHaveAttribute('readonly', '');
    await secret.fill('too-short');
    await add.click();
    const secretMessage = page.getByText('The secret must be at least 16 characters.');
    await expect(secretMessage).toBeVisible();
    await secret.fill(`my-own-secret-${run}-0123456789`);
    await expect(secretMessage).toBeHidden();
    await add.click();
    await expect(page).toHaveURL(/\/webhooks\/wh_/);
    webhookId = page.url().split('/webhooks/')[1];

    // Nothing listens at the address: three test messages fail, and the list says so.
    const tests = page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem').filter({ hasText: 'Test message' });
    for (let sent = 1; sent <= 3; sent += 1) {
      await page.getByRole('button', { name: 'Send test event' }).click();
      await expect(page.getByText('The receiver did not accept the message.')).toBeVisible();
      await expect(tests).toHaveCount(sent);
    }
    // Why, in plain words first.
    await expect(page.getByText('Nothing at the address accepted the connection').first()).toBeVisible();
    await page.getByRole('link', { name: '← All webhooks' }).click();
    const row = page.getByRole('row').filter({ hasText: url });
    await expect(row).toContainText('Failing: last 3 deliveries failed');

    // On a phone the list is a card per webhook, its status in full view.
    await page.setViewportSize(PHONE);
    await expect(row.getByText('Status', { exact: true })).toBeVisible();
    await expect(row.getByText('Failing: last 3 deliveries failed')).toBeInViewport({ ratio: 1 });
    await page.screenshot({ path: 'test-results/screens/webhook-cards-390.png', fullPage: true });
    expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);
  } finally {
    if (webhookId) expect((await request.delete(`/v1/webhooks/${webhookId}`, { headers: BEARER })).status()).toBe(204);
  }
});

test('API keys: the new key stays on screen until you say it is stored', async ({ page }) => {
  const name = `Kept key ${run}`;
  await signIn(page);
  await page.goto('/api-keys');
  await page.getByRole('button', { name: 'Create API key' }).click();
  await page.getByLabel('Name', { exact: true }).fill(name);
  await page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox', { name: /files:read/ }).check();
  await page.getByRole('button', { name: 'Create key' }).click();

  const dialog = page.getByRole('dialog').filter({ hasText: 'Your new API key' });
  await expect(dialog).toBeVisible();
  const close = dialog.getByRole('button', { name: 'Close' });
  await expect(close).toBeDisabled();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeVisible();
  // A click beside the dialog does not close it either.
  await page.mouse.click(4, 4);
  await expect(dialog).toBeVisible();
  await expect(dialog.getByLabel(/Key for/)).toHaveValue(/^sk_(test|live)_/);

  await dialog.getByLabel('I have stored this key somewhere safe').check();
  await expect(close).toBeEnabled();
  await close.click();
  await expect(dialog).toBeHidden();
  await expect(page.getByRole('row').filter({ hasText: name })).toBeVisible();
});

test('phones: users and API keys are cards that show role, status and permissions', async ({ page, request }) => {
  const keyName = `Phone key ${run}`;
  await created(request, '/v1/api-keys', { name: keyName, scopes: ['files:read', 'kb:search'] });
  await signIn(page);
  await page.setViewportSize(PHONE);

  await page.goto('/settings/users');
  const me = page.getByRole('row').filter({ hasText: ADMIN.email });
  await expect(me.getByText('Role', { exact: true })).toBeVisible();
  await expect(me.getByRole('combobox', { name: /^Role of / })).toBeInViewport({ ratio: 1 });
  await expect(me.getByText('Status', { exact: true })).toBeVisible();
  await expect(me.getByText('active', { exact: true })).toBeInViewport({ ratio: 1 });
  await expect(me.getByRole('button', { name: 'Reset password' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'test-results/screens/users-cards-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  await page.goto('/api-keys');
  const key = page.getByRole('row').filter({ hasText: keyName });
  await expect(key.getByText('Permissions', { exact: true })).toBeVisible();
  await expect(key.getByText('See files')).toBeInViewport({ ratio: 1 });
  await expect(key.getByText('Search knowledge bases')).toBeInViewport({ ratio: 1 });
  await expect(key.getByRole('button', { name: 'Revoke' })).toBeInViewport({ ratio: 1 });
  await page.screenshot({ path: 'test-results/screens/api-key-cards-390.png', fullPage: true });
  expect(await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth)).toBeLessThanOrEqual(0);

  // On a wide screen the same lists are tables with their headings, and no card labels.
  await page.setViewportSize({ width: 1280, height: 800 });
  await expect(page.getByRole('columnheader', { name: 'Permissions' })).toBeVisible();
  await expect(key.getByText('Permissions', { exact: true })).toBeHidden();
});

test('session end: signed out behind the page, then back on the same page after signing in', async ({ page, context, request }) => {
  const kb = await created<{ id: string }>(request, '/v1/knowledge-bases', { name: `Session ${run}` });
  await signIn(page);
  await page.goto(`/search?kb=${kb.id}`);
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kb.id);
  await page.getByLabel('What are you looking for?').fill('anything at all');

  await context.clearCookies();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page).toHaveURL(/\/sign-in\?expired=1&next=/);
  await expect(page.getByRole('status').filter({ hasText: 'Your session ended. Sign in again to continue.' })).toBeVisible();
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(new RegExp(`/search\\?kb=${kb.id}$`));
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kb.id);
});

test('overview: recent activity reads as sentences', async ({ page, request }) => {
  const kbName = `Minutes ${run}`;
  const filename = `notes-${run}.md`;
  await created(request, '/v1/knowledge-bases', { name: kbName });
  const upload = await request.post('/v1/files', {
    headers: BEARER,
    multipart: { file: { name: filename, mimeType: 'text/markdown', buffer: Buffer.from(`# Notes ${run}\n\nThe harbour opens at six.\n`) }, extract: 'simple' },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  await signIn(page);
  const activity = page.getByRole('list', { name: 'Recent activity' });
  await expect(activity).toContainText(`Knowledge base “${kbName}” was created`);
  await expect(activity).toContainText(`${filename} was uploaded`);
  await expect(async () => {
    await page.reload();
    await expect(activity).toContainText(`${filename} was turned into text`, { timeout: 2_000 });
  }).toPass({ timeout: 60_000 });
  // No event type names such as "file.uploaded", and no internal names of the set-up.
  await expect(activity).not.toContainText('file.uploaded');
  await expect(activity).not.toContainText('extraction.completed');
  const health = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Service health' }) });
  await expect(health).toContainText('Database');
  await expect(health).toContainText('working');
  await expect(health).not.toContainText('pglite');
});

test('an address that leads nowhere shows a 404 page inside the console', async ({ page }) => {
  await signIn(page);
  const response = await page.goto(`/no-such-page-${run}`);
  expect(response?.status()).toBe(404);
  await expect(page.getByRole('heading', { level: 1, name: 'This page does not exist' })).toBeVisible();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' })).toBeVisible();
  await page.getByRole('link', { name: 'Go to the overview' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
});

test('maintenance mode asks before turning on, and turns off at once', async ({ page, request }) => {
  try {
    await signIn(page);
    await page.goto('/settings');
    const toggle = page.getByRole('switch', { name: 'Maintenance mode' });
    await expect(toggle).toHaveAttribute('aria-checked', 'false');

    await toggle.click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Turn on maintenance mode?' });
    await expect(confirm).toContainText('refuse uploads, searches and every other request');
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
    expect((await request.get('/v1/files', { headers: BEARER })).status()).toBe(200);

    await toggle.click();
    await confirm.getByRole('button', { name: 'Turn on maintenance mode' }).click();
    await expect(toggle).toHaveAttribute('aria-checked', 'true');
    await expect(page.getByRole('alert').filter({ hasText: 'Maintenance mode is on.' })).toBeVisible();

    await toggle.click();
    await expect(confirm).toBeHidden();
    await expect(toggle).toHaveAttribute('aria-checked', 'false');
  } finally {
    expect((await request.post('/admin/maintenance', { headers: BEARER, data: { enabled: false } })).status()).toBe(200);
  }
});
