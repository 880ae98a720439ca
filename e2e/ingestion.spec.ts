import { expect, test, type Page } from '@playwright/test';
import { chooseKnowledgeBaseForUploads, createKnowledgeBase, dialog, dropInput, signIn, suffix } from './helpers';

/*
 * Uploading straight into a knowledge base, as a person does it from the Files page: the files are
 * turned into text and indexed on their own, each row following its steps; a file that cannot be
 * read fails with a plain reason and can be sent again from the knowledge base page.
 */

const SCREENS = 'test-results/screens';

test('files dropped with a knowledge base chosen are turned into text, indexed and found by a search', async ({ page }) => {
  test.setTimeout(240_000);
  const id = suffix();
  const kbName = `Lighthouse notes ${id}`;
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await chooseKnowledgeBaseForUploads(page, kbName);

  const files = [
    { name: `keeper-${id}.md`, text: '# The keeper\n\nThe lighthouse keeper polishes the brass lantern every evening before the ships pass the rocky cape.\n' },
    { name: `tides-${id}.md`, text: '# Tides\n\nHigh tide arrives twice a day, and the harbour master writes each time into a leather logbook.\n' },
    { name: `gulls-${id}.md`, text: '# Gulls\n\nThe seagulls nest on the cliffs in spring and quarrel loudly over fish scraps near the pier.\n' },
  ];
  await dropInput(page).setInputFiles(files.map((f) => ({ name: f.name, mimeType: 'text/markdown', buffer: Buffer.from(f.text) })));

  // Each file follows its steps on its own row, ending done and searchable.
  const uploads = page.getByRole('list', { name: 'Uploads' });
  for (const f of files) {
    await expect(uploads.getByRole('listitem').filter({ hasText: f.name }).getByTestId('upload-step')).toContainText('Done', { timeout: 120_000 });
  }
  await expect(uploads.getByRole('listitem').filter({ hasText: files[0]!.name })).toContainText(`searchable in “${kbName}”`);
  await page.screenshot({ path: `${SCREENS}/ingestion-uploads-1280.png`, fullPage: true });

  // The choices are remembered by this browser.
  await page.reload();
  await expect(page.getByLabel('Turn into text right away')).toBeChecked();
  await expect(page.getByLabel('Add to knowledge base')).toHaveValue(kbId);

  // The knowledge base lists the three documents, indexed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await page.getByRole('link', { name: kbName }).click();
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}$`));
  const rows = page.getByTestId('document-row');
  await expect(rows).toHaveCount(3);
  await expect(rows.filter({ hasText: 'Indexed' })).toHaveCount(3);
  await expect(page.getByRole('button', { name: /Retry all failed/ })).toHaveCount(0);

  // And a search finds the keeper's passage.
  await page.getByRole('link', { name: 'Search this knowledge base' }).click();
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kbId);
  await page.getByLabel('What are you looking for?').fill('lighthouse keeper polishes the brass lantern');
  await page.getByRole('radio', { name: /Meaning and keywords/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();
  await expect(page.getByTestId('search-result').first()).toContainText('brass lantern');
});

test('a document whose file cannot be read fails with a plain reason and can be retried', async ({ page }) => {
  test.setTimeout(240_000);
  const id = suffix();
  const kbName = `Broken scans ${id}`;
  const filename = `broken-${id}.pdf`;
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await chooseKnowledgeBaseForUploads(page, kbName);
  await dropInput(page).setInputFiles({ name: filename, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 garbage') });

  // The upload works; reading the text does not, and the row says so with the reason and a Retry.
  const upload = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: filename });
  await expect(upload).toContainText('Uploaded');
  await expect(upload.getByTestId('upload-step')).toContainText(`Not added to “${kbName}”`, { timeout: 90_000 });
  await expect(upload).toContainText('Why:');
  await expect(upload.getByRole('button', { name: `Retry ${filename}` })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/ingestion-upload-failed-1280.png`, fullPage: true });

  // On the knowledge base page: the failed row explains itself, with a Retry and a Retry all.
  await page.goto(`/knowledge-bases/${kbId}`);
  const row = page.getByTestId('document-row').filter({ hasText: filename });
  await expect(row).toContainText('Failed');
  await expect(row.getByTestId('failure-reason')).toBeVisible();
  await expect(row.getByTestId('failure-reason')).not.toHaveText(/^Why it failed: $/);
  await expect(page.getByRole('button', { name: 'Retry all failed (1)' })).toBeVisible();
  await page.screenshot({ path: `${SCREENS}/ingestion-failed-1280.png`, fullPage: true });

  const [retried] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && /\/documents\/[^/]+\/retry$/.test(new URL(r.url()).pathname)),
    row.getByRole('button', { name: /^Retry/ }).click(),
  ]);
  expect(retried.status(), await retried.text()).toBe(200);
  expect(((await retried.json()) as { status: string }).status).toBe('pending');
  await expect(page.getByText(/is being prepared again/)).toBeVisible();
  // It cannot be read this time either: it fails again, still explained.
  await expect(row).toContainText('Failed', { timeout: 90_000 });
  await expect(row.getByTestId('failure-reason')).toBeVisible();

  // "Retry all failed" sends every failed document again in one go.
  const [all] = await Promise.all([
    page.waitForResponse((r) => r.request().method() === 'POST' && new URL(r.url()).pathname.endsWith(`/knowledge-bases/${kbId}/retry-failed`)),
    page.getByRole('button', { name: 'Retry all failed (1)' }).click(),
  ]);
  expect(all.status(), await all.text()).toBe(200);
  expect(((await all.json()) as { retried: number }).retried).toBe(1);
  await expect(page.getByText('1 document is being prepared again.')).toBeVisible();
  await expect(row).toContainText('Failed', { timeout: 90_000 });
  await expect(row.getByTestId('failure-reason')).toBeVisible();
});
