import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, inject } from 'vitest';
import { eq } from 'drizzle-orm';
import { CLIENT_IP_HEADER } from '@/lib/api/client-ip';
import type { RouteHandler } from '@/lib/api/handler';
import { createApiKey, ENV_ADMIN_KEY_ID, forgetCachedKeys } from '@/lib/auth/api-keys';
import { forgetFileRows } from '@/lib/files/row-cache';
import { resetConfig } from '@/lib/config';
import { resetSecretKey } from '@/lib/crypto/secret-box';
import { resetAuthSecret } from '@/lib/users/session';
import { setDatabase, type Db, type DatabaseHandle } from '@/lib/db/client';
import { apiKeys } from '@/lib/db/schema';
import { clearMaintenanceCache } from '@/lib/ops/maintenance';
import { resetInMemoryRateLimits } from '@/lib/api/rate-limit';
import { resetReady } from '@/lib/ops/startup';
import { setStorage, storageFromConfig, type Storage } from '@/lib/storage';
import { openTestDatabase } from './database';
import { testStorageEnv } from './storage';

export const TEST_ADMIN_KEY = 'sk_test_environmentadministratorkey0001';

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
}

export interface CallOptions {
  method?: string;
  path: string;
  params?: Record<string, string | string[]>;
  /** API key; defaults to the administrator key; null sends no Authorization header. */
  key?: string | null;
  headers?: Record<string, string>;
  /** A JSON value, a FormData (sent as real multipart) or a raw string. */
  body?: unknown;
  ip?: string;
}

export interface TestApp {
  readonly db: Db;
  readonly dataDir: string;
  /** Where this app keeps file bytes: the data directory, or a bucket prefix of its own (QUARRY_TEST_STORAGE=s3). */
  readonly storage: Storage;
  readonly adminKey: string;
  call(handler: RouteHandler, options: CallOptions): Promise<TestResponse>;
  createKey(options?: { scopes?: string[]; allowedIps?: string[]; name?: string; knowledgeBaseIds?: string[] }): Promise<{ id: string; key: string }>;
}

/**
 * Sets up a test file's application: its own database (PGlite copy or a new PostgreSQL database),
 * storage in a temporary directory (or under a prefix of the suite's bucket), and configuration from `env`. Route handlers are then called
 * in-process with real Request objects.
 */
export function useTestApp(env: Record<string, string> = {}): TestApp {
  let handle: DatabaseHandle;
  let dataDir = '';
  let storage: Storage;
  const saved: Record<string, string | undefined> = {};

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-test-'));
    const vars = { QUARRY_DATA_DIR: dataDir, QUARRY_ADMIN_KEY: TEST_ADMIN_KEY, ...testStorageEnv(), ...env };
    for (const [k, v] of Object.entries(vars)) {
      saved[k] = process.env[k];
      process.env[k] = v;
    }
    delete process.env.DATABASE_URL;
    resetConfig();
    resetReady();
    resetSecretKey();
    resetAuthSecret();
    resetInMemoryRateLimits();
    forgetCachedKeys();
    forgetFileRows();
    clearMaintenanceCache();
    handle = await openTestDatabase(inject('pgliteTemplate'));
    setDatabase(handle);
    storage = storageFromConfig();
    setStorage(storage);
  });

  afterAll(async () => {
    setDatabase(undefined);
    setStorage(undefined);
    await (storage as { close?: () => Promise<void> } | undefined)?.close?.();
    resetReady();
    resetSecretKey();
    await handle?.close();
    for (const [k, v] of Object.entries(saved)) {
      if (v === undefined) delete process.env[k];
      else process.env[k] = v;
    }
    resetConfig();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  return {
    get db() {
      return handle.db;
    },
    get dataDir() {
      return dataDir;
    },
    get storage() {
      return storage;
    },
    adminKey: TEST_ADMIN_KEY,
    async call(handler, options) {
      const headers = new Headers(options.headers);
      const key = options.key === undefined ? TEST_ADMIN_KEY : options.key;
      if (key !== null) headers.set('authorization', `Bearer ${key}`);
      headers.set(CLIENT_IP_HEADER, options.ip ?? '127.0.0.1');
      let body: BodyInit | undefined;
      if (options.body instanceof FormData || typeof options.body === 'string' || options.body instanceof Uint8Array) body = options.body as BodyInit;
      else if (options.body !== undefined) {
        body = JSON.stringify(options.body);
        if (!headers.has('content-type')) headers.set('content-type', 'application/json');
      }
      const request = new Request(new URL(options.path, 'http://localhost'), { method: options.method ?? 'GET', headers, body });
      const response = await handler(request, { params: Promise.resolve(options.params ?? {}) });
      const text = response.status === 204 ? '' : await response.text();
      let parsed: unknown = undefined;
      if ((response.headers.get('content-type') ?? '').includes('application/json') && text !== '') parsed = JSON.parse(text);
      return { status: response.status, headers: response.headers, body: parsed, text };
    },
    async createKey(options = {}) {
      const creator = { keyId: ENV_ADMIN_KEY_ID, name: 'test', scopes: ['*'], allowedIps: null };
      const created = await createApiKey(
        handle.db,
        creator,
        { name: options.name ?? 'test key', scopes: options.scopes, allowed_ips: options.allowedIps, knowledge_base_ids: options.knowledgeBaseIds },
        'test',
      );
      return { id: created.id, key: created.key };
    },
  };
}

/** Moves a key's expiry into the past. */
export async function expireKey(db: Db, id: string): Promise<void> {
  await db.update(apiKeys).set({ expiresAt: new Date(Date.now() - 1000) }).where(eq(apiKeys.id, id));
  forgetCachedKeys();
}
