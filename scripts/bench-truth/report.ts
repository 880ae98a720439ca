// Printing of npm run bench:truth: a line per document, the total and the goals.
import { goals, prf, type Counts, type DocumentScore } from './score';

const int = (n: number) => n.toLocaleString('en-US');
const pct = (part: number, whole: number) => (whole ? `${((100 * part) / whole).toFixed(1)}%` : '—');
const ratio = (part: number, whole: number) => `${part}/${whole}`;

const COLUMNS: [string, number][] = [
  ['document', 10],
  ['tables', 6],
  ['found', 5],
  ['false', 5],
  ['rows ok', 7],
  ['cols ok', 7],
  ['cells differ', 12],
  ['precision', 9],
  ['recall', 6],
  ['F1', 5],
];

const row = (values: string[]) => `  ${values.map((v, i) => (i === 0 ? v.padEnd(COLUMNS[i][1]) : v.padStart(COLUMNS[i][1]))).join('  ')}`;

export function printHeader(): void {
  console.log(row(COLUMNS.map(([name]) => name)));
}

export function printDocument(name: string, score: Counts, note = ''): void {
  const { precision, recall, f1 } = prf(score);
  const values = [
    name,
    String(score.truthTables),
    String(score.found),
    String(score.falseTables),
    ratio(score.rowsRight, score.found),
    ratio(score.colsRight, score.found),
    ratio(score.differingCells, score.truthCells),
    precision.toFixed(3),
    recall.toFixed(3),
    f1.toFixed(3),
  ];
  console.log(`${row(values)}${note ? `  ${note}` : ''}`);
}

export function printFailure(name: string, truthTables: number, message: string): void {
  console.log(`  ${name.padEnd(COLUMNS[0][1])}  ${String(truthTables).padStart(COLUMNS[1][1])}  extraction failed: ${message}`);
}

const shown = (text: string) => JSON.stringify(text.replace(/\s+/g, ' ').trim().slice(0, 60));

/** --verbose: each true table's pairing and relation counts, the false tables, the first cell differences. */
export function printDetails(score: DocumentScore, examples: number): void {
  for (const t of score.tables) {
    const shape = `${t.truthRows}×${t.truthCols}`;
    if (!t.found) console.log(`      table ${t.id} (${shape}): missed`);
    else
      console.log(
        `      table ${t.id} (${shape}): output table ${t.outputs.map((i) => `#${i}`).join(' + ')} (${t.outputRows}×${t.outputCols}), relations ${t.correctTuples} correct of ${t.truthTuples} true, ${t.outputTuples} output`,
      );
  }
  for (const o of score.unmatched) console.log(`      output table #${o.index} on page ${o.page} (${o.grid.length}×${o.grid[0]?.length ?? 0}): not in the truth`);
  for (const d of score.differences.slice(0, examples)) console.log(`      cell of table ${d.table}: ${shown(d.truth)}, nearest output cell ${d.nearest === null ? 'none' : shown(d.nearest)}`);
  if (score.differences.length > examples) console.log(`      … ${score.differences.length - examples} more cell(s) whose text differs`);
}

export function printTotal(documents: number, failed: number, total: Counts): void {
  const { precision, recall, f1 } = prf(total);
  console.log(`\nTotal (${documents} documents${failed ? `, ${failed} failed to extract (their tables count as missed)` : ''}; micro over all relations)`);
  console.log(`  relations: ${int(total.truthTuples)} true, ${int(total.outputTuples)} output, ${int(total.correctTuples)} correct`);
  console.log(`  precision ${precision.toFixed(3)}, recall ${recall.toFixed(3)}, F1 ${f1.toFixed(3)}`);
  console.log(`  true tables: ${total.truthTables}, found ${total.found} (${pct(total.found, total.truthTables)}), missed ${total.truthTables - total.found}`);
  console.log(
    `  output tables: ${total.outputTables}, not in the truth ${total.falseTables} (${pct(total.falseTables, total.outputTables)}; ${total.pieces} of them resemble a true table another output table was matched to)`,
  );
  console.log(`  of the found tables: row count right ${ratio(total.rowsRight, total.found)}, column count right ${ratio(total.colsRight, total.found)}`);
  console.log(`  cells whose text differs: ${int(total.differingCells)} of ${int(total.truthCells)} non-empty cells of the found tables (${pct(total.differingCells, total.truthCells)})`);
  console.log('\nGoals');
  for (const g of goals(total)) console.log(`  ${g.label}: ${g.value}: ${g.met ? 'met' : 'MISSED'}`);
}
