/**
 * The PDF pipeline's stages, in the order they run, as data: each with its name, what it does and
 * the function that does it, the way Docling's `build_pipe` and Marker's processor list declare
 * theirs. The page reader (run/pages.ts, in the extraction's thread and in page threads) and the
 * document (index.ts) run these lists: the order is here and nowhere else.
 *
 * - PAGE_STAGES, per page, in whichever thread reads the page, once read/page-sources.ts has its
 *   text layer (PDFium, or pdf.js for the pages PDFium hands back): frames, the text layer's
 *   statistics, each frame's layout (FRAME_STAGES, or PRESERVED_FRAME_STAGES with
 *   preserve_layout), and whether the page needs OCR.
 * - OCR_STAGES, per page marked for OCR, in the extraction's own thread (it holds the OCR
 *   service): right after the page when one thread reads them all, after every page otherwise.
 * - DOCUMENT_STAGES, once every page is in: what needs the whole document.
 *
 * The stages of a list share one work object (a page's, a frame's, the document's), each filling
 * in its part; a list is walked once per page, frame or document, never per run or line. Each
 * stage's thresholds are in settings.ts.
 */
import type { Block as ModelBlock, QuarryDocument } from '@/lib/document/types';
import type { OcrOutput, OcrService } from '@/lib/extraction/ocr/types';
import type { DocumentMetadata, ExtractInput } from '@/lib/extraction/types';
import { buildBlocks, type LineTable } from './layout/block-builder';
import type { Block, DetectedTable } from './layout/blocks';
import { markFurniture, pageNumberBlocks } from './layout/furniture';
import { placeOnPage } from './layout/geometry';
import { leafLines } from './layout/lines';
import { layoutFramePreserved } from './layout/preserved';
import { buildRows, frameSegments } from './layout/rows';
import type { Furniture, Line, Row, Segment } from './layout/util';
import { writeDocument, type PageBlocks } from './model/document';
import { separateFurniture } from './model/furniture';
import { planHeadings, type HeadingPlan } from './model/headings';
import { joinStackedTables, joinTablesOverPages } from './model/tables';
import { needsOcr, textLayerStats, textLayerUsable, type TextLayerStats } from './ocr/decision';
import { mergeOcr, ocrAccepted, ocrBlocks } from './ocr/merge';
import { ocrTableReadable, untabled } from './ocr/tables';
import { ocrPage } from './ocr/words';
import { recognizePage, type OcrTally } from './ocr/recognize';
import { readingOrder } from './order/columns';
import type { PageGraphics } from './read/graphics';
import { plainText, type PageSource } from './read/page-sources';
import { buildFrames, type Frame } from './read/runs';
import { detectBorderedTables } from './tables/bordered';
import { findLineTables } from './tables/line-tables';

/** One step of the pipeline. */
export interface Stage<W, R = void> {
  /** Short name of the stage. */
  readonly name: string;
  /** What the stage does (and where its code is). */
  readonly does: string;
  /** Does it, on the work the list's stages share. */
  readonly run: (work: W) => R;
}

/* ------------------------------------------------------------------ frames */

/** One frame of a page (the runs of one text direction) going through FRAME_STAGES. */
export interface FrameWork {
  readonly frame: Frame;
  /** The page's ruling lines and images, when they were read (tables are extracted and may be there). */
  readonly graphics: PageGraphics | null;
  /** The page's size (viewport), to place blocks on it. */
  readonly page: { width: number; height: number };
  /** The page's upright frame: furniture and tables are looked for there only. */
  readonly upright: boolean;
  readonly extractTables: boolean;
  tables: DetectedTable[];
  rows: Row[];
  /** Rows furniture marking takes out of the text (page numbers: blocks of their own, see the page-numbers stage). */
  drop: ReadonlySet<Row>;
  /** Running header/footer candidates among the rows. */
  furniture: ReadonlyMap<Row, Furniture>;
  segs: Segment[];
  /** Segments in reading order: one column of one band each. */
  leaves: Segment[][];
  /** Each leaf's lines. */
  lines: Line[][];
  /** Each leaf's borderless tables, by the index of their first line (none when not looked for). */
  lineTables: ReadonlyMap<number, LineTable>[];
  blocks: Block[];
}

const NO_ROWS: ReadonlySet<Row> = new Set();
const NO_FURNITURE: ReadonlyMap<Row, Furniture> = new Map();
const NO_TABLES: ReadonlyMap<number, LineTable> = new Map();

const borderedTables: Stage<FrameWork> = {
  name: 'bordered-tables',
  does: 'ruling lines that cross each other form grids; the runs inside a grid become its cells and leave the frame (tables/bordered.ts)',
  run: (w) => {
    if (!w.upright || !w.graphics) return;
    const found = detectBorderedTables(w.graphics, w.frame.runs);
    w.tables = found.tables;
    w.frame.runs = found.rest;
  },
};

const placeBlocks: Stage<FrameWork> = {
  name: 'place',
  does: "the blocks' lines turned from frame coordinates back onto the page, as fractions of it, for citations (layout/geometry.ts)",
  run: (w) => placeOnPage(w.blocks, w.frame.key, w.page),
};

/** A frame's layout, in order. */
export const FRAME_STAGES: readonly Stage<FrameWork>[] = [
  borderedTables,
  {
    name: 'rows',
    does: 'runs whose vertical extents overlap → rows; superscripts stay on their line (layout/rows.ts)',
    run: (w) => {
      w.rows = buildRows(w.frame.runs);
    },
  },
  {
    name: 'furniture',
    does: "page numbers in the upright frame's margins dropped, other lines isolated there marked as running header/footer candidates (layout/furniture.ts)",
    run: (w) => {
      if (!w.upright) return;
      const marked = markFurniture(w.rows, w.frame);
      w.drop = marked.drop;
      w.furniture = marked.furniture;
    },
  },
  {
    name: 'segments',
    does: 'rows cut into segments at gaps wider than an em; each bordered table one segment more (layout/rows.ts)',
    run: (w) => {
      w.segs = frameSegments(w.rows, w.drop, w.furniture, w.tables);
    },
  },
  {
    name: 'reading-order',
    does: 'column gutters, horizontal cuts and column bands → leaves, one column of one band each, in reading order (order/columns.ts)',
    run: (w) => {
      w.leaves = readingOrder(w.segs, w.frame);
    },
  },
  {
    name: 'lines',
    does: "each leaf's segments of one row → a line: runs in logical (bidi) order, spans, size, weight (layout/lines.ts)",
    run: (w) => {
      w.lines = w.leaves.map((leaf) => leafLines(leaf));
    },
  },
  {
    name: 'borderless-tables',
    does: "runs of a leaf's lines whose pieces line up in the same columns → tables, in the upright frame when tables are extracted (tables/line-tables.ts)",
    run: (w) => {
      if (w.extractTables && w.upright) w.lineTables = w.lines.map((lines) => findLineTables(lines));
    },
  },
  {
    name: 'blocks',
    does: "each leaf's lines → paragraphs, list items, code and tables (layout/block-builder.ts)",
    run: (w) => {
      for (let i = 0; i < w.lines.length; i++) w.blocks.push(...buildBlocks(w.lines[i], w.lineTables[i] ?? NO_TABLES));
    },
  },
  {
    name: 'page-numbers',
    does: 'the page numbers the furniture stage took out of the rows → blocks marked as page furniture, before (top margin) or after (bottom margin) the others (layout/furniture.ts)',
    run: (w) => {
      const { above, below } = pageNumberBlocks(w.rows, w.drop, w.frame);
      if (above.length || below.length) w.blocks = [...above, ...w.blocks, ...below];
    },
  },
  placeBlocks,
];

/** A frame's layout with preserve_layout, in order. */
export const PRESERVED_FRAME_STAGES: readonly Stage<FrameWork>[] = [
  borderedTables,
  {
    name: 'preserved-lines',
    does: "the frame's rows as lines where they stand, blank lines at larger gaps; bordered tables still tables (layout/preserved.ts)",
    run: (w) => {
      w.blocks = layoutFramePreserved(w.frame, w.tables);
    },
  },
  placeBlocks,
];

function frameWork(frame: Frame, graphics: PageGraphics | null, page: { width: number; height: number }, extractTables: boolean): FrameWork {
  return {
    frame,
    graphics,
    page,
    upright: frame.key === 'q0',
    extractTables,
    tables: [],
    rows: [],
    drop: NO_ROWS,
    furniture: NO_FURNITURE,
    segs: [],
    leaves: [],
    lines: [],
    lineTables: [],
    blocks: [],
  };
}

/* ------------------------------------------------------------------ pages */

/** One page going through PAGE_STAGES. */
export interface PageWork {
  readonly source: PageSource;
  readonly input: ExtractInput;
  /** OCR can run for this document (not simple mode, and there is an OCR service). */
  readonly wantOcr: boolean;
  /** Unicode normalisation of item text (ligatures → letters), applied after bidi reordering. */
  readonly normalize: (text: string) => string;
  /** What images the page paints (to tell scans from blank pages), null when unknown; asked only when needed. */
  readonly images: () => Promise<PageGraphics | null>;
  frames: Frame[];
  stats: TextLayerStats;
  /** The text layer has some real text and is not mostly garbage. */
  usable: boolean;
  blocks: Block[];
  needOcr: boolean;
}

/** A page's layout: each frame's, or the text items in content-stream order when the analysis cannot handle the layout (the page keeps its text). */
function layoutPage(w: PageWork): void {
  const { options } = w.input;
  const stages = options.preserve_layout ? PRESERVED_FRAME_STAGES : FRAME_STAGES;
  try {
    for (const frame of w.frames) {
      const work = frameWork(frame, w.source.graphics, w.source.vp, options.extract_tables);
      for (const stage of stages) stage.run(work);
      w.blocks.push(...work.blocks);
    }
  } catch {
    w.blocks = ocrBlocks(plainText(w.source.items), options.preserve_layout);
  }
}

/** Sets whether the page needs OCR, waiting only when its images must be asked for. */
function decideOcr(w: PageWork): void | Promise<void> {
  if (!w.wantOcr) return;
  const need = needsOcr(w.input.mode, w.stats, w.usable, w.images);
  if (typeof need === 'boolean') w.needOcr = need;
  else
    return need.then((v) => {
      w.needOcr = v;
    });
}

/** A page's text layer → its blocks, in order. */
export const PAGE_STAGES: readonly Stage<PageWork, void | Promise<void>>[] = [
  {
    name: 'frames',
    does: 'text items → runs, grouped into one reading frame per text direction and turned upright (read/runs.ts)',
    run: (w) => {
      const s = w.source;
      w.frames = buildFrames(s.items, s.styles, s.vp, s.fontFlags, w.normalize);
    },
  },
  {
    name: 'text-layer',
    does: "the text layer's characters and garbage, counted before tables take runs out of the frames, and whether it is usable (ocr/decision.ts)",
    run: (w) => {
      w.stats = textLayerStats(w.frames);
      w.usable = textLayerUsable(w.stats);
    },
  },
  {
    name: 'layout',
    does: 'each frame through FRAME_STAGES (PRESERVED_FRAME_STAGES with preserve_layout); a page whose layout fails keeps its text items in content-stream order',
    run: layoutPage,
  },
  {
    name: 'ocr-decision',
    does: 'whether the page needs OCR: every page in advanced mode; in normal mode a page without usable text that paints an image, and a scan with a little text (ocr/decision.ts)',
    run: decideOcr,
  },
];

/** Page work for `source`, before any stage. */
export function pageWork(
  source: PageSource,
  input: ExtractInput,
  wantOcr: boolean,
  normalize: (text: string) => string,
  images: () => Promise<PageGraphics | null>,
): PageWork {
  return { source, input, wantOcr, normalize, images, frames: [], stats: { chars: 0, garbage: 0 }, usable: false, blocks: [], needOcr: false };
}

export async function runPageStages(work: PageWork): Promise<void> {
  for (const stage of PAGE_STAGES) {
    const pending = stage.run(work);
    if (pending) await pending;
  }
}

/* ------------------------------------------------------------------ OCR */

/** One page marked for OCR going through OCR_STAGES. */
export interface OcrWork {
  /** The page as PAGE_STAGES left it; its blocks are replaced. */
  readonly text: { page: number; blocks: Block[]; usable: boolean };
  readonly ocr: OcrService;
  readonly input: ExtractInput;
  readonly tally: OcrTally;
  result: OcrOutput | null;
}

/**
 * A scanned page's tables: the OCR words as a text layer and the image's ruling lines as its
 * graphics (ocr/words.ts) through FRAME_STAGES. The page's blocks when that finds a table (the
 * text around it laid out by the same stages), null otherwise: a page of prose keeps Tesseract's
 * own paragraphs, and pages whose words do not lie upright in the image are not laid out. A
 * table OCR could not read as text (ocrTableReadable: the labels and bars of a chart, a photo) is
 * the text of its rows instead.
 */
export function layoutOcrTables(out: OcrOutput): Block[] | null {
  const scanned = ocrPage(out);
  if (!scanned) return null;
  const work = frameWork(scanned.frame, scanned.graphics, scanned.page, true);
  try {
    for (const stage of FRAME_STAGES) stage.run(work);
  } catch {
    return null;
  }
  const blocks = work.blocks.map((b) => (b.kind === 'table' && !ocrTableReadable(b, out) ? untabled(b) : [b])).flat();
  return blocks.some((b) => b.kind === 'table') ? blocks : null;
}

/**
 * An OCR'd image page's content in the document model when its words and rules form a table
 * (layoutOcrTables), null otherwise. Heading levels are not planned: OCR'd sizes are estimates.
 */
export function ocrTablePage(out: OcrOutput, page: number): ModelBlock[] | null {
  const blocks = layoutOcrTables(out);
  if (!blocks) return null;
  const section = writeDocument([{ page, blocks }], {}, NO_HEADINGS).blocks[0];
  return section?.type === 'section' ? section.content : null;
}

/** Whether OCR of a page should look for tables: they are extracted, the layout is not preserved, and the OCR text becomes the page. */
function ocrTablesWanted(w: OcrWork): boolean {
  const { options } = w.input;
  return options.extract_tables && !options.preserve_layout && !w.text.usable;
}

/** A page marked for OCR, in order. */
export const OCR_STAGES: readonly Stage<OcrWork, void | Promise<void>>[] = [
  {
    name: 'ocr',
    does: 'the page read by the OCR service, with its ruling lines when its tables are looked for; every page read, blank or not, goes into the metadata (ocr/recognize.ts)',
    run: async (w) => {
      w.result = await recognizePage(w.ocr, w.input, w.text.page, w.tally, { rules: ocrTablesWanted(w) });
    },
  },
  {
    name: 'ocr-merge',
    does: 'OCR text replaces an unusable text layer, however unsure (laid out by FRAME_STAGES when its words and rules form a table: layoutOcrTables); a usable one keeps its blocks and gets the paragraphs it lacks from a sure reading (ocr/merge.ts)',
    run: (w) => {
      const tables = w.result && ocrTablesWanted(w) && ocrAccepted(w.result) ? layoutOcrTables(w.result) : null;
      w.text.blocks = tables ?? mergeOcr(w.text.blocks, w.text.usable, w.result, w.input.options.preserve_layout);
    },
  },
];

export async function runOcrStages(text: OcrWork['text'], ocr: OcrService, input: ExtractInput, tally: OcrTally): Promise<void> {
  const work: OcrWork = { text, ocr, input, tally, result: null };
  for (const stage of OCR_STAGES) {
    const pending = stage.run(work);
    if (pending) await pending;
  }
}

/* ------------------------------------------------------------------ document */

/** The document's pages going through DOCUMENT_STAGES. */
export interface DocumentWork {
  pages: PageBlocks[];
  readonly metadata: DocumentMetadata;
  /** Join tables continued on the next page (`options.merge_tables`). */
  readonly mergeTables: boolean;
  plan: HeadingPlan;
  document: QuarryDocument | null;
}

const NO_HEADINGS: HeadingPlan = { level: () => 0 };

/** Every page's blocks → the document model, in order. */
export const DOCUMENT_STAGES: readonly Stage<DocumentWork>[] = [
  {
    name: 'running-furniture',
    does: "page numbers, and margin lines repeating in the same place on the pages (on short documents: every page, or every page of one parity with its own header on the others) or numbered in step with the pages, moved out of the content into the page's furniture (model/furniture.ts)",
    run: (w) => separateFurniture(w.pages),
  },
  {
    name: 'stacked-tables',
    does: 'a table right under another with as many columns across the same width is its continuation: one table (model/tables.ts)',
    run: (w) => joinStackedTables(w.pages),
  },
  {
    name: 'tables-over-pages',
    does: "a table ending a page and one starting the next with as many columns across the same width are one table, each row keeping its page, unless options.merge_tables is false (model/tables.ts)",
    run: (w) => {
      if (w.mergeTables) joinTablesOverPages(w.pages);
    },
  },
  {
    name: 'headings',
    does: 'the body size and the heading candidates and levels, from the font statistics of the whole document (model/headings.ts)',
    run: (w) => {
      w.plan = planHeadings(w.pages);
    },
  },
  {
    name: 'model',
    does: 'each page written as a page section of the document model (model/document.ts)',
    run: (w) => {
      w.document = writeDocument(w.pages, w.metadata, w.plan);
    },
  },
];

export function runDocumentStages(pages: PageBlocks[], metadata: DocumentMetadata, options: { mergeTables: boolean } = { mergeTables: true }): QuarryDocument {
  const work: DocumentWork = { pages, metadata, mergeTables: options.mergeTables, plan: NO_HEADINGS, document: null };
  for (const stage of DOCUMENT_STAGES) stage.run(work);
  return work.document!;
}
