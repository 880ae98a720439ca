import { expect, test } from '@playwright/test';
import { ADMIN, signIn } from './helpers';

test('a wrong password is refused with a clear message; the right one opens the overview', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/sign-in/);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill('not the password');
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByText('The email or password is not right')).toBeVisible();
  await signIn(page);
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  await expect(page.getByRole('link', { name: 'API keys' })).toBeVisible();
});

test('every request a console page makes is answered, the icon and app manifest included', async ({ page, request }) => {
  const failed: string[] = [];
  page.on('response', (res) => {
    if (res.status() >= 400) failed.push(`${res.status()} ${new URL(res.url()).pathname}`);
  });
  await signIn(page);
  await page.goto('/files');
  await expect(page.getByRole('heading', { name: 'Files', exact: true })).toBeVisible();
  expect(failed).toEqual([]);
  const icon = await request.get('/favicon.ico');
  expect([icon.status(), icon.headers()['content-type']]).toEqual([200, 'image/x-icon']);
  const links = await page.locator('link[rel~="icon"], link[rel="manifest"]').evaluateAll((els) => els.map((e) => e.getAttribute('href')));
  expect(links.some((href) => href?.startsWith('/icon.svg'))).toBe(true);
  const manifest = await request.get('/manifest.webmanifest');
  expect(manifest.status()).toBe(200);
  const body = await manifest.json();
  expect(body).toMatchObject({ name: 'Quarry', start_url: '/' });
  for (const { src } of body.icons as { src: string }[]) expect((await request.get(src)).status(), src).toBe(200);
});
