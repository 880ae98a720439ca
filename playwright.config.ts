import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { defineConfig, devices } from '@playwright/test';

/*
 * End-to-end tests of the console in Debian's Chromium against the production server, on a fresh
 * embedded database (or PostgreSQL when E2E_DATABASE_URL is set).
 */
const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const PORT = Number(process.env.E2E_PORT ?? 3917);
export const E2E_ADMIN = { email: 'admin@quarry.test', password: 'e2e-admin-password-1' };

const dataDir = process.env.E2E_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-e2e-'));
process.env.E2E_DATA_DIR = dataDir;
/** A second, brand-new installation without a configured administrator: the setup page's test. */
const SETUP_PORT = PORT + 1;
const setupDataDir = process.env.E2E_SETUP_DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-e2e-setup-'));
process.env.E2E_SETUP_DATA_DIR = setupDataDir;

export default defineConfig({
  testDir: './e2e',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  timeout: 120_000,
  expect: { timeout: 30_000 },
  reporter: [['list']],
  globalSetup: './e2e/global-setup.ts',
  use: {
    baseURL: `http://127.0.0.1:${PORT}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
    },
  },
  projects: [
    { name: 'desktop', testIgnore: /first-run\.spec\.ts/, use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } } },
    {
      name: 'first-run',
      testMatch: /first-run\.spec\.ts/,
      use: { ...devices['Desktop Chrome'], viewport: { width: 390, height: 844 }, baseURL: `http://127.0.0.1:${SETUP_PORT}` },
    },
  ],
  webServer: [
    {
    command: 'node scripts/e2e-server.mjs',
    url: `http://127.0.0.1:${PORT}/health`,
    timeout: 600_000,
    reuseExistingServer: false,
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      PORT: String(PORT),
      HOST: '127.0.0.1',
      NODE_ENV: 'production',
      QUARRY_DATA_DIR: dataDir,
      QUARRY_ADMIN_EMAIL: E2E_ADMIN.email,
      QUARRY_ADMIN_PASSWORD: E2E_ADMIN.password,
      QUARRY_ADMIN_KEY: 'sk_test_e2eadministratorkey000000000001',
      QUARRY_WEBHOOK_ALLOW_INSECURE: 'true',
      // The sources spec crawls a site the spec serves on 127.0.0.1.
      QUARRY_SOURCES_ALLOW_PRIVATE: 'true',
      QUARRY_RATE_LIMIT_PER_MINUTE: '100000',
      // Every JSON response is checked against the schema its endpoint documents.
      QUARRY_VALIDATE_RESPONSES: '1',
      DATABASE_URL: process.env.E2E_DATABASE_URL ?? '',
    },
    },
    {
      command: 'node scripts/e2e-server.mjs',
      url: `http://127.0.0.1:${SETUP_PORT}/health`,
      timeout: 600_000,
      reuseExistingServer: false,
      stdout: 'pipe',
      stderr: 'pipe',
      env: {
        PORT: String(SETUP_PORT),
        HOST: '127.0.0.1',
        NODE_ENV: 'production',
        QUARRY_DATA_DIR: setupDataDir,
        QUARRY_VALIDATE_RESPONSES: '1',
        DATABASE_URL: '',
      },
    },
  ],
});
