'use client';

import Link from 'next/link';
import type { ComponentProps, ReactNode } from 'react';
import { cx } from './format';

/*
 * The console's data tables: one markup (a scrolling frame, a caption for screen readers, column
 * headings with scope, rows in a divided body) in three looks.
 */

/**
 * - `boxed`: the administrator lists (webhooks, API keys, users): a focusable scrolling box, even
 *   cell padding and small bold headings; an actions column can stay in view at the right edge.
 * - `flush`: the file list: reaches the edges of its card, compact rows that light up on hover.
 * - `roomy`: the knowledge base lists: reaches the edges of its card, taller rows, lighter headings.
 */
export type TableLook = 'boxed' | 'flush' | 'roomy';

interface LookClasses {
  frame: string;
  table: string;
  head: string;
  th: string;
  td: string;
  /** Space after every column but the last. */
  gap?: string;
  row?: string;
}

const LOOKS: Record<TableLook, LookClasses> = {
  boxed: {
    frame: 'overflow-x-auto rounded focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600',
    table: 'w-full text-sm',
    head: 'border-b border-slate-200',
    th: 'px-3 py-2 text-left text-xs font-semibold uppercase tracking-wide text-slate-600 whitespace-nowrap',
    td: 'px-3 py-2 align-top',
  },
  flush: {
    frame: '-mx-4 overflow-x-auto px-4',
    table: 'w-full text-left text-sm',
    head: 'border-b border-slate-200 text-xs text-slate-600 uppercase',
    th: 'py-2 font-medium',
    td: 'py-2',
    gap: 'pr-3',
    row: 'hover:bg-slate-50',
  },
  roomy: {
    frame: 'relative -mx-4 overflow-x-auto px-4',
    table: 'w-full text-left text-sm',
    head: 'border-b border-slate-200 text-xs uppercase tracking-wide text-slate-600',
    th: 'py-2 font-medium',
    td: 'py-3',
    gap: 'pr-4',
  },
};

/** The actions column stays in view at the right edge while the rest of the table scrolls. */
const STICKY_TH = 'sticky right-0 bg-white px-3 py-2';
const STICKY_TD = 'sticky right-0 bg-white shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]';
/** Cells shown from small screens up only; on phones the page shows their content elsewhere. */
const WIDE_ONLY = 'hidden sm:table-cell';

/*
 * Cards on phones: below the small breakpoint each row is a card of "heading: value" lines, so no
 * column hides behind the sticky actions. The headings row is hidden there, and every cell carries
 * its heading as a label that exists on phones only (hidden, it is not read out on wider screens).
 * The table roles are given explicitly, as browsers may drop them from table parts that are no
 * longer displayed as a table.
 */
const CARD_TABLE = 'max-sm:block';
const CARD_HEAD = 'max-sm:hidden';
const CARD_BODY = 'max-sm:block max-sm:divide-y-0';
const CARD_ROW = 'max-sm:mb-3 max-sm:block max-sm:rounded-md max-sm:border max-sm:border-slate-200 max-sm:p-3 max-sm:last:mb-0';
const CARD_TD = 'max-sm:flex max-sm:items-start max-sm:gap-3 max-sm:px-0 max-sm:py-1.5';
const CARD_LABEL = 'w-28 shrink-0 pt-0.5 font-sans text-xs font-semibold tracking-wide whitespace-normal text-slate-600 uppercase sm:hidden';
const STICKY_TH_WIDE = 'sm:sticky sm:right-0 bg-white px-3 py-2';
const STICKY_TD_WIDE = 'sm:sticky sm:right-0 bg-white sm:shadow-[-8px_0_8px_-8px_rgba(15,23,42,0.15)]';

export interface Column<T> {
  /** The column heading (unique within the table). */
  header: string;
  /** The heading is read by screen readers only, as for an actions column. */
  hideHeader?: boolean;
  cell: (row: T) => ReactNode;
  /** More classes of the body cells: alignment, wrapping, colour. */
  className?: string;
  /** More classes of the heading cell. */
  headerClassName?: string;
  /** aria-sort of the heading, when the rows are sorted by this column. */
  sort?: 'ascending' | 'descending';
  /** Hidden on phones. */
  wideOnly?: boolean;
  /** Stays in view at the right edge while the rest scrolls (the actions column of a boxed table). */
  sticky?: boolean;
}

export interface TableProps<T> {
  look?: TableLook;
  /** What the table lists, for screen readers. */
  caption: ReactNode;
  /** Makes the scrolling frame a named region that the keyboard can focus and scroll. */
  label?: string;
  /** More classes of the <table>, such as its smallest width before the frame scrolls. */
  className?: string;
  columns: Column<T>[];
  rows: T[];
  rowKey: (row: T) => string;
  /** data-testid of every body row. */
  rowTestId?: string;
  /**
   * On phones, each row becomes a card with every cell labelled by its heading (for tables whose
   * sticky actions would otherwise cover columns people need). Give the table's smallest width
   * from small screens up only (`sm:min-w-…`), so the cards fit the phone.
   */
  cardsOnPhones?: boolean;
}

export function Table<T>({ look = 'boxed', caption, label, className, columns, rows, rowKey, rowTestId, cardsOnPhones = false }: TableProps<T>) {
  const classes = LOOKS[look];
  const gap = (index: number) => index < columns.length - 1 && classes.gap;
  const stickyTh = cardsOnPhones ? STICKY_TH_WIDE : STICKY_TH;
  const stickyTd = cardsOnPhones ? STICKY_TD_WIDE : STICKY_TD;
  const role = (name: string) => (cardsOnPhones ? name : undefined);
  return (
    <div className={classes.frame} role={label ? 'region' : undefined} aria-label={label} tabIndex={label ? 0 : undefined}>
      <table role={role('table')} className={cx(classes.table, cardsOnPhones && CARD_TABLE, className)}>
        <caption className="sr-only">{caption}</caption>
        <thead className={cx(classes.head, cardsOnPhones && CARD_HEAD)}>
          <tr>
            {columns.map((column, i) => (
              <th
                key={column.header}
                scope="col"
                aria-sort={column.sort}
                className={column.sticky ? stickyTh : cx(classes.th, gap(i), column.wideOnly && WIDE_ONLY, column.headerClassName)}
              >
                {column.hideHeader ? <span className="sr-only">{column.header}</span> : column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody role={role('rowgroup')} className={cx('divide-y divide-slate-100', cardsOnPhones && CARD_BODY)}>
          {rows.map((row) => (
            <tr key={rowKey(row)} role={role('row')} className={cx(classes.row, cardsOnPhones && CARD_ROW)} data-testid={rowTestId}>
              {columns.map((column, i) => (
                <td
                  key={column.header}
                  role={role('cell')}
                  className={cx(classes.td, gap(i), column.wideOnly && WIDE_ONLY, column.sticky && stickyTd, column.className, cardsOnPhones && !column.wideOnly && CARD_TD)}
                >
                  {cardsOnPhones ? (
                    <>
                      {!column.hideHeader && <span className={CARD_LABEL}>{column.header}</span>}
                      <div className="min-w-0 flex-1">{column.cell(row)}</div>
                    </>
                  ) : (
                    column.cell(row)
                  )}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

/** The link of a row to the page of the thing it lists. */
export function TableLink({ className, ...props }: ComponentProps<typeof Link>) {
  return <Link {...props} className={cx('font-medium text-indigo-700 hover:underline', className)} />;
}
