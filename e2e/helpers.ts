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

/** A name of its own: specs share one server and database. */
export const suffix = () => Date.now().toString(36);

/** An open dialog, found by its heading (exactly that text, or matching the pattern). */
export function dialog(page: Page, title: string | RegExp) {
  return page.getByRole('dialog').filter({ has: page.getByRole('heading', { name: title, exact: typeof title === 'string' }) });
}

/** The drop area's file input, for setInputFiles. */
export function dropInput(page: Page) {
  return page.getByTestId('dropzone').locator('input[type="file"]');
}

/** Creates a knowledge base through its dialog and answers its id. */
export async function createKnowledgeBase(page: Page, name: string): Promise<string> {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Knowledge bases' }).click();
  await expect(page.getByRole('heading', { name: 'Knowledge bases', level: 1 })).toBeVisible();
  await page.getByRole('button', { name: 'New knowledge base' }).first().click();
  const create = dialog(page, 'New knowledge base');
  await create.getByLabel('Name').fill(name);
  await create.getByRole('button', { name: 'Create knowledge base' }).click();
  await expect(page).toHaveURL(/\/knowledge-bases\/kb_[a-z0-9]+$/);
  await expect(page.getByRole('heading', { name, level: 1 })).toBeVisible();
  return page.url().split('/').pop()!;
}

/** Opens the Files page and chooses to turn files into text and add them to the knowledge base. */
export async function chooseKnowledgeBaseForUploads(page: Page, name: string) {
  await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Files' }).click();
  await expect(page.getByRole('heading', { name: 'Files', level: 1 })).toBeVisible();
  await expect(page.getByLabel('Turn into text right away')).toBeChecked();
  await page.getByLabel('How to read the files').selectOption('normal');
  await page.getByLabel('Add to knowledge base').selectOption({ label: name });
}
