import { expect, type Page } from '@playwright/test';
import { E2E_ADMIN } from '../playwright.config';

export const ADMIN = E2E_ADMIN;
export const ADMIN_KEY = 'sk_test_e2eadministratorkey000000000001';
export const FIXTURES = process.env.QUARRY_FIXTURES_DIR ?? new URL('../../shared/fixtures/', import.meta.url).pathname;

/** Signs in through the sign-in page, as a person would. */
export async function signIn(page: Page, email = ADMIN.email, password = ADMIN.password) {
  await page.goto('/sign-in');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}
