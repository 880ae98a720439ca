/**
 * Quarry's document model: what every extractor returns, what the Markdown and the layout record
 * are rendered from (render.ts), what chunking reads, and what GET /v1/extractions/{id}/document
 * serves (schema.ts).
 *
 * A document is a list of blocks; sections (a page, a slide, a sheet, a chapter, an e-mail part)
 * hold blocks of their own. Text inside a block is a list of inline runs with their marks.
 * Positions are page fractions (0–1, origin at the top-left corner of the page as shown, /Rotate
 * applied), as in the layout record, so they do not depend on the resolution a page is drawn at.
 */

/** A rectangle in page fractions: x0, y0 (top-left corner), x1, y1 (bottom-right corner). */
export type Box = [number, number, number, number];

/** A stretch of the Markdown: UTF-16 offsets of its first character and just after its last. */
export type Span = [number, number];

/** A line of the source: its letters and digits (to find it in the written Markdown) and where it sits. */
export interface SourceLine {
  chars: number;
  box: Box;
  /** Lines of one paragraph share a group (OCR output written as a whole page). */
  group?: number;
  /** The line's page when it is not its block's (the rows of a table continued on the next page). */
  page?: number;
}

/** Where a block came from, where the format knows it. */
export interface Provenance {
  /** 1-based page (or slide, sheet) number. */
  page?: number;
  /** The block's region on its page: the union of its lines. */
  bbox?: Box;
  /**
   * The block's lines on the page, in reading order (tables: one per row when the table was read
   * row by row). The layout record is made from these; the served model gives `bbox` only.
   */
  lines?: SourceLine[];
  /**
   * Where the block is in the extraction's Markdown, for blocks at the top level or in a section
   * and the items of such lists (absent for blocks that write nothing). What chunking reads the
   * document's Markdown by; a section's span runs from its page marker to its last block.
   */
  span?: Span;
}

/** Marks a run of text carries. */
export interface TextMarks {
  bold?: boolean;
  italic?: boolean;
  strike?: boolean;
  /** Inline code. */
  code?: boolean;
  superscript?: boolean;
  subscript?: boolean;
  /** Link target (http, https or mailto only; others are dropped by the extractor). */
  href?: string;
}

export type Inline =
  | ({ type: 'text'; text: string } & TextMarks)
  /** A hard line break inside a paragraph. */
  | { type: 'break' }
  /** An inline formula, as LaTeX. */
  | { type: 'math'; latex: string }
  /** A reference to a footnote block with the same label. */
  | { type: 'footnote_ref'; label: string };

interface BlockBase {
  prov?: Provenance;
}

export type HeadingLevel = 1 | 2 | 3 | 4 | 5 | 6;

export interface Heading extends BlockBase {
  type: 'heading';
  level: HeadingLevel;
  content: Inline[];
}

export interface Paragraph extends BlockBase {
  type: 'paragraph';
  content: Inline[];
}

export interface ListItem {
  /** The item's paragraphs and nested lists. */
  content: Block[];
  /** The item's number in an ordered list, when it is not the one the list's order gives. */
  number?: number;
  /** A label the source printed instead of a bullet ("a)", "(iv)"), kept in front of the text. */
  label?: string;
  /** Task-list items: ticked or not. */
  checked?: boolean;
  prov?: Provenance;
}

export interface List extends BlockBase {
  type: 'list';
  ordered: boolean;
  /** Number of the first item of an ordered list (1 when absent). */
  start?: number;
  items: ListItem[];
}

export interface TableCell {
  content: Inline[];
  /** Rows the cell covers, from its own downwards (1 when absent). */
  row_span?: number;
  /** Columns the cell covers, from its own rightwards (1 when absent). */
  col_span?: number;
}

/**
 * A table's rows hold the cells that start in them, left to right, as HTML does: a cell spanning
 * rows appears once, in its first row, and the rows below skip the columns it covers.
 */
export interface Table extends BlockBase {
  type: 'table';
  rows: TableCell[][];
  /** How many rows at the top are header rows (0 when the source marks none). */
  header_rows: number;
  caption?: Inline[];
  /**
   * The source's row count when rows were left out (a table over the cell limit); the Markdown
   * then says how many of them were kept.
   */
  total_rows?: number;
  /**
   * Where each row is, one entry per entry of `rows`, when the reader knows it (PDF tables): its
   * page (a table continued over pages is one table whose later rows are on later pages) and its
   * region there.
   */
  row_prov?: RowProvenance[];
}

/** Where one table row is. */
export interface RowProvenance {
  page: number;
  bbox?: Box;
}

export interface Picture extends BlockBase {
  type: 'picture';
  alt?: string;
  caption?: Inline[];
}

export interface Code extends BlockBase {
  type: 'code';
  text: string;
  language?: string;
}

export interface Quote extends BlockBase {
  type: 'quote';
  content: Block[];
}

export interface Formula extends BlockBase {
  type: 'formula';
  latex: string;
}

export interface Footnote extends BlockBase {
  type: 'footnote';
  label: string;
  content: Block[];
}

/** A thematic break (a horizontal rule between parts of the text). */
export interface Rule extends BlockBase {
  type: 'rule';
}

/**
 * Text kept with its line breaks and spacing as the page set it: `preserve_layout`, and OCR text
 * of a page read as a whole.
 */
export interface Preformatted extends BlockBase {
  type: 'preformatted';
  text: string;
}

export const SECTION_KINDS = ['page', 'slide', 'sheet', 'chapter', 'message', 'attachment', 'part'] as const;
export type SectionKind = (typeof SECTION_KINDS)[number];

/**
 * A boundary of the source: a page, slide, sheet or chapter (each numbered as the paged unit it
 * is: the Markdown starts it with its page marker), an e-mail message or attachment, or another
 * named part.
 */
export interface Section extends BlockBase {
  type: 'section';
  kind: SectionKind;
  /** The page number this section starts in the Markdown (`<!-- page N -->`), for paged units. */
  page?: number;
  /** The sheet name, attachment file name, chapter title or part name. */
  name?: string;
  /** Page size in points, for PDF pages and images. */
  width?: number;
  height?: number;
  content: Block[];
  /**
   * A page's furniture: running headers and footers and page numbers, in page order. Kept out of
   * the Markdown, the chunks and `content`.
   */
  furniture?: Paragraph[];
}

export type Block = Heading | Paragraph | List | Table | Picture | Code | Quote | Formula | Footnote | Rule | Preformatted | Section;
export type BlockType = Block['type'];

export interface DocumentMetadata {
  title?: string;
  author?: string;
  /** ISO 8601. */
  created_date?: string;
  [key: string]: unknown;
}

export const DOCUMENT_VERSION = 1;

export interface QuarryDocument {
  version: typeof DOCUMENT_VERSION;
  metadata: DocumentMetadata;
  blocks: Block[];
}
