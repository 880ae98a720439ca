import path from 'node:path';
import fs from 'node:fs';
import type { SQL } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { getConfig } from '@/lib/config';
import * as schema from './schema';
import { acquireDataDirLock, type DataDirLock } from './data-dir-lock';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;
/** A database handle or an open transaction: services accept either. */
export type DbOrTx = Parameters<Parameters<Db['transaction']>[0]>[0] | Db;

export interface DatabaseHandle {
  db: Db;
  kind: 'postgres' | 'pglite';
  /** Runs a raw SQL statement; used by health probes. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** PostgreSQL connection string; when absent the embedded PGlite database is used. */
  url?: string;
  /** PGlite data directory; `null` keeps the database in memory. */
  dataDir?: string | null;
  /** A PGlite data-directory dump to start from (tests start from a migrated template). */
  loadDataDir?: Blob;
  /** Skip running migrations (the dump is already migrated). */
  skipMigrations?: boolean;
}

export function migrationsFolder(): string {
  return path.join(process.cwd(), 'drizzle');
}

async function openPostgres(url: string, skipMigrations: boolean): Promise<DatabaseHandle> {
  const { default: postgres } = await import('postgres');
  const { drizzle } = await import('drizzle-orm/postgres-js');
  const sql = postgres(url, { max: 10, onnotice: () => {}, connect_timeout: 10 });
  const db = drizzle({ client: sql, schema }) as unknown as Db;
  if (!skipMigrations) {
    const { migrate } = await import('drizzle-orm/postgres-js/migrator');
    // Several processes may start at once: an advisory lock makes them migrate one after another.
    const reserved = await sql.reserve();
    try {
      await reserved`select pg_advisory_lock(7231947)`;
      await migrate(drizzle({ client: sql }), { migrationsFolder: migrationsFolder() });
    } finally {
      await reserved`select pg_advisory_unlock(7231947)`.catch(() => {});
      reserved.release();
    }
  }
  return {
    db,
    kind: 'postgres',
    ping: async () => {
      await sql`select 1`;
    },
    close: () => sql.end({ timeout: 5 }),
  };
}

async function openPglite(opts: OpenOptions): Promise<DatabaseHandle> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { vector } = await import('@electric-sql/pglite-pgvector');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { drizzleClient } = await import('./pglite-client');
  let lock: DataDirLock | undefined;
  let dataDir: string | undefined;
  if (opts.dataDir) {
    lock = await acquireDataDirLock(opts.dataDir);
    dataDir = path.join(opts.dataDir, 'pglite');
    fs.mkdirSync(dataDir, { recursive: true });
  }
  try {
    const client = await PGlite.create({
      dataDir,
      extensions: { vector },
      loadDataDir: opts.loadDataDir,
    });
    const db = drizzle({ client: drizzleClient(client), schema }) as unknown as Db;
    if (!opts.skipMigrations) {
      const { migrate } = await import('drizzle-orm/pglite/migrator');
      await migrate(drizzle({ client }), { migrationsFolder: migrationsFolder() });
    }
    return {
      db,
      kind: 'pglite',
      ping: async () => {
        await client.query('select 1');
      },
      close: async () => {
        await client.close();
        await lock?.release();
      },
    };
  } catch (err) {
    await lock?.release();
    throw err;
  }
}

// On globalThis like the database itself: the server's bundles may each hold a copy of this module.
const kindsHolder = globalThis as unknown as { __quarryDbKinds?: WeakMap<Db, DatabaseHandle['kind']> };
const kinds = (kindsHolder.__quarryDbKinds ??= new WeakMap<Db, DatabaseHandle['kind']>());

/** Opens (and migrates) a database: PostgreSQL when a URL is given, embedded PGlite otherwise. */
export async function openDatabase(opts: OpenOptions): Promise<DatabaseHandle> {
  const handle = opts.url ? await openPostgres(opts.url, opts.skipMigrations ?? false) : await openPglite(opts);
  kinds.set(handle.db, handle.kind);
  return handle;
}

/**
 * Whether this process is `db`'s only user (the embedded database, which one process holds), so
 * that rows it keeps in memory stay true for as long as it changes them itself. False for an open
 * transaction's handle and for PostgreSQL, which other servers may share.
 */
export function soleUser(db: DbOrTx): boolean {
  return kinds.get(db as Db) === 'pglite';
}

/** Which kind of database `db` is: the one openDatabase opened it as, else the process's database's kind. */
export async function databaseKind(db: Db): Promise<DatabaseHandle['kind']> {
  return kinds.get(db) ?? (await getDatabase()).kind;
}

// One database per process, kept on globalThis so module reloads (dev server, tests) share it.
const globalForDb = globalThis as unknown as { __quarryDatabase?: Promise<DatabaseHandle> };

/** The process-wide database, opened from configuration on first use. */
export function getDatabase(): Promise<DatabaseHandle> {
  if (!globalForDb.__quarryDatabase) {
    const config = getConfig();
    const opening = openDatabase({ url: config.databaseUrl, dataDir: config.dataDir });
    // A failed open must not be cached: the next call tries again.
    opening.catch(() => {
      if (globalForDb.__quarryDatabase === opening) globalForDb.__quarryDatabase = undefined;
    });
    globalForDb.__quarryDatabase = opening;
  }
  return globalForDb.__quarryDatabase;
}

export async function getDb(): Promise<Db> {
  return (await getDatabase()).db;
}

/** Installs an already-open database as the process-wide one (tests). */
export function setDatabase(handle: DatabaseHandle | undefined): void {
  globalForDb.__quarryDatabase = handle ? Promise.resolve(handle) : undefined;
}

export async function closeDatabase(): Promise<void> {
  const current = globalForDb.__quarryDatabase;
  globalForDb.__quarryDatabase = undefined;
  if (current) await (await current).close();
}

/** Rows of a raw SQL query, whichever driver runs it (postgres.js answers an array, PGlite `{ rows }`). */
export async function queryRows<T extends Record<string, unknown>>(db: DbOrTx, query: SQL): Promise<T[]> {
  const result = (await db.execute(query)) as unknown;
  return (Array.isArray(result) ? result : (result as { rows: T[] }).rows) as T[];
}
