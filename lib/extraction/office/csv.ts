import Papa from 'papaparse';
import type { TableCell } from '@/lib/document/types';
import { throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { decodeUtf8Text, LIMITS, parsing, readInputFile } from './common';
import { documentOf } from './model';

/*
 * CSV and TSV → one table of the document model with papaparse: CSV's delimiter is detected
 * (comma, tab, semicolon, pipe…), TSV's is the tab; quoted fields may hold delimiters and
 * newlines (one line in the table), a BOM is stripped, the first row is the header, short rows
 * are padded. At most LIMITS.cellsPerSheet cells are kept (LIMITS.tableColumns columns); the rows
 * after them are only counted, as the table's `total_rows`, and the Markdown says how many were
 * kept. Rows whose every cell is empty are left out. The file must be UTF-8, like every text
 * format the service accepts.
 */

export function readCsv(input: ExtractInput): Promise<ExtractedDocument> {
  return readDelimited(input, '');
}

/** TSV is split on tabs only: detection could pick the commas inside its cells. */
export function readTsv(input: ExtractInput): Promise<ExtractedDocument> {
  return readDelimited(input, '\t');
}

/** `delimiter` '' lets papaparse detect it. */
async function readDelimited(input: ExtractInput, delimiter: string): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const source = decodeUtf8Text(await readInputFile(input), 'CSV');
  throwIfAborted(input.signal);

  const rows: TableCell[][] = [];
  let cells = 0;
  let truncated = false;
  let totalRows = 0;
  await parsing('CSV', () =>
    Papa.parse<string[]>(source, {
      delimiter,
      skipEmptyLines: 'greedy',
      step: (result) => {
        const fields = result.data;
        const width = Math.min(fields.length, LIMITS.tableColumns);
        // Rows whose every cell is empty (",,,") carry nothing.
        let empty = true;
        for (let i = 0; i < width && empty; i++) empty = fields[i] === '' || fields[i] == null;
        if (empty) return;
        totalRows++;
        // Past the cell limit the rows are only counted.
        if (truncated || cells + width > LIMITS.cellsPerSheet) {
          truncated = true;
          return;
        }
        const row: TableCell[] = new Array(width);
        for (let i = 0; i < width; i++) {
          const value = fields[i] == null ? '' : String(fields[i]);
          row[i] = { content: value ? [{ type: 'text', text: value }] : [] };
        }
        cells += width;
        rows.push(row);
      },
    }),
  );
  input.onProgress(1, 1);
  const table = rows.length ? [{ type: 'table' as const, rows, header_rows: 1, ...(truncated ? { total_rows: totalRows } : {}) }] : [];
  return { document: documentOf({}, table), totalPages: 1 };
}
