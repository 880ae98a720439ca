'use client';

import type { ReactNode } from 'react';
import type { DocumentBlock } from '../api-types';

/*
 * Pieces of the structure view: a run of inline text with its marks, and a table drawn as an HTML
 * table, each cell spanning the rows and columns it covers in the document.
 */

type TableBlock = Extract<DocumentBlock, { type: 'table' }>;
export type InlineRun = Extract<DocumentBlock, { type: 'paragraph' }>['content'][number];

/** Text runs as the reader sees them: bold, italic, code and formulas marked; links as plain text. */
export function InlineText({ runs }: { runs: readonly InlineRun[] }) {
  return (
    <>
      {runs.map((run, i) => {
        if (run.type === 'break') return <br key={i} />;
        if (run.type === 'math') return <code key={i} className="rounded bg-slate-100 px-1 text-[0.9em]">{run.latex}</code>;
        if (run.type === 'footnote_ref') return <sup key={i}>[{run.label}]</sup>;
        let node: ReactNode = run.text;
        if (run.code) node = <code className="rounded bg-slate-100 px-1 text-[0.9em]">{node}</code>;
        if (run.bold) node = <strong>{node}</strong>;
        if (run.italic) node = <em>{node}</em>;
        if (run.strike) node = <s>{node}</s>;
        if (run.superscript) node = <sup>{node}</sup>;
        if (run.subscript) node = <sub>{node}</sub>;
        return <span key={i}>{node}</span>;
      })}
    </>
  );
}

/** The words of some runs, for a short summary line. */
export function plainText(runs: readonly InlineRun[]): string {
  return runs
    .map((run) => (run.type === 'text' ? run.text : run.type === 'math' ? run.latex : run.type === 'break' ? ' ' : `[${run.label}]`))
    .join('')
    .replace(/\s+/g, ' ')
    .trim();
}

/** How many columns the table has: the widest row, counting spans and the cells reaching down from rows above. */
export function columnCount(rows: TableBlock['rows']): number {
  const below: number[] = []; // per column: how many more rows a cell from above still covers
  let widest = 0;
  for (const row of rows) {
    let col = 0;
    for (const cell of row) {
      while ((below[col] ?? 0) > 0) col++;
      const span = cell.col_span ?? 1;
      for (let c = col; c < col + span; c++) below[c] = Math.max(below[c] ?? 0, cell.row_span ?? 1);
      col += span;
    }
    widest = Math.max(widest, col, below.length);
    for (let c = 0; c < below.length; c++) if ((below[c] ?? 0) > 0) below[c]--;
  }
  return widest;
}

/**
 * The rows drawn as the table's head: its header rows, and the rows a header cell reaches down
 * into ("Revenue" over "Q1 | Q2" beside a "Region" spanning both), as a span cannot leave <thead>.
 */
function headRowCount(table: TableBlock): number {
  let heads = Math.min(table.header_rows, table.rows.length);
  for (let r = 0; r < heads; r++) {
    for (const cell of table.rows[r]) heads = Math.min(table.rows.length, Math.max(heads, r + (cell.row_span ?? 1)));
  }
  return heads;
}

export function StructureTable({ table, label }: { table: TableBlock; label: string }) {
  const heads = headRowCount(table);
  const row = (cells: TableBlock['rows'][number], r: number) => (
    <tr key={r} className="border-b border-slate-200 last:border-b-0">
      {cells.map((cell, c) => {
        const Cell = r < heads ? 'th' : 'td';
        return (
          <Cell
            key={c}
            scope={r < heads ? 'col' : undefined}
            rowSpan={cell.row_span && cell.row_span > 1 ? cell.row_span : undefined}
            colSpan={cell.col_span && cell.col_span > 1 ? cell.col_span : undefined}
            className={r < heads ? 'border border-slate-200 bg-slate-50 px-2 py-1 text-left font-semibold' : 'border border-slate-200 px-2 py-1 align-top'}
          >
            <InlineText runs={cell.content} />
          </Cell>
        );
      })}
    </tr>
  );
  return (
    <div className="max-w-full overflow-x-auto" tabIndex={0} role="group" aria-label={`${label}, scrolls sideways`}>
      <table className="min-w-full border-collapse border border-slate-200 text-sm">
        {table.caption && table.caption.length > 0 && (
          <caption className="mb-1 text-left text-xs text-slate-600">
            <InlineText runs={table.caption} />
          </caption>
        )}
        {heads > 0 ? (
          <>
            <thead>{table.rows.slice(0, heads).map(row)}</thead>
            <tbody>{table.rows.slice(heads).map((cells, i) => row(cells, heads + i))}</tbody>
          </>
        ) : (
          <tbody>{table.rows.map(row)}</tbody>
        )}
      </table>
      {table.total_rows !== undefined && table.total_rows > table.rows.length && (
        <p className="mt-1 text-xs text-slate-600">
          {table.rows.length} of {table.total_rows} rows were kept: the table is too large to keep whole.
        </p>
      )}
    </div>
  );
}
