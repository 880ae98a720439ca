// The scores of one document against its truth, and their sum over documents.
import { closest } from 'fastest-levenshtein';
import { adjacencies, commonAdjacencies, gridCells, stackGrids, truthGrid, type Grid } from './grid';
import { matchTables, type OutputTable, type PageSize } from './match';
import type { TruthTable } from './truth';

/** A non-empty truth cell whose text no cell of the output table(s) it was matched to has. */
export interface CellDifference {
  table: string;
  truth: string;
  /** The output cell of the matched table(s) nearest in text (edit distance), or null if they have none. */
  nearest: string | null;
}

export interface TableScore {
  id: string;
  found: boolean;
  /** Indices of the output tables matched to the table's regions. */
  outputs: number[];
  truthRows: number;
  truthCols: number;
  outputRows: number;
  outputCols: number;
  truthTuples: number;
  outputTuples: number;
  correctTuples: number;
}

/** Counts that add up over documents. */
export interface Counts {
  truthTables: number;
  found: number;
  outputTables: number;
  falseTables: number;
  /** False tables that resemble a true table another output table was matched to (a split or a repeat). */
  pieces: number;
  rowsRight: number;
  colsRight: number;
  /** Non-empty cells of the found tables, and those of them whose text the output has in no cell. */
  truthCells: number;
  differingCells: number;
  truthTuples: number;
  /** Every output table's relations, false tables' included: a table that is not there costs precision. */
  outputTuples: number;
  correctTuples: number;
}

export interface DocumentScore extends Counts {
  tables: TableScore[];
  /** The output tables paired with no true table. */
  unmatched: OutputTable[];
  differences: CellDifference[];
}

const size = (grid: Grid) => ({ rows: grid.length, cols: grid[0]?.length ?? 0 });

/**
 * Scores a document: true tables paired with output tables (matchTables); a found table's output
 * is its matched tables one below the other in region order (a table continued on the next page),
 * compared with the truth grid of all its regions. A missed table's relations count against
 * recall, a false table's against precision.
 */
export function scoreDocument(truth: readonly TruthTable[], outputs: readonly OutputTable[], pageSizes: ReadonlyMap<number, PageSize>): DocumentScore {
  const matching = matchTables(truth, outputs, pageSizes);
  const differences: CellDifference[] = [];
  const counts: Counts = { ...emptyCounts(), truthTables: truth.length, outputTables: outputs.length, falseTables: matching.unmatched.length, pieces: matching.pieces.length };
  const tables = matching.matches.map(({ truth: table, outputs: matched }) => {
    const expected = truthGrid(table.regions.flatMap((r) => r.cells));
    const found = matched.filter((o): o is OutputTable => o !== null);
    const output = stackGrids(found.map((o) => o.grid));
    const truthTuples = adjacencies(expected);
    const outputTuples = found.length ? adjacencies(output) : [];
    const score: TableScore = {
      id: table.id,
      found: found.length > 0,
      outputs: found.map((o) => o.index),
      truthRows: size(expected).rows,
      truthCols: size(expected).cols,
      outputRows: size(output).rows,
      outputCols: size(output).cols,
      truthTuples: truthTuples.length,
      outputTuples: outputTuples.length,
      correctTuples: commonAdjacencies(truthTuples, outputTuples),
    };
    counts.truthTuples += score.truthTuples;
    counts.outputTuples += score.outputTuples;
    counts.correctTuples += score.correctTuples;
    if (score.found) {
      counts.found++;
      if (score.truthRows === score.outputRows) counts.rowsRight++;
      if (score.truthCols === score.outputCols) counts.colsRight++;
      const have = gridCells(output).filter((c) => c.key !== '');
      const keys = new Set(have.map((c) => c.key));
      for (const c of gridCells(expected)) {
        if (c.key === '') continue;
        counts.truthCells++;
        if (keys.has(c.key)) continue;
        counts.differingCells++;
        const near = have.length ? closest(c.key, have.map((h) => h.key)) : null;
        differences.push({ table: table.id, truth: c.text, nearest: near === null ? null : have.find((h) => h.key === near)!.text });
      }
    }
    return score;
  });
  for (const o of matching.unmatched) counts.outputTuples += adjacencies(o.grid).length;
  return { ...counts, tables, unmatched: matching.unmatched, differences };
}

export function emptyCounts(): Counts {
  return { truthTables: 0, found: 0, outputTables: 0, falseTables: 0, pieces: 0, rowsRight: 0, colsRight: 0, truthCells: 0, differingCells: 0, truthTuples: 0, outputTuples: 0, correctTuples: 0 };
}

/** The sum of documents' counts: micro-averaged over every relation. */
export function addCounts(all: readonly Counts[]): Counts {
  const total = emptyCounts();
  for (const c of all) for (const key of Object.keys(total) as (keyof Counts)[]) total[key] += c[key];
  return total;
}

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
}

/** Precision, recall and F1 of the relations (0 where nothing was there to count). */
export function prf(c: Pick<Counts, 'truthTuples' | 'outputTuples' | 'correctTuples'>): Prf {
  const precision = c.outputTuples ? c.correctTuples / c.outputTuples : 0;
  const recall = c.truthTuples ? c.correctTuples / c.truthTuples : 0;
  return { precision, recall, f1: precision + recall ? (2 * precision * recall) / (precision + recall) : 0 };
}

/** The variant scoring best (F1, then recall; the first on a tie): a document with an alternative truth is scored against the one it matches. */
export function bestVariant<T extends { score: Counts }>(variants: readonly T[]): T {
  if (variants.length === 0) throw new Error('no truth variant');
  return variants.reduce((best, v) => {
    const a = prf(v.score);
    const b = prf(best.score);
    return a.f1 > b.f1 || (a.f1 === b.f1 && a.recall > b.recall) ? v : best;
  });
}

export interface Goal {
  label: string;
  value: string;
  met: boolean;
}

/** The goals: cell-adjacency F1 ≥ 0.90, ≥ 95% of true tables found, ≤ 5% of output tables false. */
export function goals(total: Counts): Goal[] {
  const { f1 } = prf(total);
  const found = total.truthTables ? total.found / total.truthTables : 0;
  const falseShare = total.outputTables ? total.falseTables / total.outputTables : 0;
  const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
  return [
    { label: 'cell-adjacency F1 ≥ 0.90', value: f1.toFixed(3), met: f1 >= 0.9 },
    { label: 'true tables found ≥ 95%', value: `${pct(found)} (${total.found}/${total.truthTables})`, met: found >= 0.95 },
    { label: 'output tables not in the truth ≤ 5%', value: `${pct(falseShare)} (${total.falseTables}/${total.outputTables})`, met: falseShare <= 0.05 },
  ];
}
