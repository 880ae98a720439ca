import { expect, test } from '@playwright/test';

test('a new installation asks for the administrator once, then signs them in (phone-sized screen)', async ({ page, request }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/setup$/);
  await expect(page.getByRole('heading', { name: 'Welcome to Quarry' })).toBeVisible();
  await page.getByLabel('Your name').fill('Ada');
  await page.getByLabel('Email').fill('ada@quarry.test');
  await page.getByLabel('Password').fill('short');
  await page.getByRole('button', { name: 'Create account' }).click();
  // The browser's own check refuses a password under 10 characters before anything is sent.
  await expect(page).toHaveURL(/\/setup$/);
  await page.getByLabel('Password').fill('a long enough password');
  await page.getByRole('button', { name: 'Create account' }).click();
  await expect(page.getByRole('heading', { name: 'Overview' })).toBeVisible();
  // On a phone the navigation sits behind the menu button.
  await page.getByRole('button', { name: 'Menu' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Settings' })).toBeVisible();
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  expect(width).toBeLessThanOrEqual(390);

  // Setup is a one-time thing: the page now sends people to sign in, and the API refuses a second admin.
  const again = await request.post('/v1/setup', { data: { email: 'eve@quarry.test', password: 'another long password' } });
  expect(again.status()).toBe(409);
  await page.context().clearCookies();
  await page.goto('/setup');
  await expect(page).toHaveURL(/\/sign-in/);
});
