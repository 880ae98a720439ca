import { count, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { PgColumn, PgTable, SelectedFields } from 'drizzle-orm/pg-core';
import type { SelectResultFields } from 'drizzle-orm/query-builders/select.types';
import type { DbOrTx } from './client';

/** One page of a list, as every list endpoint returns it. */
export interface Page<T> {
  items: T[];
  /** Rows matching the filter, over all pages. */
  total: number;
  limit: number;
  offset: number;
}

/** Which rows of one table make up a page: `where` filters both the page and the total. */
export interface PageQuery<TTable extends PgTable, TFields extends SelectedFields | undefined = undefined> {
  from: TTable;
  /** The columns to read, as for `db.select(fields)`; omitted, every column of `from`. */
  select?: TFields;
  where?: SQL;
  /** End with a unique column (the id) so that pages do not overlap. */
  orderBy: (PgColumn | SQL | SQL.Aliased)[];
  limit: number;
  offset: number;
}

/** A row as `db.select(fields).from(table)` returns it: `fields`' shape, or the whole table row. */
export type PageRow<TTable extends PgTable, TFields extends SelectedFields | undefined> = TFields extends SelectedFields
  ? SelectResultFields<TFields>
  : InferSelectModel<TTable>;

/**
 * Reads one page of `query.from` (every column, or only `query.select`'s) and counts all the rows
 * matching the same `where`, both at once, and maps the page's rows to items with `toItem`.
 */
export async function paginate<TTable extends PgTable, TItem, TFields extends SelectedFields | undefined = undefined>(
  db: DbOrTx,
  query: PageQuery<TTable, TFields>,
  toItem: (row: PageRow<TTable, TFields>) => TItem,
): Promise<Page<TItem>> {
  const { from, where, orderBy, limit, offset } = query;
  const table: PgTable = from;
  const select = query.select ? db.select(query.select) : db.select();
  const [rows, [{ total }]] = await Promise.all([
    select
      .from(table)
      .where(where)
      .orderBy(...orderBy)
      .limit(limit)
      .offset(offset),
    db.select({ total: count() }).from(table).where(where),
  ]);
  // drizzle types the rows of a generic table loosely; they are exactly PageRow<TTable, TFields>.
  const items = (rows as PageRow<TTable, TFields>[]).map((row) => toItem(row));
  return { items, total: Number(total), limit, offset };
}
