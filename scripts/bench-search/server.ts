// The production server on the benchmark database, and requests to it.
import { runServer, type RunningServer } from '../lib/run-server.mjs';
import { ADMIN_KEY, DATABASE_URL } from './config';

/** Starts the production server on the benchmark database (rate limit high enough never to apply). */
export function startServer(dataDir: string): Promise<RunningServer> {
  return runServer({
    // DATABASE_URL empty (BENCH_PGLITE=1): the server opens the embedded database of dataDir.
    env: { DATABASE_URL, QUARRY_DATA_DIR: dataDir, QUARRY_ADMIN_KEY: ADMIN_KEY, QUARRY_RATE_LIMIT_PER_MINUTE: '100000000' },
  });
}

export async function request(server: RunningServer, method: 'GET' | 'POST', route: string, key: string | null, body?: unknown) {
  const res = await fetch(`${server.baseUrl}${route}`, {
    method,
    headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${route}: HTTP ${res.status} ${text.slice(0, 500)}`);
  return JSON.parse(text) as Record<string, unknown>;
}

/** An API key stored in the database with the search scope only: authenticated and rate-limited through the database. */
export async function createSearchKey(server: RunningServer): Promise<string> {
  const created = await request(server, 'POST', '/v1/api-keys', ADMIN_KEY, { name: 'bench-search', scopes: ['kb:search'] });
  return String(created.key);
}
