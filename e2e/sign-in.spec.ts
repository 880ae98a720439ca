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

test('after signing in, only a page of this site is opened: other addresses lead to the overview', async ({ page }) => {
  // Signed out away from the console, so its own requests do not lead to the sign-in page meanwhile.
  const signOut = async () => {
    await page.goto('about:blank');
    await page.context().clearCookies();
  };
  for (const next of ['//evil.example/steal', 'https://evil.example/steal', '/\\evil.example']) {
    await signOut();
    await page.goto(`/sign-in?expired=1&next=${encodeURIComponent(next)}`);
    await expect(page.getByRole('status').filter({ hasText: 'Your session ended. Sign in again to continue.' })).toBeVisible();
    await page.getByLabel('Email').fill(ADMIN.email);
    await page.getByLabel('Password').fill(ADMIN.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Overview' })).toBeVisible();
    expect(page.url(), next).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  }
  await signOut();
  await page.goto(`/sign-in?next=${encodeURIComponent('/settings/users?from=link')}`);
  await expect(page.getByRole('heading', { name: 'Sign in to Quarry' })).toBeVisible();
  await expect(page.getByText('Your session ended.')).toHaveCount(0);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page).toHaveURL(/\/settings\/users\?from=link$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Users' })).toBeVisible();
});
