import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { citationBoxes, type ExtractionLayout } from '../components/citations/boxes';
import { buildPdf, paragraph, type PdfPageSpec, type PdfText } from '../test/support/pdf-fixture';
import { chooseKnowledgeBaseForUploads, createKnowledgeBase, dropInput, signIn, suffix } from './helpers';

/*
 * Precise citations: a search result opens the original PDF page, drawn in the browser, with the
 * passage highlighted over it where the extraction's layout puts it, beside the text; a Markdown
 * document opens its text at the passage, highlighted.
 */

const SCREENS = 'test-results/screens';

/** Uploads one file through the Files page into the knowledge base, and waits until it is searchable. */
async function uploadInto(page: Page, kbName: string, file: { name: string; mimeType: string; buffer: Buffer }) {
  await chooseKnowledgeBaseForUploads(page, kbName);
  await dropInput(page).setInputFiles(file);
  const row = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: file.name });
  await expect(row.getByTestId('upload-step')).toHaveText(`Done: searchable in “${kbName}”`, { timeout: 90_000 });
}

async function search(page: Page, kbId: string, words: string) {
  await page.goto(`/search?kb=${kbId}`);
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kbId);
  await page.getByLabel('What are you looking for?').fill(words);
  await page.getByRole('radio', { name: /Meaning and keywords/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();
  return page.getByTestId('search-result').first();
}

async function expectNoSeriousAxeProblems(page: Page) {
  const results = await new AxeBuilder({ page }).analyze();
  const problems = results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((n) => `${v.id}: ${v.help} — ${n.target.join(' ')}`));
  expect(problems).toEqual([]);
}

const FILLER =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';
/** Printed in the lower half of page 2 only. */
const TARGET = 'The lighthouse keeper logged every tanker carrying saffron and nutmeg past the northern reef at midnight.';

function pdf(title: string): Buffer {
  const pages: PdfPageSpec[] = ['Overview', 'Records', 'Outlook'].map((heading, p) => {
    const texts: PdfText[] = [{ x: 72, y: 720, text: `${heading} of the lighthouse`, size: 18, font: 'bold' }];
    let y = 686;
    const paragraphs = [`This part of the lighthouse survey is page ${p + 1}. ${FILLER}`, 'Notes on the lamps and the weather go on.'];
    if (p === 1) paragraphs.push(TARGET);
    for (const text of paragraphs) {
      const para = paragraph(text, { x: 72, y: y - 24, width: 468, size: 11 });
      texts.push(...para.texts);
      y = para.y - 24;
    }
    return { texts };
  });
  return Buffer.from(buildPdf(pages, { title, author: 'Quarry tests' }));
}

/** How many pixels of the canvas are not white: a drawn page of text has thousands. */
function inkedPixels(canvas: Locator) {
  return canvas.evaluate((el) => {
    const c = el as HTMLCanvasElement;
    const data = c.getContext('2d')!.getImageData(0, 0, c.width, c.height).data;
    let inked = 0;
    for (let i = 0; i < data.length; i += 4) if (data[i]! < 200 && data[i + 3]! > 0) inked++;
    return inked;
  });
}

test('a search result opens the original PDF page with the passage highlighted beside the text', async ({ page }) => {
  test.setTimeout(180_000);
  const id = suffix();
  const kbName = `Lighthouse log ${id}`;
  const filename = `lighthouse-${id}.pdf`;
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await uploadInto(page, kbName, { name: filename, mimeType: 'application/pdf', buffer: pdf(`Lighthouse log ${id}`) });

  const best = await search(page, kbId, 'tankers carrying saffron past the reef');
  await expect(best).toContainText('saffron and nutmeg');
  await expect(best.getByTestId('result-place')).toHaveText(/^Page 2/);
  await best.getByRole('link', { name: /^Open at page 2/ }).click();
  await expect(page).toHaveURL(/\/extractions\/[^/?]+\?page=2&q=[^&]+&from=\d+&to=\d+$/);
  const url = new URL(page.url());
  const extractionId = url.pathname.split('/').pop()!;
  const span = { from: Number(url.searchParams.get('from')), to: Number(url.searchParams.get('to')) };

  // The text, at page 2, with the passage highlighted in it.
  const cited = page.getByRole('region', { name: 'Page 2, found by your search' });
  await expect(cited.getByRole('region', { name: 'Passage found by your search' })).toContainText(TARGET);
  await expect(page.getByTestId('cited-page')).toHaveText(/Page 2 holds the passage your search found\. The passage is highlighted\./);

  // Beside it, the original page 2 drawn by pdf.js: ink on the canvas.
  await expect(page.getByRole('heading', { name: 'Original page', level: 2 })).toBeVisible();
  const canvas = page.getByRole('img', { name: 'Page 2 of the original document' });
  await expect(canvas).toBeVisible();
  await expect(page.getByText('Highlighted: the passage found by your search.')).toBeVisible();
  await expect.poll(() => inkedPixels(canvas), { message: 'the page should be drawn' }).toBeGreaterThan(2000);

  // The highlight boxes lie over the page, where the layout says the passage's lines are.
  const layout = (await (await page.request.get(`/v1/extractions/${extractionId}/layout`)).json()) as ExtractionLayout;
  const expected = citationBoxes(layout, span).filter((b) => b.page === 2);
  expect(expected.length).toBeGreaterThan(0);
  const shown = page.getByTestId('citation-box');
  await expect(shown).toHaveCount(expected.length);
  await expect(shown.first()).toBeVisible();
  const pageRect = (await canvas.boundingBox())!;
  for (let i = 0; i < expected.length; i++) {
    const rect = (await shown.nth(i).boundingBox())!;
    expect(rect.x).toBeGreaterThanOrEqual(pageRect.x - 1);
    expect(rect.y).toBeGreaterThanOrEqual(pageRect.y - 1);
    expect(rect.x + rect.width).toBeLessThanOrEqual(pageRect.x + pageRect.width + 1);
    expect(rect.y + rect.height).toBeLessThanOrEqual(pageRect.y + pageRect.height + 1);
    expect(Math.abs((rect.y - pageRect.y) / pageRect.height - expected[i]!.y0)).toBeLessThan(0.01);
    expect(Math.abs((rect.x - pageRect.x) / pageRect.width - expected[i]!.x0)).toBeLessThan(0.01);
  }
  // The passage is page 2's section, from its heading down to the sentence searched for, low on the page.
  expect(Math.max(...expected.map((b) => b.y1))).toBeGreaterThan(0.3);
  await page.screenshot({ path: `${SCREENS}/citations-pdf-1280.png`, fullPage: true });
  await expectNoSeriousAxeProblems(page);

  // Turning the original's page turns the text too; the passage is not on page 3.
  const originalPages = page.getByRole('navigation', { name: 'Pages of the original' });
  await originalPages.getByRole('button', { name: 'Next page' }).click();
  await expect(page.getByRole('img', { name: 'Page 3 of the original document' })).toBeVisible();
  await expect(page.getByRole('region', { name: 'Page 3' })).toContainText('Outlook of the lighthouse');
  await expect(page.getByRole('figure')).toContainText('The passage your search found is on page 2.');
  await expect(page.getByTestId('citation-box')).toHaveCount(0);
  await originalPages.getByRole('button', { name: 'Previous page' }).click();
  await expect(canvas).toBeVisible();
  await expect(page.getByTestId('citation-box')).toHaveCount(expected.length);

  // pdf.js's data files (character maps, fonts, scan decoders) come from this site, and nothing else does.
  const cmap = await page.request.get('/pdfjs/cmaps/UniGB-UCS2-H.bcmap');
  expect(cmap.status()).toBe(200);
  expect((await cmap.body()).length).toBeGreaterThan(100);
  const wasm = await page.request.get('/pdfjs/wasm/openjpeg.wasm');
  expect(wasm.headers()['content-type']).toBe('application/wasm');
  for (const address of ['/pdfjs/cmaps/..%2F..%2Fpackage.json', '/pdfjs/build/pdf.mjs', '/pdfjs/cmaps/LICENSE', '/pdfjs/wasm/missing.wasm']) {
    expect((await page.request.get(address)).status(), address).toBe(404);
  }

  // On a phone the text and the original page stack, and nothing is wider than the screen.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(page.getByTestId('cited-page')).toBeInViewport();
  await page.getByRole('button', { name: 'Go to the original page, with the passage highlighted' }).click();
  await expect(page.getByRole('heading', { name: 'Original page', level: 2 })).toBeInViewport();
  await expect.poll(() => inkedPixels(canvas)).toBeGreaterThan(1000);
  await expect(page.getByTestId('citation-box').first()).toBeVisible();
  const phoneRect = (await canvas.boundingBox())!;
  expect(phoneRect.width).toBeLessThanOrEqual(390);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'the page must not be wider than a phone screen' })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/citations-pdf-390.png` });
  await expectNoSeriousAxeProblems(page);
});

test('a Markdown document opens at the passage, highlighted in its text', async ({ page }) => {
  test.setTimeout(120_000);
  const id = suffix();
  const kbName = `Canal notes ${id}`;
  const filename = `canal-notes-${id}.md`;
  const target = 'The lock keeper winched each narrowboat loaded with marmalade and barley through the upper gate.';
  // The passage is far down the document: the page has to open at it.
  const names = ['Towpaths', 'Bridges', 'Tunnels', 'Aqueducts', 'Moorings', 'Weirs', 'Basins', 'Locks', 'Wharves', 'Reservoirs'];
  const sections = names.map((name) =>
    [`## ${name}`, '', `${name} along the canal were surveyed in spring. ${FILLER}`, '', name === 'Locks' ? target : `More about the ${name.toLowerCase()}.`].join('\n'),
  );
  const markdown = ['# Canal notes', '', ...sections.flatMap((s) => [s, ''])].join('\n');
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await uploadInto(page, kbName, { name: filename, mimeType: 'text/markdown', buffer: Buffer.from(markdown) });

  const best = await search(page, kbId, 'narrowboats loaded with marmalade');
  await expect(best).toContainText('marmalade and barley');
  await best.getByRole('link', { name: /^Open the document/ }).click();
  await expect(page).toHaveURL(/\/extractions\/[^/?]+\?q=[^&]+&from=\d+&to=\d+$/);

  const passage = page.getByRole('region', { name: 'Passage found by your search' });
  await expect(passage).toContainText(target);
  await expect(passage).toBeInViewport();
  await expect(page.getByRole('heading', { name: 'Towpaths' }), 'the page opens at the passage, not at the top').not.toBeInViewport();
  await expect(passage).not.toContainText('Towpaths along the canal');
  await expect(page.getByRole('region', { name: 'Document text' })).toContainText('Towpaths along the canal');
  await expect(passage.locator('mark').first()).toBeVisible();
  await expect(page.getByTestId('cited-passage-note')).toHaveText(/Your search found the highlighted passage\./);
  // A text document has no original page to show.
  await expect(page.getByRole('heading', { name: /^Original/ })).toHaveCount(0);
  await page.screenshot({ path: `${SCREENS}/citations-markdown-1280.png` });

  // The raw Markdown highlights the exact span.
  await page.getByRole('button', { name: 'Raw Markdown' }).click();
  await expect(page.getByTestId('cited-passage')).toContainText(target);
  await expectNoSeriousAxeProblems(page);

  await page.setViewportSize({ width: 390, height: 844 });
  await page.reload();
  await expect(passage).toBeInViewport();
  await page.screenshot({ path: `${SCREENS}/citations-markdown-390.png` });
});

test('a picture opens with the passage highlighted over it', async ({ page }) => {
  test.setTimeout(150_000);
  const id = suffix();
  const kbName = `Ferry notices ${id}`;
  const filename = `ferry-notice-${id}.png`;
  // A notice printed large, read by OCR: a heading, then lines of text.
  const { createCanvas } = await import('@napi-rs/canvas');
  const picture = createCanvas(1400, 1000);
  const ctx = picture.getContext('2d');
  ctx.fillStyle = '#ffffff';
  ctx.fillRect(0, 0, 1400, 1000);
  ctx.fillStyle = '#000000';
  ctx.font = 'bold 56px DejaVu Sans';
  ctx.fillText('Harbour ferry notice', 80, 140);
  ctx.font = '40px DejaVu Sans';
  const lines = ['The evening ferry to the island now leaves', 'from the western pier at half past six.', 'Passengers with bicycles board first and', 'pelicans nesting on the jetty must not be fed.'];
  lines.forEach((text, i) => ctx.fillText(text, 80, 300 + i * 70));
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await uploadInto(page, kbName, { name: filename, mimeType: 'image/png', buffer: picture.toBuffer('image/png') });

  const best = await search(page, kbId, 'evening ferry bicycles pelicans');
  await expect(best).toContainText('pelicans');
  await best.getByRole('link', { name: /^Open (at page 1|the document)/ }).click();
  await expect(page).toHaveURL(/&from=\d+&to=\d+$/);

  await expect(page.getByRole('heading', { name: 'Original picture', level: 2 })).toBeVisible();
  const image = page.getByRole('img', { name: 'The original picture' });
  await expect(image).toBeVisible();
  await expect.poll(() => image.evaluate((el) => (el as HTMLImageElement).naturalWidth)).toBe(1400);
  await expect(page.getByRole('figure')).toContainText('Highlighted: the passage found by your search.');
  const boxes = page.getByTestId('citation-box');
  await expect(boxes.first()).toBeVisible();
  const imageRect = (await image.boundingBox())!;
  for (const rect of await Promise.all((await boxes.all()).map((b) => b.boundingBox()))) {
    expect(rect!.x).toBeGreaterThanOrEqual(imageRect.x - 1);
    expect(rect!.y).toBeGreaterThanOrEqual(imageRect.y - 1);
    expect(rect!.x + rect!.width).toBeLessThanOrEqual(imageRect.x + imageRect.width + 1);
    expect(rect!.y + rect!.height).toBeLessThanOrEqual(imageRect.y + imageRect.height + 1);
  }
  await page.screenshot({ path: `${SCREENS}/citations-image-1280.png`, fullPage: true });
});
