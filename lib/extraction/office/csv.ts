import Papa from 'papaparse';
import { throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { decodeUtf8Text, finishMarkdown, LIMITS, parsing, readInputFile } from './common';
import { escapeCell, renderTable } from './markdown';

/*
 * CSV and TSV → one GFM table with papaparse: CSV's delimiter is detected (comma, tab, semicolon,
 * pipe…), TSV's is the tab; quoted fields may hold delimiters and newlines (flattened to spaces in the table), a BOM is
 * stripped, the first row is the header, short rows are padded. At most LIMITS.cellsPerSheet
 * cells are rendered (LIMITS.tableColumns columns); a note line says when rows were cut.
 * The file must be UTF-8, like every text format the service accepts.
 */

export function extractCsv(input: ExtractInput): Promise<ExtractResult> {
  return extractDelimited(input, '');
}

/** TSV is split on tabs only: detection could pick the commas inside its cells. */
export function extractTsv(input: ExtractInput): Promise<ExtractResult> {
  return extractDelimited(input, '\t');
}

/** `delimiter` '' lets papaparse detect it. */
async function extractDelimited(input: ExtractInput, delimiter: string): Promise<ExtractResult> {
  throwIfAborted(input.signal);
  const text = decodeUtf8Text(await readInputFile(input), 'CSV');
  throwIfAborted(input.signal);

  const rows: string[][] = [];
  let cells = 0;
  let truncated = false;
  await parsing('CSV', () =>
    Papa.parse<string[]>(text, {
      delimiter,
      skipEmptyLines: 'greedy',
      step: (result, parser) => {
        const row = result.data.slice(0, LIMITS.tableColumns);
        if (cells + row.length > LIMITS.cellsPerSheet) {
          truncated = true;
          parser.abort();
          return;
        }
        cells += row.length;
        rows.push(row.map((value) => escapeCell(String(value ?? ''))));
      },
    }),
  );
  // Rows whose every cell is empty (",,,") carry nothing.
  const table = renderTable(rows.filter((row) => row.some(Boolean)));
  const note = truncated
    ? `\n\n*The file is truncated: only its first ${rows.length.toLocaleString('en-US')} rows (${cells.toLocaleString('en-US')} cells) were extracted.*`
    : '';
  input.onProgress(1, 1);
  return { markdown: finishMarkdown(table + note), totalPages: 1, metadata: {} };
}
