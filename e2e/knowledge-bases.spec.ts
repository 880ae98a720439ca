import fs from 'node:fs';
import path from 'node:path';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import { stemmer } from 'stemmer';
import { ADMIN_KEY, dialog, FIXTURES, signIn } from './helpers';

const AUTH = { Authorization: `Bearer ${ADMIN_KEY}` };
const SCREENS = 'test-results/screens';

interface Extraction {
  id: string;
  status: string;
  markdown?: string;
}

/** Uploads a fixture through the API, extracts it and waits for the extraction to complete. */
async function uploadAndExtract(request: APIRequestContext, relative: string, mimeType: string): Promise<{ fileId: string; filename: string; extraction: Extraction }> {
  // A name of its own: other specs upload the same fixtures to the same server.
  const filename = `kb-${Date.now().toString(36)}-${path.basename(relative)}`;
  const upload = await request.post('/v1/files', {
    headers: AUTH,
    multipart: { file: { name: filename, mimeType, buffer: fs.readFileSync(path.join(FIXTURES, relative)) } },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const file = (await upload.json()) as { id: string };
  const created = await request.post('/v1/extractions', { headers: AUTH, data: { file_id: file.id } });
  expect(created.status(), await created.text()).toBe(201);
  const { id } = (await created.json()) as { id: string };
  let extraction: Extraction = { id, status: 'pending' };
  await expect
    .poll(
      async () => {
        extraction = (await (await request.get(`/v1/extractions/${id}`, { headers: AUTH })).json()) as Extraction;
        return extraction.status;
      },
      { timeout: 90_000, intervals: [500, 1000] },
    )
    .toBe('completed');
  return { fileId: file.id, filename, extraction };
}

/** The first prose line of some Markdown with enough words, cut to a phrase of eight words. */
function phraseFrom(markdown: string): string {
  const line = markdown
    .split('\n')
    .map((l) => l.trim())
    .find((l) => l && !/^(#|\||-|\d+\.|<!--|`|>|!\[)/.test(l) && l.split(/\s+/).length >= 8);
  if (!line) throw new Error('No prose line found in the Markdown');
  return line.split(/\s+/).slice(0, 8).join(' ').replace(/[,:;.]$/, '');
}

/** Full-page screenshots at desktop and phone sizes; also checks nothing is wider than the phone. */
async function screens(page: Page, name: string) {
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.screenshot({ path: `${SCREENS}/${name}-1280.png`, fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'the page must not be wider than a phone screen' })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/${name}-390.png`, fullPage: true });
  await page.setViewportSize({ width: 1280, height: 800 });
}

test('a person builds a knowledge base from extracted files, watches it index, and finds a passage both ways', async ({ page, request }) => {
  test.setTimeout(300_000);
  const [pdf, docx] = await Promise.all([
    uploadAndExtract(request, 'pdf/code_and_formula.pdf', 'application/pdf'),
    uploadAndExtract(request, 'docx/word_sample.docx', 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'),
  ]);
  const phrase = phraseFrom(docx.extraction.markdown ?? '');

  await signIn(page);
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await expect(page.getByRole('heading', { name: 'Knowledge bases', level: 1 })).toBeVisible();

  // Create, with the chunking strategy explained and its defaults chosen.
  await page.getByRole('button', { name: 'New knowledge base' }).first().click();
  const createDialog = dialog(page, 'New knowledge base');
  await expect(createDialog.getByRole('radio', { name: /By paragraphs/ })).toBeChecked();
  await expect(createDialog.getByLabel('Passage size (tokens)')).toHaveValue('512');
  await expect(createDialog.getByLabel('Overlap (tokens)')).toHaveValue('64');
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${SCREENS}/kb-create-dialog-390.png` });
  await page.setViewportSize({ width: 1280, height: 800 });
  await createDialog.getByLabel('Name').fill('Summer handbook');
  await createDialog.getByLabel('Description (optional)').fill('Swimming, eating and code samples');
  await createDialog.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page).toHaveURL(/\/knowledge-bases\/kb_[a-z0-9]+$/);
  await expect(page.getByRole('heading', { name: 'Summer handbook', level: 1 })).toBeVisible();
  await expect(page.getByText('No documents yet')).toBeVisible();
  const kbId = page.url().split('/').pop()!;

  // Add both documents by picking them; statuses update without a reload.
  await page.evaluate(() => ((window as unknown as { __sameDocument: boolean }).__sameDocument = true));
  await page.getByRole('button', { name: 'Add documents' }).click();
  const addDialog = dialog(page, 'Add documents');
  for (const filename of [pdf.filename, docx.filename]) {
    const box = addDialog.getByRole('checkbox', { name: new RegExp(filename.replace(/[.]/g, '\\.')) });
    await expect(box).toBeEnabled();
    await box.check();
  }
  await addDialog.getByRole('button', { name: 'Add 2 documents' }).click();
  await expect(page.getByText('2 documents were added')).toBeVisible();
  const rows = page.getByTestId('document-row');
  await expect(rows).toHaveCount(2);
  await expect(rows.filter({ hasText: 'Indexed' })).toHaveCount(2, { timeout: 120_000 });
  expect(await page.evaluate(() => (window as unknown as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  const fact = (label: string) => page.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
  await expect(fact('Documents')).toHaveText('2');
  await expect(fact('Passages')).not.toHaveText('0');

  const documents = (await (await request.get(`/v1/knowledge-bases/${kbId}/documents`, { headers: AUTH })).json()) as {
    items: { file_id: string; title: string }[];
  };
  const docxTitle = documents.items.find((d) => d.file_id === docx.fileId)!.title;
  await screens(page, 'kb-detail');

  // Search in both modes for a phrase of the Word document.
  await page.getByRole('link', { name: 'Search this knowledge base' }).click();
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kbId);
  await page.getByLabel('What are you looking for?').fill(phrase);
  await page.getByRole('radio', { name: /By meaning/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const results = page.getByTestId('search-result');
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();
  await expect(results.first().getByRole('heading')).toContainText(docxTitle);
  await expect(results.first().locator('mark').first()).toBeVisible();

  await page.getByRole('radio', { name: /Meaning and keywords/ }).check();
  await expect(page.getByLabel('Weight of exact words')).toBeVisible();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(results.first()).toContainText('keywords');
  await expect(results.first().getByRole('heading')).toContainText(docxTitle);
  const marked = await results.first().locator('mark').allTextContents();
  // Words are marked by stem ("swimming" marks "swim"), so compare stems.
  const phraseStems = phrase
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean)
    .map((w) => stemmer(w));
  expect(marked.length).toBeGreaterThan(0);
  for (const word of marked) expect(phraseStems).toContain(stemmer(word.toLowerCase()));

  // A metadata filter keeps only the first passage of each document.
  await page.getByRole('button', { name: 'Add a filter' }).click();
  const filterRow = page.getByRole('group', { name: 'Filter 1' });
  await filterRow.getByLabel('Detail').fill('passage');
  await filterRow.getByLabel('Condition').selectOption({ label: '≤ (at most)' });
  await filterRow.getByLabel('Value').fill('1');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();
  const count = await results.count();
  expect(count).toBeGreaterThan(0);
  for (let i = 0; i < count; i++) await expect(results.nth(i)).toContainText('Passage 1');
  await screens(page, 'search');

  // Change how passages are cut, then delete the knowledge base after confirming.
  await page.goto(`/knowledge-bases/${kbId}`);
  await page.getByRole('button', { name: 'Edit' }).click();
  const editDialog = dialog(page, 'Edit knowledge base');
  await editDialog.getByRole('radio', { name: /Equal pieces/ }).check();
  await editDialog.getByLabel('Passage size (tokens)').fill('256');
  await editDialog.getByLabel('Overlap (tokens)').fill('32');
  await expect(editDialog.getByText('Every document will be cut again')).toBeVisible();
  await editDialog.getByRole('button', { name: 'Save changes' }).click();
  await expect(page.getByText('Equal pieces, up to 256 tokens, 32 repeated')).toBeVisible();
  await expect(page.getByText('Cutting documents again')).toBeHidden({ timeout: 120_000 });

  await page.getByRole('button', { name: 'Delete' }).click();
  const confirm = dialog(page, 'Delete knowledge base');
  await expect(confirm).toContainText('Summer handbook');
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expect(page).toHaveURL(/\/knowledge-bases$/);
  await expect(page.getByText('“Summer handbook” was deleted.')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Summer handbook' })).toHaveCount(0);
});
