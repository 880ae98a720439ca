// Reading the ICDAR 2013 table competition's ground truth: `<name>-str.xml` (each table's cells)
// and `<name>-reg.xml` (where each table is). Pure functions of the XML text.
import { XMLParser } from 'fast-xml-parser';

/** A rectangle in PDF points, origin at the bottom-left corner: x1, y1 (bottom-left), x2, y2 (top-right). */
export type PointBox = [number, number, number, number];

/** A cell at its table-wide grid position (the region's row and column increments added); ends inclusive. */
export interface TruthCell {
  row: number;
  col: number;
  endRow: number;
  endCol: number;
  text: string;
}

/** The part of a table on one page. */
export interface TruthRegion {
  page: number;
  /** From the region file, else the union of the region's cell boxes; null when neither has one. */
  bbox: PointBox | null;
  cells: TruthCell[];
}

export interface TruthTable {
  id: string;
  /** In the file's order: a table continued over pages has a region per page. */
  regions: TruthRegion[];
}

type Node = Record<string, unknown>;

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '',
  // Cell text stays text ("0.50" is not the number 0.5).
  parseTagValue: false,
  parseAttributeValue: false,
  trimValues: false,
  isArray: (name) => ['table', 'region', 'cell', 'bounding-box'].includes(name),
});

const list = (value: unknown): Node[] => (Array.isArray(value) ? (value as Node[]) : []);

function integer(node: Node, key: string, fallback?: number): number {
  const raw = node[key];
  if (raw === undefined && fallback !== undefined) return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n)) throw new Error(`ICDAR truth: attribute ${key}="${String(raw)}" is not an integer`);
  return n;
}

function pointBox(node: Node): PointBox | null {
  const box = list(node['bounding-box'])[0];
  if (!box) return null;
  const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((k) => Number(box[k]));
  if (![x1, y1, x2, y2].every(Number.isFinite)) return null;
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

function union(boxes: PointBox[]): PointBox | null {
  if (boxes.length === 0) return null;
  return [Math.min(...boxes.map((b) => b[0])), Math.min(...boxes.map((b) => b[1])), Math.max(...boxes.map((b) => b[2])), Math.max(...boxes.map((b) => b[3]))];
}

/** An element's text: a plain string, or the `#text` of an element that also has attributes. */
function textOf(value: unknown): string {
  if (typeof value === 'string') return value;
  if (value && typeof value === 'object' && typeof (value as Node)['#text'] === 'string') return (value as Node)['#text'] as string;
  return '';
}

function tables(xml: string): Node[] {
  const doc = (parser.parse(xml) as Node).document as Node | undefined;
  if (!doc) throw new Error('ICDAR truth: no <document> element');
  return list(doc.table);
}

/** Region boxes of a region file, by table id and region id. */
export function readRegions(regXml: string): Map<string, PointBox> {
  const boxes = new Map<string, PointBox>();
  for (const table of tables(regXml)) {
    for (const region of list(table.region)) {
      const box = pointBox(region);
      if (box) boxes.set(`${String(table.id)}/${String(region.id)}`, box);
    }
  }
  return boxes;
}

/**
 * The tables of a structure file. A cell's `end-row`/`end-col` default to its start; each
 * region's `row-increment`/`col-increment` are added to its cells' positions. `<instruction>`
 * elements are ignored.
 */
export function readTruth(strXml: string, regXml?: string): TruthTable[] {
  const boxes = regXml ? readRegions(regXml) : new Map<string, PointBox>();
  return tables(strXml).map((table) => ({
    id: String(table.id),
    regions: list(table.region).map((region) => {
      const dr = integer(region, 'row-increment', 0);
      const dc = integer(region, 'col-increment', 0);
      const cellNodes = list(region.cell);
      const cells = cellNodes.map((cell) => {
        const row = integer(cell, 'start-row');
        const col = integer(cell, 'start-col');
        const endRow = Math.max(row, integer(cell, 'end-row', row));
        const endCol = Math.max(col, integer(cell, 'end-col', col));
        return { row: row + dr, col: col + dc, endRow: endRow + dr, endCol: endCol + dc, text: textOf(cell.content) };
      });
      const cellBoxes = cellNodes.map(pointBox).filter((b): b is PointBox => b !== null);
      return { page: integer(region, 'page'), bbox: boxes.get(`${String(table.id)}/${String(region.id)}`) ?? pointBox(region) ?? union(cellBoxes), cells };
    }),
  }));
}

/**
 * The truth variants of each PDF in a folder listing: `eu-009a.pdf` is scored against every
 * `eu-009*-str.xml` (eu-009a and the alternative eu-009b), any other PDF against its own.
 */
export function truthVariants(names: readonly string[]): Map<string, string[]> {
  const structures = names.filter((n) => n.endsWith('-str.xml')).sort();
  const out = new Map<string, string[]>();
  for (const pdf of names.filter((n) => n.endsWith('.pdf')).sort()) {
    const stem = pdf.slice(0, -'.pdf'.length);
    const own = `${stem}-str.xml`;
    const family = /^(.*\d)[a-z]$/.exec(stem)?.[1];
    const variants = family ? structures.filter((s) => s === own || new RegExp(`^${family}[a-z]-str\\.xml$`).test(s)) : structures.filter((s) => s === own);
    if (variants.length) out.set(pdf, variants);
  }
  return out;
}
