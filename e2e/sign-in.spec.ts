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
