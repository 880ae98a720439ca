import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import AxeBuilder from '@axe-core/playwright';
import { expect, request as playwrightRequest, test, type APIRequestContext, type APIResponse, type Locator, type Page } from '@playwright/test';
import { startSite, type Site } from '../test/support/site-server';
import { ADMIN_KEY, dialog, signIn } from './helpers';

/*
 * Every console page, and its main dialogs, checked by axe-core on a desktop and on a phone
 * screen: no serious or critical problem (contrast, names, roles, nested controls…) may remain.
 * The pages hold real content made through the API first: a file turned into text and indexed in
 * a knowledge base, a webhook with a delivery, and an API key.
 */

const AUTH = { Authorization: `Bearer ${ADMIN_KEY}` };
const SCREENS = [
  { width: 1280, height: 800 },
  { width: 390, height: 844 },
] as const;
const id = Date.now().toString(36);
const STATE = path.join(os.tmpdir(), `quarry-a11y-${id}-${process.pid}.json`);

/** A short document with the things the text views show: headings, a list, a table and code. */
const DOCUMENT = `# Harbour handbook ${id}

The lighthouse keeper polishes the brass lantern every evening before the ships pass the rocky cape.

## Tides

High tide arrives twice a day, and the harbour master writes each time into a leather logbook.

- Check the moorings at dawn
- Log every arrival

| Boat | Length | Berth | Owner |
| --- | --- | --- | --- |
| Seagull | 8 m | A1 | Harbour club |
| Kestrel | 11 m | B4 | Fishing cooperative |

\`\`\`
berth --assign A1 --boat Seagull
\`\`\`
`;

interface Made {
  fileId: string;
  filename: string;
  extractionId: string;
  kbId: string;
  kbName: string;
  webhookId: string;
  hookUrl: string;
  keyName: string;
  sourceId: string;
  sourceName: string;
  sourceKbId: string;
}
let made: Made;
let api: APIRequestContext;
let receiver: http.Server;
/** A small site on 127.0.0.1 that a source crawls (the server allows private addresses for sources). */
let site: Site;

async function json<T>(response: APIResponse, status: number): Promise<T> {
  expect(response.status(), await response.text()).toBe(status);
  return (await response.json()) as T;
}

test.beforeAll(async ({ browser }, testInfo) => {
  test.setTimeout(120_000);
  const baseURL = testInfo.project.use.baseURL!;
  // Signed out, explicitly: the saved sign-in the tests below use does not exist yet.
  const signedOut = { cookies: [], origins: [] };
  api = await playwrightRequest.newContext({ baseURL, extraHTTPHeaders: AUTH, storageState: signedOut });

  // A receiver for the webhook, so its page lists a delivery that succeeded.
  receiver = http.createServer((req, res) => req.resume().on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('ok')));
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const hookUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hook`;

  const kbName = `Harbour ${id}`;
  const kb = await json<{ id: string }>(await api.post('/v1/knowledge-bases', { data: { name: kbName, description: 'Tides, boats and berths' } }), 201);
  const filename = `harbour-${id}.md`;
  const file = await json<{ id: string; extraction: { id: string } | null }>(
    await api.post('/v1/files', {
      multipart: { file: { name: filename, mimeType: 'text/markdown', buffer: Buffer.from(DOCUMENT) }, tags: 'harbour, a11y', knowledge_base_id: kb.id },
    }),
    201,
  );
  expect(file.extraction).not.toBeNull();
  const webhook = await json<{ id: string }>(
    await api.post('/v1/webhooks', { data: { url: hookUrl, events: ['file.deleted'], secret: `a11y-secret-${id}-0123456789` } }),
    201,
  );
  await json(await api.post(`/v1/webhooks/${webhook.id}/test`), 200);
  const keyName = `Harbour importer ${id}`;
  await json(await api.post('/v1/api-keys', { data: { name: keyName, scopes: ['files:read'] } }), 201);

  // The document is searchable once its text is read and indexed.
  await expect
    .poll(async () => ((await (await api.get(`/v1/knowledge-bases/${kb.id}/documents`)).json()) as { items: { status: string }[] }).items[0]?.status, {
      timeout: 90_000,
      intervals: [250, 500, 1000],
    })
    .toBe('indexed');
  // A website source of its own knowledge base, synced once, so its page lists a completed sync.
  site = await startSite();
  const orchard = await json<{ id: string }>(await api.post('/v1/knowledge-bases', { data: { name: `Orchard ${id}` } }), 201);
  const sourceName = `Orchard site ${id}`;
  const source = await json<{ id: string }>(
    await api.post('/v1/sources', { data: { type: 'web', knowledge_base_id: orchard.id, name: sourceName, config: { start_url: `${site.url}/docs/` } } }),
    201,
  );
  await expect
    .poll(async () => ((await (await api.get(`/v1/sources/${source.id}`)).json()) as { last_run: { status: string } | null }).last_run?.status, {
      timeout: 90_000,
      intervals: [250, 500, 1000],
    })
    .toBe('completed');
  made = {
    fileId: file.id,
    filename,
    extractionId: file.extraction!.id,
    kbId: kb.id,
    kbName,
    webhookId: webhook.id,
    hookUrl,
    keyName,
    sourceId: source.id,
    sourceName,
    sourceKbId: orchard.id,
  };

  // One sign-in for every test of the signed-in pages.
  const page = await browser.newPage({ baseURL, storageState: signedOut });
  await signIn(page);
  await page.context().storageState({ path: STATE });
  await page.close();
});

test.afterAll(async () => {
  if (made) await api.delete(`/v1/webhooks/${made.webhookId}`);
  await api?.dispose();
  fs.rmSync(STATE, { force: true });
  await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
  await site?.close();
});

/** One line per problem and element: rule, impact, what is wrong, and where. */
function describeViolations(results: Awaited<ReturnType<AxeBuilder['analyze']>>): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) =>
      v.nodes.map((node) => `${v.id} (${v.impact}): ${v.help} — ${node.target.join(' ')} — ${node.failureSummary?.replace(/\s+/g, ' ').trim() ?? ''}`),
    );
}

/** The page has finished loading: nothing says "Loading…", and the given content is shown. */
async function settled(page: Page, ready: Locator[]) {
  for (const locator of ready) await expect(locator).toBeVisible();
  await expect(page.locator('[role="status"] .animate-spin')).toHaveCount(0);
  await page.evaluate(() => document.fonts.ready.then(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)))));
}

/**
 * Checks the page at both screen sizes and fails with every serious or critical problem found.
 * `ready` lists what must be visible first; `prepare` runs after each resize (to open a menu).
 */
async function expectAccessible(page: Page, name: string, ready: () => Locator[], prepare?: (width: number) => Promise<void>) {
  const problems: string[] = [];
  for (const size of SCREENS) {
    await page.setViewportSize(size);
    if (prepare) await prepare(size.width);
    await settled(page, ready());
    const results = await new AxeBuilder({ page }).analyze();
    problems.push(...describeViolations(results).map((line) => `${size.width}×${size.height}: ${line}`));
  }
  expect(problems, `${name}: serious or critical accessibility problems`).toEqual([]);
}

/** A toast of this kind is shown, and axe finds nothing serious in the toast area while it is. */
async function expectReadableToast(page: Page, type: 'success' | 'error', text: string) {
  const toast = page.locator(`[data-sonner-toast][data-type="${type}"]`).filter({ hasText: text });
  await expect(toast).toBeVisible();
  // Hovering keeps the toast open while it is checked; it is checked once fully faded in.
  await toast.hover();
  await expect.poll(() => toast.evaluate((el) => getComputedStyle(el).opacity)).toBe('1');
  const results = await new AxeBuilder({ page }).include('[data-sonner-toaster]').analyze();
  expect(describeViolations(results), `the ${type} toast “${text}”`).toEqual([]);
  // Closed by its button, so the page behind is checked without it.
  await toast.getByRole('button', { name: 'Close toast' }).click();
  await expect(toast).toHaveCount(0);
  await page.mouse.move(0, 0);
}

test.describe('signed in', () => {
  test.use({ storageState: STATE });

  test('overview', async ({ page }) => {
    await page.goto('/');
    await expectAccessible(
      page,
      'Overview',
      () => [page.getByRole('heading', { name: 'Overview', level: 1 })],
      // On a phone the navigation sits behind the menu button: check it opened too.
      async (width) => {
        if (width < 768) {
          await page.getByRole('button', { name: 'Menu' }).click();
          await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' })).toBeVisible();
        }
      },
    );
  });

  test('files, with an upload through the drop area and its toast', async ({ page }) => {
    await page.goto('/files');
    const table = page.getByRole('region', { name: 'Files table' });
    await expect(table.getByRole('link', { name: made.filename })).toBeVisible();
    // The drop area is one button named by its visible words, with no control nested in it.
    const chooser = page.getByTestId('dropzone').getByRole('button', { name: /Drag files here, or click to choose/ });
    await expect(chooser).toBeVisible();
    await page.getByLabel('Turn into text right away').uncheck();
    // By keyboard: Enter on the button opens the file picker.
    await chooser.focus();
    const [picker] = await Promise.all([page.waitForEvent('filechooser'), page.keyboard.press('Enter')]);
    expect(picker.isMultiple()).toBe(true);
    const uploaded = `tides-${id}.md`;
    await picker.setFiles({ name: uploaded, mimeType: 'text/markdown', buffer: Buffer.from(`${DOCUMENT}\nAdded by hand.\n`) });
    await expectReadableToast(page, 'success', '1 file uploaded');
    // A file Quarry cannot read is refused before sending: a red toast and a row saying why.
    await page.getByTestId('dropzone').locator('input[type="file"]').setInputFiles({ name: `tool-${id}.bin`, mimeType: 'application/octet-stream', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 1, 2, 3]) });
    await expectReadableToast(page, 'error', `tool-${id}.bin was not uploaded`);
    const rows = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem');
    await expect(rows.filter({ hasText: uploaded })).toContainText('Uploaded');
    await expect(rows.filter({ hasText: `tool-${id}.bin` })).toContainText('Not uploaded');
    await expectAccessible(page, 'Files', () => [page.getByRole('heading', { name: 'Files', level: 1 }), table.getByRole('link', { name: uploaded })]);
  });

  test('file detail', async ({ page }) => {
    await page.goto(`/files/${made.fileId}`);
    await expectAccessible(page, 'File detail', () => [
      page.getByRole('heading', { name: made.filename, level: 1 }),
      page.getByRole('list', { name: 'Extractions of this file' }),
    ]);
  });

  test('extraction', async ({ page }) => {
    await page.goto(`/extractions/${made.extractionId}`);
    await expectAccessible(page, 'Extraction', () => [page.getByRole('region', { name: 'Document text' }).getByRole('table')]);
  });

  test('knowledge bases, and the new knowledge base dialog', async ({ page }) => {
    await page.goto('/knowledge-bases');
    await expectAccessible(page, 'Knowledge bases', () => [page.getByRole('link', { name: made.kbName })]);
    await page.getByRole('button', { name: 'New knowledge base' }).first().click();
    const create = dialog(page, 'New knowledge base');
    await expectAccessible(page, 'New knowledge base dialog', () => [create.getByLabel('Name')]);
    // Created, it opens empty, with a success toast.
    await create.getByLabel('Name').fill(`Empty shelf ${id}`);
    await create.getByRole('button', { name: 'Create knowledge base' }).click();
    await expectReadableToast(page, 'success', 'was created');
    await expectAccessible(page, 'Empty knowledge base', () => [page.getByText('No documents yet')]);
    await page.getByRole('button', { name: 'Delete' }).click();
    const confirm = dialog(page, 'Delete knowledge base');
    await expectAccessible(page, 'Delete knowledge base dialog', () => [confirm.getByRole('button', { name: 'Delete' })]);
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expect(page).toHaveURL(/\/knowledge-bases$/);
  });

  test('knowledge base detail, its add documents and edit dialogs, and a toast', async ({ page }) => {
    await page.goto(`/knowledge-bases/${made.kbId}`);
    await expectAccessible(page, 'Knowledge base detail', () => [
      page.getByRole('heading', { name: made.kbName, level: 1 }),
      page.getByTestId('document-row').filter({ hasText: 'Indexed' }),
    ]);
    await page.getByRole('button', { name: 'Add documents' }).click();
    const add = dialog(page, 'Add documents');
    await expectAccessible(page, 'Add documents dialog', () => [add.getByRole('checkbox').first()]);
    await page.keyboard.press('Escape');
    await expect(add).toBeHidden();

    await page.getByRole('button', { name: 'Edit' }).click();
    const edit = dialog(page, 'Edit knowledge base');
    await expectAccessible(page, 'Edit knowledge base dialog', () => [edit.getByRole('radio', { name: /By paragraphs/ })]);
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await expectReadableToast(page, 'success', 'Saved.');
  });

  test('search, with results shown', async ({ page }) => {
    await page.goto(`/search?kb=${made.kbId}`);
    await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(made.kbId);
    await page.getByLabel('What are you looking for?').fill('lighthouse keeper polishes the brass lantern');
    await page.getByRole('button', { name: 'Search', exact: true }).click();
    await expectAccessible(page, 'Search', () => [page.getByTestId('search-result').first()]);
  });

  test('sources, and the add a source form with its checks and a test result', async ({ page }) => {
    await page.goto('/sources');
    await expectAccessible(page, 'Sources', () => [page.getByRole('link', { name: made.sourceName })]);
    await page.goto(`/knowledge-bases/${made.sourceKbId}/sources/new`);
    await expect(page.getByRole('heading', { name: 'Add a source', level: 1 })).toBeVisible();
    // Saved empty: the form says what is missing, beside the field.
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await expectAccessible(page, 'Add a source form with its checks', () => [page.getByText('Enter the page to start from')]);
    await page.getByLabel('Start page (URL)').fill(`${site.url}/docs/`);
    await page.getByRole('button', { name: 'Test connection' }).click();
    await page.getByRole('radio', { name: 'Custom (cron)' }).check();
    await expectAccessible(page, 'Add a source form with a test result', () => [
      page.getByRole('list', { name: 'Items found' }),
      page.getByLabel('Cron expression'),
    ]);
    await page.getByRole('radio', { name: /S3-compatible bucket/ }).check();
    await expectAccessible(page, 'Add a source form for a bucket', () => [page.getByLabel('Secret access key')]);
  });

  test('source detail, its edit form and its delete dialog', async ({ page }) => {
    await page.goto(`/sources/${made.sourceId}`);
    await expectAccessible(page, 'Source detail', () => [
      page.getByRole('heading', { name: made.sourceName, level: 1 }),
      page.getByTestId('run-row').filter({ hasText: 'Completed' }),
    ]);
    await page.getByRole('button', { name: 'Edit name, schedule or reading' }).click();
    await page.getByRole('radio', { name: 'Every … hours' }).check();
    await expectAccessible(page, 'Edit source form', () => [page.getByLabel('Every', { exact: true })]);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    const confirm = dialog(page, 'Delete source');
    await expectAccessible(page, 'Delete source dialog', () => [confirm.getByRole('radio', { name: /Keep the documents/ })]);
    await page.keyboard.press('Escape');
    await expect(confirm).toBeHidden();
  });

  test('API keys, and the new key dialog', async ({ page }) => {
    await page.goto('/api-keys');
    await expectAccessible(page, 'API keys', () => [page.getByRole('row').filter({ hasText: made.keyName })]);
    await page.getByRole('button', { name: 'Create API key' }).click();
    await page.getByLabel('Name', { exact: true }).fill(`Harbour reader ${id}`);
    await page.getByRole('group', { name: 'Permissions' }).getByRole('checkbox', { name: /kb:\*/ }).check();
    await expectAccessible(page, 'Create an API key form', () => [page.getByRole('button', { name: 'Create key' })]);
    await page.getByRole('button', { name: 'Create key' }).click();
    const shown = page.getByRole('dialog').filter({ hasText: 'Your new API key' });
    await expectAccessible(page, 'New API key dialog', () => [shown.getByLabel(/Key for/)]);
  });

  test('webhooks, and the new webhook form', async ({ page }) => {
    await page.goto('/webhooks');
    await expectAccessible(page, 'Webhooks', () => [page.getByRole('link', { name: made.hookUrl })]);
    await page.getByRole('button', { name: 'Add webhook' }).click();
    await expectAccessible(page, 'Add webhook form', () => [page.getByLabel('Receiving address (URL)')]);
  });

  test('webhook detail', async ({ page }) => {
    await page.goto(`/webhooks/${made.webhookId}`);
    await expectAccessible(page, 'Webhook detail', () => [
      page.getByRole('heading', { name: 'Webhook', level: 1 }),
      page.getByRole('list', { name: 'Deliveries' }).getByRole('listitem').first(),
    ]);
  });

  test('settings', async ({ page }) => {
    await page.goto('/settings');
    await expectAccessible(page, 'Settings', () => [page.getByRole('switch', { name: 'Maintenance mode' })]);
  });

  test('users', async ({ page }) => {
    await page.goto('/settings/users');
    await expectAccessible(page, 'Users', () => [page.getByRole('row').filter({ hasText: 'you' })]);
    await page.getByRole('button', { name: 'Add user' }).click();
    await expectAccessible(page, 'Add user form', () => [page.getByLabel('Name (optional)')]);
  });
});

test('sign-in page, signed out', async ({ page }) => {
  await page.goto('/sign-in');
  await expectAccessible(page, 'Sign in', () => [page.getByRole('button', { name: 'Sign in' })]);
  await page.getByLabel('Email').fill('nobody@quarry.test');
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expectAccessible(page, 'Sign in with a refusal', () => [page.getByText('The email or password is not right')]);
});

test('setup page of a new installation', async ({ page }, testInfo) => {
  // The second server of the suite has no administrator yet; only looking at its page changes nothing.
  const main = new URL(testInfo.project.use.baseURL!);
  const setup = `${main.protocol}//${main.hostname}:${Number(main.port) + 1}/setup`;
  await page.goto(setup);
  await expectAccessible(page, 'Setup', () => [page.getByRole('heading', { name: 'Welcome to Quarry' }), page.getByLabel('Password')]);
});
