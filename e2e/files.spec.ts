import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { dropInput, FIXTURES, signIn } from './helpers';

/*
 * Files and extractions as a person uses them: upload several documents by the drop area, find
 * them in the table, extract one and read it, copy and download the text, see a refused upload
 * explained, and delete a file after confirming.
 */

const PDF = path.join(FIXTURES, 'pdf/code_and_formula.pdf');
const DOCX = path.join(FIXTURES, 'docx/word_sample.docx');
const SCREENS = path.join('test-results', 'screens');

/** Screenshots of the whole page on a desktop and on a phone-sized screen, then back to desktop. */
async function screens(page: Page, name: string) {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: path.join(SCREENS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENS, `${name}-390.png`), fullPage: true });
  // Nothing may stick out sideways on a phone: wide tables scroll inside their own box.
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390px screen`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('upload, extract, read, copy, download, refuse and delete files', async ({ page, context }) => {
  await context.grantPermissions(['clipboard-read', 'clipboard-write']);
  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  // The accepted kinds and limits are shown before anything is uploaded.
  await expect(page.getByText('Up to 100 MB:')).toBeVisible();

  // Only uploading here (the text is read by hand below): the remembered choice is switched off.
  await expect(page.getByLabel('Turn into text right away')).toBeChecked();
  await expect(page.getByLabel('Add to knowledge base')).toHaveValue('');
  await page.getByLabel('Turn into text right away').uncheck();

  // Two documents at once, each with its own progress, both ending in the table.
  await page.getByLabel('Tags for these files (optional)').fill('files-spec, docs');
  await dropInput(page).setInputFiles([PDF, DOCX]);
  const uploads = page.getByRole('list', { name: 'Uploads' });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'code_and_formula.pdf' })).toContainText('Uploaded');
  await expect(uploads.getByRole('listitem').filter({ hasText: 'word_sample.docx' })).toContainText('Uploaded');
  await expect(page.getByText('2 files uploaded')).toBeVisible();
  const table = page.getByRole('region', { name: 'Files table' }).getByRole('table');
  await expect(table.getByRole('link', { name: 'code_and_formula.pdf' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'word_sample.docx' })).toBeVisible();
  await expect(table.getByRole('row').filter({ hasText: 'word_sample.docx' })).toContainText('Microsoft Word document');

  // Filters: by kind, then by a tag nobody used.
  await page.getByLabel('Kind of file').selectOption({ label: 'PDF document' });
  await expect(table.getByRole('link', { name: 'code_and_formula.pdf' })).toBeVisible();
  await expect(table.getByRole('link', { name: 'word_sample.docx' })).toHaveCount(0);
  await page.getByLabel('Kind of file').selectOption({ label: 'All kinds' });
  await page.getByLabel('Tags', { exact: true }).fill('nobody-used-this');
  await expect(page.getByText('No files match these filters')).toBeVisible();
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(table.getByRole('link', { name: 'word_sample.docx' })).toBeVisible();
  // Sorting, among the files carrying this test's tag.
  await page.getByLabel('Tags', { exact: true }).fill('files-spec');
  await page.getByLabel('Sort by').selectOption({ label: 'Name, Z to A' });
  await expect(table.getByRole('row').nth(1)).toContainText('word_sample.docx');
  await page.getByLabel('Sort by').selectOption({ label: 'Name, A to Z' });
  await expect(table.getByRole('row').nth(1)).toContainText('code_and_formula.pdf');
  await expect(table.getByRole('row').nth(1)).toContainText('files-spec');
  await page.getByLabel('Tags', { exact: true }).fill('');

  // Refused uploads: an unknown kind is stopped before sending; a disguised one by the server.
  await dropInput(page).setInputFiles({ name: 'x.bin', mimeType: 'application/octet-stream', buffer: Buffer.from([0x4d, 0x5a, 0x90, 0x00, 1, 2, 3, 4]) });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'x.bin' })).toContainText('Quarry cannot read .bin files. Accepted: .pdf');
  await dropInput(page).setInputFiles({ name: 'fake.pdf', mimeType: 'application/pdf', buffer: Buffer.from('this is not a PDF at all\n') });
  await expect(uploads.getByRole('listitem').filter({ hasText: 'fake.pdf' })).toContainText('Quarry cannot read this file.');
  await expect(table.getByRole('link', { name: 'fake.pdf' })).toHaveCount(0);
  await screens(page, 'files-list');

  // Open the Word document and extract it in the standard mode.
  await table.getByRole('link', { name: 'word_sample.docx' }).click();
  await expect(page.getByRole('heading', { name: 'word_sample.docx', level: 1 })).toBeVisible();
  await expect(page.getByText('No extractions yet')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Download' })).toHaveAttribute('href', /\/download$/);
  await screens(page, 'file-detail');
  await page.getByRole('radio', { name: /Standard/ }).check();
  await page.getByRole('button', { name: 'Start extraction' }).click();
  await expect(page).toHaveURL(/\/extractions\/ext_/);

  // The status changes to completed by itself: the page is never reloaded.
  await page.evaluate(() => ((window as unknown as { stayed: boolean }).stayed = true));
  const progressOrDone = page.getByRole('progressbar', { name: 'Extraction progress' }).or(page.getByRole('heading', { name: 'Extracted text' }));
  await expect(progressOrDone.first()).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Extracted text' })).toBeVisible({ timeout: 90_000 });
  expect(await page.evaluate(() => (window as unknown as { stayed?: boolean }).stayed)).toBe(true);
  await expect(page.getByRole('progressbar')).toHaveCount(0);

  // The formatted text, with its table.
  const text = page.getByRole('region', { name: 'Document text' });
  await expect(text.getByRole('heading', { name: /swim!/ })).toBeVisible();
  const mdTable = text.getByRole('table');
  await expect(mdTable).toBeVisible();
  await expect(mdTable.getByRole('columnheader', { name: 'Calories per portion' })).toBeVisible();
  await expect(mdTable.getByRole('row').filter({ hasText: 'Berries' })).toContainText('150');

  // Raw Markdown, and back.
  await page.getByRole('button', { name: 'Raw Markdown' }).click();
  await expect(page.getByRole('button', { name: 'Raw Markdown' })).toHaveAttribute('aria-pressed', 'true');
  const raw = page.locator('pre[aria-label="Raw Markdown"]');
  await expect(raw).toContainText('| Berries |');
  await expect(text.getByRole('table')).toHaveCount(0);
  await page.getByRole('button', { name: 'Formatted' }).click();
  await expect(text.getByRole('table')).toBeVisible();

  // Copy to the clipboard and download as a .md file.
  await page.getByRole('button', { name: 'Copy text' }).click();
  await expect(page.getByText('The text was copied')).toBeVisible();
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  expect(copied).toContain('Calories per portion');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download .md' }).click()]);
  expect(download.suggestedFilename()).toBe('word_sample.md');
  const saved = fs.readFileSync(await download.path(), 'utf8');
  expect(saved).toBe(copied);

  // The metadata panel names the file and the reading mode.
  const about = page.locator('section', { has: page.getByRole('heading', { name: 'About this extraction' }) });
  await expect(about).toContainText('Standard');
  await expect(about.getByRole('link', { name: 'word_sample.docx' })).toBeVisible();
  await screens(page, 'extraction');

  // A paged PDF: page navigation through the <!-- page N --> markers.
  await page.goto('/files');
  await page.getByRole('link', { name: 'code_and_formula.pdf' }).click();
  await page.getByRole('radio', { name: /Quick/ }).check();
  await page.getByRole('button', { name: 'Start extraction' }).click();
  await expect(page.getByRole('heading', { name: 'Extracted text' })).toBeVisible({ timeout: 90_000 });
  const pages = page.getByRole('navigation', { name: 'Pages', exact: true });
  await expect(pages).toContainText('of 2');
  await expect(page.getByRole('region', { name: 'Page 1' })).toContainText('JavaScript Code Example');
  await pages.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByRole('region', { name: 'Page 2' })).toBeVisible();
  await expect(pages.getByRole('button', { name: 'Next page' })).toBeDisabled();
  await pages.getByRole('combobox').selectOption('0');
  await expect(page.getByRole('region', { name: 'Page 1' })).toBeVisible();
  await expect(pages.getByRole('button', { name: 'Previous page' })).toBeDisabled();

  // The file page lists the extraction; deleting asks first, then removes the file.
  await page.getByRole('link', { name: /Back to code_and_formula\.pdf/ }).click();
  await expect(page.getByRole('list', { name: 'Extractions of this file' }).getByRole('listitem')).toHaveCount(1);
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  const dialog = page.getByRole('dialog').filter({ hasText: 'Delete this file?' });
  await expect(dialog).toBeVisible();
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await expect(dialog).toBeHidden();
  await page.getByRole('button', { name: 'Delete', exact: true }).click();
  await dialog.getByRole('button', { name: 'Delete file' }).click();
  await expect(page.getByText('code_and_formula.pdf was deleted')).toBeVisible();
  await expect(page).toHaveURL(/\/files$/);
  await expect(page.getByRole('link', { name: 'code_and_formula.pdf' })).toHaveCount(0);
  await expect(page.getByRole('link', { name: 'word_sample.docx' })).toBeVisible();
});
