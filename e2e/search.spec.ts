import { expect, test, type Page } from '@playwright/test';
import { buildPdf, paragraph, type PdfPageSpec, type PdfText } from '../test/support/pdf-fixture';
import { chooseKnowledgeBaseForUploads, createKnowledgeBase, dialog, dropInput, signIn, suffix } from './helpers';

/*
 * The search playground as a person uses it: twenty three-page PDFs dropped at once into a new
 * knowledge base, a search for words printed on page 2 of one of them, the words marked in the
 * result (by stem, stop words left alone), and the result opened on the extraction at that page.
 * On a phone, the results come into sight by themselves when the search ends.
 */

const SCREENS = 'test-results/screens';

const TOPICS = [
  'orchards', 'bakeries', 'railways', 'glaciers', 'libraries', 'vineyards', 'harbours', 'observatories', 'beehives', 'looms',
  'potteries', 'forests', 'canals', 'windmills', 'quarries', 'lighthouses', 'marshes', 'gardens', 'clocks', 'bridges',
];
const HEADINGS = ['Overview', 'Records', 'Outlook'];
const FILLER =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat.';
/** The sentence searched for: on page 2 of the harbours report only. */
const TARGET = 'The harbour master counted every schooner carrying cinnamon and cloves into the old port at dawn.';
const TARGET_DOC = TOPICS.indexOf('harbours');

/** A three-page report: a heading (larger, bold) and two paragraphs per page. */
function report(index: number, title: string): Buffer {
  const topic = TOPICS[index]!;
  const pages: PdfPageSpec[] = HEADINGS.map((heading, p) => {
    const texts: PdfText[] = [{ x: 72, y: 720, text: `${heading} of the ${topic}`, size: 18, font: 'bold' }];
    let y = 686;
    const paragraphs = [
      `This part of the survey of ${topic} is page ${p + 1} of report ${index + 1}. ${FILLER}`,
      index === TARGET_DOC && p === 1 ? `${TARGET} ${FILLER}` : `Notes on the ${topic} go on with measurements and dates. ${FILLER}`,
    ];
    for (const text of paragraphs) {
      const para = paragraph(text, { x: 72, y, width: 468, size: 11 });
      texts.push(...para.texts);
      y = para.y;
    }
    return { texts };
  });
  return Buffer.from(buildPdf(pages, { title, author: 'Quarry tests' }));
}

test('twenty PDFs dropped into a knowledge base are found by a search that opens the cited page', async ({ page }) => {
  test.setTimeout(300_000);
  const id = suffix();
  const kbName = `Port survey ${id}`;
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await chooseKnowledgeBaseForUploads(page, kbName);

  const titles = TOPICS.map((topic) => `Survey of the ${topic} ${id}`);
  const files = TOPICS.map((topic, i) => ({ name: `survey-${topic}-${id}.pdf`, mimeType: 'application/pdf', buffer: report(i, titles[i]!) }));
  const started = Date.now();
  await dropInput(page).setInputFiles(files);

  // Every row follows its steps to the end: turned into text, indexed, searchable.
  const uploads = page.getByRole('list', { name: 'Uploads' });
  for (const file of files) {
    await expect(uploads.getByRole('listitem').filter({ hasText: file.name }).getByTestId('upload-step')).toHaveText(`Done: searchable in “${kbName}”`, {
      timeout: 120_000,
    });
  }
  expect(Date.now() - started, 'all twenty files should be searchable within 90 seconds').toBeLessThan(90_000);
  await page.screenshot({ path: `${SCREENS}/search-uploads-1280.png`, fullPage: true });

  // Search for words printed on page 2 of one report, in other forms than printed.
  await page.goto(`/search?kb=${kbId}`);
  await expect(page.getByRole('heading', { name: 'Search', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Knowledge base', { exact: true })).toHaveValue(kbId);
  await page.getByLabel('What are you looking for?').fill('the schooners carried cinnamon');
  await page.getByRole('radio', { name: /Meaning and keywords/ }).check();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(page.getByRole('status').filter({ hasText: /passages? found/ })).toBeVisible();

  const best = page.getByTestId('search-result').first();
  // Titled from the PDF's own title, or its file name while the text was still being read.
  await expect(best.getByRole('heading')).toHaveText(new RegExp(`^Result 1: (survey-harbours-${id}\\.pdf|Survey of the harbours ${id})$`));
  await expect(best.getByTestId('result-place')).toHaveText(/^Page 2 · Section: Records of the harbours/);
  await expect(best).not.toContainText('chunk_index');
  await expect(best).toContainText('counted every schooner carrying cinnamon');
  // Whole words by their stem ("schooners" marks "schooner", "carried" marks "carrying"); never "the".
  await expect(best.locator('mark')).toHaveText(['schooner', 'carrying', 'cinnamon']);
  await page.screenshot({ path: `${SCREENS}/search-results-1280.png`, fullPage: true });

  // The result opens the extracted text at the cited page, marked, with the words marked again.
  await best.getByRole('link', { name: /^Open at page 2/ }).click();
  await expect(page).toHaveURL(/\/extractions\/[^/?]+\?page=2&q=/);
  const cited = page.getByRole('region', { name: 'Page 2, found by your search' });
  await expect(cited).toContainText(TARGET);
  await expect(cited.locator('mark')).toHaveText(['schooner', 'carrying', 'cinnamon']);
  await expect(page.getByTestId('cited-page')).toHaveText(/Page 2 holds the passage your search found/);
  await expect(page.getByTestId('cited-page')).toBeInViewport();
  await expect(page.getByRole('combobox', { name: /^Page 2 of 3/ })).toHaveValue('1');
  await page.screenshot({ path: `${SCREENS}/search-cited-page-1280.png`, fullPage: true });

  // Other pages say where the cited one is, and lead back to it.
  await page.getByRole('button', { name: 'Next page' }).first().click();
  await expect(page.getByRole('region', { name: 'Page 3' })).toContainText('Outlook of the harbours');
  await page.getByRole('button', { name: 'Go to page 2' }).click();
  await expect(cited).toContainText(TARGET);

  // On a phone, the results come into sight (and take the focus) once the search ends.
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto(`/search?kb=${kbId}`);
  await page.getByLabel('What are you looking for?').fill('schooner cinnamon');
  const results = page.getByRole('region', { name: 'Results' });
  await expect(results.getByRole('heading', { name: 'Results' })).not.toBeInViewport();
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  await expect(results.getByRole('status')).toHaveText(/passages? found/);
  await expect(results).toBeFocused();
  // Scrolled until the results start at the top of the screen, below the form.
  const resultsHeading = results.getByRole('heading', { name: 'Results' });
  await expect.poll(() => resultsHeading.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeGreaterThanOrEqual(0);
  await expect.poll(() => resultsHeading.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(80);
  await expect(results.getByTestId('search-result').first()).toBeInViewport();
  await expect(results.getByTestId('search-result').first().locator('mark').first()).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'the page must not be wider than a phone screen' })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/search-results-390.png` });

  // And the cited page comes into sight on the phone too, below the page's title and buttons.
  await results.getByTestId('search-result').first().getByRole('link', { name: /^Open at page 2/ }).click();
  await expect(page.getByRole('region', { name: 'Page 2, found by your search' })).toContainText(TARGET);
  const note = page.getByTestId('cited-page');
  await expect.poll(() => note.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeGreaterThanOrEqual(0);
  await expect.poll(() => note.evaluate((el) => Math.round(el.getBoundingClientRect().top))).toBeLessThan(80);
  await expect
    .poll(() => page.evaluate(() => document.documentElement.scrollWidth), { message: 'the page must not be wider than a phone screen' })
    .toBeLessThanOrEqual(390);
  await page.screenshot({ path: `${SCREENS}/search-cited-page-390.png` });
});

test('passages show their Markdown safely: no raw HTML, no pictures from elsewhere, only web and email links', async ({ page }) => {
  test.setTimeout(180_000);
  const id = suffix();
  const kbName = `Harbour safety ${id}`;
  const filename = `harbour-safety-${id}.md`;
  const outside: string[] = [];
  page.on('request', (request) => {
    if (new URL(request.url()).hostname.endsWith('.invalid')) outside.push(request.url());
  });
  await signIn(page);
  const kbId = await createKnowledgeBase(page, kbName);
  await chooseKnowledgeBaseForUploads(page, kbName);
  const markdown = [
    '# Harbour safety notes',
    '',
    'The pilot boat guides each freighter past the sandbar. <img src="https://tracker.invalid/pixel.png" alt="tracker"><b>Raw markup</b> stays plain.',
    '',
    'See the [tide tables](https://example.com/tides), write to [the harbour office](mailto:office@example.com), [run this](javascript:alert(1)) or [open the settings](/settings).',
    '',
    '![Map of the sandbar](https://images.invalid/sandbar.png)',
    '',
    '<script>window.__injected = true</script>',
    '',
  ].join('\n');
  await dropInput(page).setInputFiles({ name: filename, mimeType: 'text/markdown', buffer: Buffer.from(markdown) });
  const upload = page.getByRole('list', { name: 'Uploads' }).getByRole('listitem').filter({ hasText: filename });
  await expect(upload.getByTestId('upload-step')).toHaveText(`Done: searchable in “${kbName}”`, { timeout: 90_000 });

  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Search' }).click();
  await page.getByLabel('Knowledge base', { exact: true }).selectOption(kbId);
  await page.getByLabel('What are you looking for?').fill('pilot boats guiding freighters');
  await page.getByRole('button', { name: 'Search', exact: true }).click();
  const result = page.getByTestId('search-result').first();
  await expect(result).toContainText('The pilot boat guides each freighter past the sandbar.');
  await expect(result.locator('mark')).toHaveText(['pilot', 'boat', 'guides', 'freighter']);

  // Raw HTML is left out; its text stays, as text.
  await expect(result).toContainText('Raw markup stays plain.');
  await expect(result.locator('img, b, script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
  // Web and email addresses stay links that open apart from the console; anything else is text.
  const tides = result.getByRole('link', { name: /tide tables/ });
  await expect(tides).toHaveAttribute('href', 'https://example.com/tides');
  await expect(tides).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  await expect(tides).toHaveAttribute('target', '_blank');
  await expect(result.getByRole('link', { name: /the harbour office/ })).toHaveAttribute('href', 'mailto:office@example.com');
  await expect(result.getByRole('link', { name: /run this/ })).toHaveCount(0);
  await expect(result.getByRole('link', { name: /open the settings/ })).toHaveCount(0);
  await expect(result).toContainText('run this');
  // The picture is not loaded: its description is shown, as a link to it.
  const picture = result.getByRole('link', { name: /\[Image: Map of the sandbar\]/ });
  await expect(picture).toHaveAttribute('href', 'https://images.invalid/sandbar.png');
  await expect(picture).toHaveAttribute('rel', 'noopener noreferrer nofollow');
  expect(outside).toEqual([]);
  await page.screenshot({ path: `${SCREENS}/search-safe-markdown-1280.png`, fullPage: true });

  // A document without pages opens at its start.
  await result.getByRole('link', { name: /^Open the document/ }).click();
  await expect(page).toHaveURL(/\/extractions\/[^/?]+\?q=/);
  await expect(page.getByRole('region', { name: 'Document text' })).toContainText('The pilot boat guides each freighter');
  await expect(page.getByRole('region', { name: 'Document text' }).locator('mark').first()).toHaveText('pilot');
  expect(outside).toEqual([]);
});
