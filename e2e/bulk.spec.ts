import fs from 'node:fs';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { createKnowledgeBase, dialog, dropInput, signIn, suffix } from './helpers';

/*
 * From a pile of files to a searchable knowledge base in one step, as a person does it on the
 * Files page: upload files without turning them into text, find them by name, select them all and
 * add them to a knowledge base; they are read and indexed on their own. Then several files are
 * turned into text and deleted together, with one question naming how many.
 */

const SCREENS = 'test-results/screens';

/** Fails with every serious or critical accessibility problem axe finds in the given parts of the page. */
async function expectAccessible(page: Page, what: string, selectors: string[]) {
  let axe = new AxeBuilder({ page });
  for (const selector of selectors) axe = axe.include(selector);
  const results = await axe.analyze();
  const problems = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${v.id}: ${v.help} — ${node.target.join(' ')}`));
  expect(problems, `${what}: serious or critical accessibility problems`).toEqual([]);
}

/** The parts of the Files page this spec is about: filters, selection bar, report and list. */
const FILE_LIST_PARTS = ['form[aria-label="Filter files"]', '[aria-label="Selected files"]', '[data-testid="bulk-report"]', '[aria-label="Files table"]'];

async function openFiles(page: Page) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
}

/** Short Markdown notes, each with text of its own (the same content cannot be indexed twice). */
function notes(prefix: string, count: number, id: string) {
  const topics = ['river otters', 'mountain huts', 'night trains', 'salt marshes', 'paper kites', 'copper kettles', 'winter bees'];
  return Array.from({ length: count }, (_, i) => ({
    name: `${prefix}-${id}-${i + 1}.md`,
    mimeType: 'text/markdown',
    buffer: Buffer.from(`# Notes on ${topics[i % topics.length]}\n\nRun ${id}, note ${prefix} ${i + 1}: a few plain sentences about ${topics[i % topics.length]} for the index to find later.\n`),
  }));
}

test('files without text are found by name, selected together and added to a knowledge base in one step', async ({ page }) => {
  test.setTimeout(300_000);
  fs.mkdirSync(SCREENS, { recursive: true });
  const id = suffix();
  const kbName = `Field notes ${id}`;
  const kept = notes('bulk', 5, id);
  const spare = notes('spare', 3, id);

  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await openFiles(page);

  // Only uploading: the files arrive without text.
  await expect(page.getByLabel('Turn into text right away')).toBeChecked();
  await page.getByLabel('Turn into text right away').uncheck();
  await expect(page.getByLabel('Add to knowledge base')).toHaveValue('');
  await dropInput(page).setInputFiles([...kept, ...spare]);
  await expect(page.getByText('8 files uploaded')).toBeVisible();

  // The name search looks through every file, and says when nothing matches.
  const search = page.getByLabel('Search by name');
  const table = page.getByRole('region', { name: 'Files table' }).getByRole('table');
  const rows = page.getByTestId('file-row');
  await search.fill(`nothing-like-${id}`);
  await expect(page.getByText(`No files match “nothing-like-${id}”`)).toBeVisible();
  await search.fill(`bulk-${id}`);
  await expect(rows).toHaveCount(5);
  await expect(table.getByRole('columnheader', { name: 'Text' })).toBeVisible();
  for (const f of kept) await expect(rows.filter({ hasText: f.name })).toContainText('Not turned into text');

  // Select the five at once; the bar says how many.
  await page.getByLabel('Select all on this page').check();
  const bar = page.getByRole('region', { name: 'Selected files' });
  await expect(bar).toContainText('5 selected');
  for (const f of kept) await expect(page.getByRole('checkbox', { name: `Select ${f.name}` })).toBeChecked();
  await page.getByRole('checkbox', { name: `Select ${kept[0]!.name}` }).uncheck();
  await expect(bar).toContainText('4 selected');
  await expect(page.getByLabel('Select all on this page')).not.toBeChecked();
  await page.getByRole('checkbox', { name: `Select ${kept[0]!.name}` }).check();
  await expect(bar).toContainText('5 selected');

  await expectAccessible(page, 'Files list with a selection', FILE_LIST_PARTS);

  // Desktop and phone: on a phone the list keeps the checkbox, the name and the text status.
  await page.screenshot({ path: `${SCREENS}/bulk-files-selected-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(page.getByRole('checkbox', { name: `Select ${kept[1]!.name}` })).toBeVisible();
  await expect(table.getByRole('link', { name: kept[1]!.name })).toBeVisible();
  await expect(rows.filter({ hasText: kept[1]!.name }).getByText('Not turned into text')).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Size' })).toBeHidden();
  await expect(bar.getByRole('button', { name: 'Add to knowledge base' })).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'the page must not be wider than a phone screen' })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/bulk-files-selected-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });

  // Add them to the knowledge base: they are turned into text first, then indexed.
  await bar.getByRole('button', { name: 'Add to knowledge base' }).click();
  const add = dialog(page, 'Add 5 files to a knowledge base');
  await expect(add).toContainText('Files without text will be turned into text first');
  await add.getByLabel('Knowledge base', { exact: true }).selectOption({ label: kbName });
  await expect(add.getByLabel('Reading mode for files without text')).toHaveValue('normal');
  await expectAccessible(page, 'Add to a knowledge base dialog', ['dialog[open]']);
  await add.getByRole('button', { name: 'Add 5 files' }).click();
  const report = page.getByTestId('bulk-report');
  await expect(report).toContainText(`5 files added to “${kbName}”.`);
  await expect(report.getByRole('link', { name: `Open “${kbName}”` })).toBeVisible();
  await expectAccessible(page, 'Report of the action', ['[data-testid="bulk-report"]']);
  await report.screenshot({ path: `${SCREENS}/bulk-report-1280.png` });
  await expect(bar).toBeHidden();
  await expect(page.getByRole('checkbox', { name: `Select ${kept[0]!.name}` })).not.toBeChecked();
  // The text column follows the reading without a reload.
  for (const f of kept) await expect(rows.filter({ hasText: f.name })).toContainText('Text ready', { timeout: 120_000 });

  // Adding them again changes nothing, and says so.
  await page.getByLabel('Select all on this page').check();
  await bar.getByRole('button', { name: 'Add to knowledge base' }).click();
  await add.getByLabel('Knowledge base', { exact: true }).selectOption({ label: kbName });
  await add.getByRole('button', { name: 'Add 5 files' }).click();
  await expect(report).toContainText(`Nothing was added to “${kbName}”; 5 were already in it.`);
  await expect(bar).toBeHidden();

  // The knowledge base lists the five, all indexed.
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await page.getByRole('link', { name: kbName }).click();
  await expect(page).toHaveURL(new RegExp(`/knowledge-bases/${kbId}$`));
  const documents = page.getByTestId('document-row');
  await expect(documents).toHaveCount(5);
  await expect(documents.filter({ hasText: 'Indexed' })).toHaveCount(5, { timeout: 120_000 });

  // Three other files: two are turned into text together; the knowledge base's own dialog finds
  // all three by name and adds them, the third being turned into text first.
  await openFiles(page);
  await page.getByLabel('Search by name').fill(`spare-${id}`);
  await expect(rows).toHaveCount(3);
  for (const f of spare.slice(0, 2)) await page.getByRole('checkbox', { name: `Select ${f.name}` }).check();
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Turn into text' }).click();
  const extract = dialog(page, 'Turn 2 files into text');
  await expect(extract.getByLabel('Reading mode')).toHaveValue('normal');
  await extract.getByLabel('Reading mode').selectOption('simple');
  await extract.getByRole('button', { name: 'Turn into text' }).click();
  await expect(report).toContainText('2 files are being turned into text.');
  await expect(rows.filter({ hasText: 'Text ready' })).toHaveCount(2, { timeout: 90_000 });
  await expect(rows.filter({ hasText: spare[2]!.name })).toContainText('Not turned into text');

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await page.getByRole('link', { name: kbName }).click();
  await expect(documents).toHaveCount(5);
  await page.getByRole('button', { name: 'Add documents' }).click();
  const picker = dialog(page, 'Add documents');
  await expect(picker).toContainText('Files without text will be turned into text first');
  await picker.getByLabel('Search files by name').fill(`bulk-${id}`);
  await expect(picker.getByRole('checkbox')).toHaveCount(5);
  const pick = (name: string) => picker.getByRole('checkbox', { name: new RegExp(name.replace(/[.]/g, '\\.')) });
  for (const f of kept) await expect(pick(f.name)).toBeDisabled();
  await expect(picker.getByRole('button', { name: 'Select all ready' })).toBeDisabled();
  await picker.getByLabel('Search files by name').fill(`spare-${id}`);
  await expect(picker.getByRole('checkbox')).toHaveCount(3);
  await expect(pick(spare[2]!.name)).toBeEnabled();
  await expect(picker.getByText('No text yet: it will be turned into text first')).toBeVisible();
  await picker.getByRole('button', { name: 'Select all ready' }).click();
  await expect(pick(spare[0]!.name)).toBeChecked();
  await expect(pick(spare[1]!.name)).toBeChecked();
  await expect(pick(spare[2]!.name)).not.toBeChecked();
  await pick(spare[2]!.name).check();
  await expect(picker.getByLabel('Reading mode for files without text')).toHaveValue('normal');
  await expectAccessible(page, 'Add documents dialog', ['dialog[open]']);
  await picker.getByRole('button', { name: 'Add 3 documents' }).click();
  await expect(page.getByText('3 documents were added')).toBeVisible();
  await expect(documents).toHaveCount(8);
  await expect(documents.filter({ hasText: 'Indexed' })).toHaveCount(8, { timeout: 120_000 });

  // Deleting several files asks once, naming how many; their documents go with them.
  await openFiles(page);
  await page.getByLabel('Search by name').fill(`spare-${id}`);
  await expect(rows.filter({ hasText: 'Text ready' })).toHaveCount(3);
  await page.getByLabel('Select all on this page').check();
  await bar.getByRole('button', { name: 'Delete', exact: true }).click();
  const confirm = dialog(page, 'Delete 3 files?');
  for (const f of spare) await expect(confirm).toContainText(f.name);
  await expectAccessible(page, 'Delete question', ['dialog[open]']);
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  await expect(bar.getByRole('button', { name: 'Delete', exact: true })).toBeFocused();
  await expect(rows).toHaveCount(3);
  await expect(bar).toContainText('3 selected');
  await bar.getByRole('button', { name: 'Delete', exact: true }).click();
  await confirm.getByRole('button', { name: 'Delete 3 files' }).click();
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(report).toContainText('3 files deleted.');
  // The bar that opened the question is gone: the report has the focus instead.
  await expect(report.locator('> div')).toBeFocused();
  await expect(page.getByText(`No files match “spare-${id}”`)).toBeVisible();
  await expect(bar).toBeHidden();

  await page.getByLabel('Search by name').fill(`bulk-${id}`);
  await expect(rows).toHaveCount(5);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await page.getByRole('link', { name: kbName }).click();
  await expect(documents).toHaveCount(5);
});
