import type { PGlite, QueryOptions, Transaction } from '@electric-sql/pglite';
import { PgliteStatements, preparable } from './pglite-statements';

/**
 * The types drizzle reads as text: date (1082), timestamp (1114), timestamptz (1184), interval
 * (1186) and the arrays numeric[] (1231), timestamp[] (1115), timestamptz[] (1185), interval[]
 * (1187), date[] (1182).
 */
const TEXT_TYPES = [1082, 1114, 1184, 1186, 1231, 1115, 1185, 1187, 1182];
const TEXT_TYPE_KEYS = new Set(TEXT_TYPES.map(String));

const asText = (value: string): string => value;

/** Options without `parsers` when they only ask for what the instance already does. */
function lean(options: QueryOptions | undefined): QueryOptions | undefined {
  const parsers = options?.parsers;
  if (!parsers) return options;
  for (const key of Object.keys(parsers)) if (!TEXT_TYPE_KEYS.has(key)) return options;
  return { ...options, parsers: undefined };
}

type Locks = Pick<PGlite, '_runExclusiveQuery' | '_runExclusiveTransaction'>;

function leanQueries<T extends PGlite | Transaction>(target: T, pg: PGlite, statements: PgliteStatements): T {
  const inTransaction = target !== pg;
  const locks = pg as Locks;
  const query: Transaction['query'] = <R>(sql: string, params?: unknown[], options?: QueryOptions) => {
    const opts = lean(options);
    if (!preparable(opts) || !pg.ready || pg.closed) return target.query<R>(sql, params, opts);
    if (inTransaction) {
      // PGlite's transaction holds the transaction lock; its statements take the query lock.
      if ((target as Transaction).closed) return Promise.reject(new Error('Transaction is closed'));
      return locks._runExclusiveQuery(() => statements.run<R>(sql, params, opts));
    }
    return locks._runExclusiveTransaction(() =>
      locks._runExclusiveQuery(async () => {
        const result = await statements.run<R>(sql, params, opts);
        await pg.syncToFs();
        return result;
      }),
    );
  };
  const transaction = inTransaction
    ? undefined
    : <R>(callback: (tx: Transaction) => Promise<R>) =>
        pg.transaction((tx) => callback(leanQueries(tx, pg, statements)));
  return new Proxy(target, {
    get(obj, prop) {
      if (prop === 'query') return query;
      if (prop === 'transaction' && transaction) return transaction;
      const value: unknown = Reflect.get(obj, prop, obj);
      return typeof value === 'function' ? value.bind(obj) : value;
    },
  });
}

/**
 * The PGlite client drizzle is given.
 *
 * - drizzle passes its text parsers with every query, and PGlite then copies its whole table of
 *   ~320 type parsers into a new object: about 90 µs a query, a third of a one-row read. The
 *   instance is set to read those types as text itself (after it has registered its array types,
 *   which would otherwise replace the array entries), and the client drops the per-query parsers
 *   when they ask for nothing more.
 * - Statements run from prepared statements kept per text (`pglite-statements.ts`): one call into
 *   the database per run instead of six, and no parsing or planning of a text run before. They
 *   take PGlite's own locks, so they wait for an open transaction as PGlite's `query()` does.
 */
export function drizzleClient(client: PGlite): PGlite {
  for (const oid of TEXT_TYPES) client.parsers[oid] = asText;
  let statements = statementsOf.get(client);
  if (!statements) statementsOf.set(client, (statements = new PgliteStatements(client)));
  return leanQueries(client, client, statements);
}

/** One set of prepared statements per database: their names live in its one session. */
const statementsOf = new WeakMap<PGlite, PgliteStatements>();
