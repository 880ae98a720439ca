import fs from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { buildStructuredReport } from '../test/support/pdf-report-fixture';
import { ADMIN_KEY, signIn, suffix } from './helpers';

/*
 * The structure of an extracted document, beside its Markdown: a person opens a completed
 * extraction of a report, switches to "Structure" and sees its pages as sections that open and
 * close, its headings indented by level, and its tables drawn with their merged cells.
 */

const BEARER = { authorization: `Bearer ${ADMIN_KEY}` };
const SCREENS = path.join('test-results', 'screens');

/** Screenshots on a desktop and on a phone-sized screen; on the phone nothing may stick out sideways (tables scroll in their box). */
async function screens(page: Page, name: string) {
  fs.mkdirSync(SCREENS, { recursive: true });
  await page.screenshot({ path: path.join(SCREENS, `${name}-1280.png`), fullPage: true });
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: path.join(SCREENS, `${name}-390.png`), fullPage: true });
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
  expect(overflow, `${name} is wider than a 390px screen`).toBeLessThanOrEqual(0);
  await page.setViewportSize({ width: 1280, height: 800 });
}

async function expectNoSeriousAxeProblems(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${v.help} — ${n.target.join(' ')}`));
  expect(problems).toEqual([]);
}

test('a completed extraction shows its structure, with a table honouring merged cells', async ({ page, request }) => {
  const filename = `report-${suffix()}.pdf`;
  const upload = await request.post('/v1/files', {
    headers: BEARER,
    multipart: { file: { name: filename, mimeType: 'application/pdf', buffer: Buffer.from(buildStructuredReport().pdf) }, extract: 'simple' },
  });
  expect(upload.status(), await upload.text()).toBe(201);
  const extractionId = (await upload.json()).extraction.id as string;
  await expect(async () => {
    const res = await request.get(`/v1/extractions/${extractionId}`, { headers: BEARER });
    expect((await res.json()).status).toBe('completed');
  }).toPass({ timeout: 90_000 });

  await signIn(page);
  await page.goto(`/extractions/${extractionId}`);
  await expect(page.getByRole('heading', { name: 'Extracted text' })).toBeVisible();
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  await expect(page.getByRole('button', { name: 'Structure', exact: true })).toHaveAttribute('aria-pressed', 'true');

  const structure = page.getByRole('region', { name: 'Document structure' });
  await expect(structure.getByTestId('structure-summary')).toContainText('4 pages');
  await expect(structure.getByTestId('structure-summary')).toContainText('3 tables');
  // The first page is open, the others closed until asked for.
  const page1 = structure.getByRole('button', { name: /Page 1/ });
  const page2 = structure.getByRole('button', { name: /Page 2/ });
  await expect(page1).toHaveAttribute('aria-expanded', 'true');
  await expect(page2).toHaveAttribute('aria-expanded', 'false');
  await expect(structure.getByRole('table')).toHaveCount(0);

  // Headings are named by level and indented by it.
  const section1 = structure.getByRole('region', { name: 'Page 1' });
  const h3 = section1.locator('li[data-block-type="heading"]').filter({ hasText: '1 Introduction' });
  const h4 = section1.locator('li[data-block-type="heading"]').filter({ hasText: '1.1 Scope' });
  await expect(h3).toContainText('Heading 3');
  await expect(h4).toContainText('Heading 4');
  const left = async (l: typeof h3) => (await l.boundingBox())!.x;
  expect(await left(h4)).toBeGreaterThan(await left(h3));
  await expect(section1.locator('li[data-block-type="list"]').first()).toBeVisible();

  // Page 2 holds the revenue table: "Region" spans two rows, "Revenue (M EUR)" two columns.
  await page2.click();
  await expect(page2).toHaveAttribute('aria-expanded', 'true');
  const table = structure.getByRole('region', { name: 'Page 2' }).getByRole('table').first();
  await expect(table).toBeVisible();
  await expect(table.getByRole('columnheader', { name: 'Region' })).toHaveAttribute('rowspan', '2');
  await expect(table.getByRole('columnheader', { name: 'Revenue (M EUR)' })).toHaveAttribute('colspan', '2');
  await expect(table.getByRole('columnheader', { name: 'Q1' })).toBeVisible();
  const north = table.getByRole('row').filter({ hasText: 'North' });
  await expect(north.getByRole('cell')).toHaveText(['North', '12.4', '13.1', 'Steady growth']);
  await expect(structure.getByText(/Table, 5 rows × 4 columns/).first()).toBeVisible();

  // Open all, close all; and back to the Markdown.
  await structure.getByRole('button', { name: 'Open all' }).click();
  await expect(structure.getByRole('button', { name: /Page 4/ })).toHaveAttribute('aria-expanded', 'true');
  await expect(structure.getByRole('table')).toHaveCount(3);
  await expectNoSeriousAxeProblems(page);
  await screens(page, 'structure');
  await structure.getByRole('button', { name: 'Close all' }).click();
  await expect(structure.getByRole('table')).toHaveCount(0);
  await page.getByRole('button', { name: 'Formatted' }).click();
  await expect(page.getByRole('region', { name: 'Page 1' })).toContainText('1 Introduction');
});

test('an extraction without a kept structure says so in plain words', async ({ page, request }) => {
  const filename = `notes-${suffix()}.md`;
  const upload = await request.post('/v1/files', {
    headers: BEARER,
    multipart: { file: { name: filename, mimeType: 'text/markdown', buffer: Buffer.from('# Notes\n\nShort notes.\n') }, extract: 'simple' },
  });
  expect(upload.status()).toBe(201);
  const extractionId = (await upload.json()).extraction.id as string;
  await expect(async () => {
    const res = await request.get(`/v1/extractions/${extractionId}`, { headers: BEARER });
    expect((await res.json()).status).toBe('completed');
  }).toPass({ timeout: 60_000 });
  const model = await request.get(`/v1/extractions/${extractionId}/document`, { headers: BEARER });
  test.skip(model.status() === 200, 'Markdown files now keep their structure');

  await signIn(page);
  await page.goto(`/extractions/${extractionId}`);
  await page.getByRole('button', { name: 'Structure', exact: true }).click();
  await expect(page.getByText('The structure of this text was not kept')).toBeVisible();
  await expect(page.getByRole('link', { name: 'Go to the file' })).toHaveAttribute('href', /\/files\/file_/);
});
