import { expect, test } from '@playwright/test';
import { startSite, type Site } from '../test/support/site-server';
import { createKnowledgeBase, signIn, suffix } from './helpers';

/*
 * Sources in the console: a website added to a knowledge base (its settings tried first with
 * "Test connection"), its first sync followed on the source's page to the end, then a search
 * that finds a crawled page and a citation that says where the passage came from.
 * The site is served by the spec on 127.0.0.1 (the server runs with QUARRY_SOURCES_ALLOW_PRIVATE).
 */

const SCREENS = 'test-results/screens';
let site: Site;

test.beforeAll(async () => {
  site = await startSite();
});

test.afterAll(async () => {
  await site?.close();
});

test('add a web source from the console, watch it sync, search its content and open a citation', async ({ page }) => {
  test.setTimeout(120_000);
  const id = suffix();
  const kbName = `Orchard docs ${id}`;
  const intro = `${site.url}/docs/intro.html`;
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);

  // From the knowledge base's Sources section to the form.
  const sources = page.locator('section').filter({ has: page.getByRole('heading', { name: 'Sources', level: 2 }) });
  await expect(sources.getByText('No sources yet')).toBeVisible();
  await sources.getByRole('link', { name: 'Add a source' }).click();
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}/sources/new$`));
  await expect(page.getByRole('heading', { name: 'Add a source', level: 1 })).toBeVisible();

  await page.getByRole('radio', { name: /Website/ }).check();
  // The form checks the address before asking the server.
  const start = page.getByLabel('Start page (URL)');
  await start.fill('docs without a scheme');
  await page.getByRole('button', { name: 'Test connection' }).click();
  await expect(page.getByText('Enter the full address of the start page')).toBeVisible();
  await start.fill(`${site.url}/docs/`);
  await expect(page.getByText('Enter the full address of the start page')).toBeHidden();

  await page.getByRole('button', { name: 'Test connection' }).click();
  const found = page.getByRole('region', { name: 'Test result' });
  await expect(found).toContainText('The connection worked.');
  await expect(found.getByRole('list', { name: 'Items found' })).toContainText(intro);

  // Every 6 hours, read back in words; then back to only when asked.
  await page.getByRole('radio', { name: 'Every … hours' }).check();
  await expect(page.getByTestId('schedule-preview')).toHaveText(/Syncs every 6 hours/);
  await page.getByRole('radio', { name: 'Custom (cron)' }).check();
  await page.getByLabel('Cron expression').fill('0 3 * * *');
  await expect(page.getByTestId('schedule-preview')).toHaveText(/Syncs at 03:00 AM/);
  await page.getByRole('radio', { name: 'Only when I ask' }).check();
  await page.screenshot({ path: `${SCREENS}/sources-new-1280.png`, fullPage: true });

  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await expect(page).toHaveURL(/\/sources\/src_[a-z0-9]+$/);
  await expect(page.getByRole('heading', { name: `127.0.0.1:${new URL(site.url).port}/docs/`, level: 1 })).toBeVisible();

  // The first sync runs to the end, the page following it by itself.
  const run = page.getByTestId('run-row').first();
  await expect(run).toContainText('Completed', { timeout: 90_000 });
  await expect(run.getByTestId('run-counts')).toContainText('6 added');
  await expect(run.getByTestId('run-counts')).toContainText('6 skipped');
  await expect(page.getByTestId('active-run')).toHaveCount(0);
  await expect(page.getByText('Only when asked', { exact: true })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/sources-detail-1280.png`, fullPage: true });

  // The knowledge base lists the source and says where each document came from.
  await page.getByRole('navigation', { name: 'Breadcrumb' }).getByRole('link', { name: kbName }).click();
  await expect(page.getByTestId('source-row')).toContainText('Completed');
  await expect(page.getByTestId('source-row')).toContainText('Only when asked');
  await expect(page.getByTestId('document-row')).toHaveCount(6);
  await expect(page.getByTestId('document-origin').getByRole('link', { name: intro })).toHaveAttribute('href', /\/sources\/src_/);
  await page.screenshot({ path: `${SCREENS}/sources-knowledge-base-1280.png`, fullPage: true });

  // A search finds the crawled page, and its result names the page it came from.
  await page.goto(`/search?kb=${kbId}`);
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kbId);
  await page.getByLabel('What are you looking for?').fill('heliotrope');
  await page.getByRole('radio', { name: /Meaning and keywords/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();
  const best = page.getByTestId('search-result').first();
  await expect(best).toContainText('heliotrope');
  await expect(best.getByTestId('result-origin').getByRole('link', { name: intro })).toHaveAttribute('href', intro);
  // Asked whether it still holds: the page at the site is as indexed.
  await best.getByRole('button', { name: 'Is it still current?' }).click();
  await expect(best.getByTestId('citation-verdict')).toContainText('Still current');
  await page.screenshot({ path: `${SCREENS}/sources-search-1280.png`, fullPage: true });

  // The citation opens the passage in its text, and says where the document comes from.
  await best.getByRole('link', { name: /^Open (at page 1|the document)/ }).click();
  await expect(page).toHaveURL(/\/extractions\/[^/?]+\?.*from=\d+&to=\d+$/);
  await expect(page.getByRole('region', { name: 'Passage found by your search' })).toContainText('heliotrope');
  await expect(page.getByTestId('source-url')).toHaveText(intro);
  await expect(page.getByRole('link', { name: intro })).toHaveAttribute('href', intro);
  await page.screenshot({ path: `${SCREENS}/sources-citation-1280.png`, fullPage: true });
});
