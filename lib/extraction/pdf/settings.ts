/**
 * The thresholds that decide a PDF's structure, grouped by stage (in the order of stages.ts):
 * what counts as a ruling line, a row, a column, furniture, a table, a list, a heading, and when a
 * page needs OCR. Each says what it decides and in which unit. An "em" is the font size of the
 * text in question (points); a "share" is a fraction from 0 to 1. The golden files (test/golden)
 * show what a change does to every document: `UPDATE_GOLDEN=1 npm run test:golden`, then
 * `git diff test/golden`.
 *
 * Constants technical rather than structural (buffer sizes, matrix maths, pdf.js's own spacing
 * rules in read/pdfium.ts, search bounds) stay beside their code.
 */
import { MIN_MEAN_CONFIDENCE } from '@/lib/extraction/ocr/common';

/* ------------------------------------------------------------------ reading: frames (read/runs.ts) */

/** Text within this of a quarter turn (radians) shares the upright or quarter-turned frame of its page. */
export const FRAME_QUARTER_TOLERANCE = 0.1;
/** Other text directions are rounded to this step (degrees): text at one rounded angle shares a frame. */
export const FRAME_ANGLE_STEP = 5;

/* ------------------------------------------------------------------ reading: ruling lines (read/graphics.ts, read/page-sources.ts) */

/**
 * Two pieces of upright text on one baseline with a gap this wide (ems of the smaller) mark a page
 * that may hold a table: only then are its ruling lines read (and bordered tables looked for).
 */
export const TABLE_CUE_GAP = 0.45;
/** Shortest line kept as a ruling (points): shorter strokes are underlines, ticks, glyph bits. */
export const RULE_MIN_LENGTH = 4;
/** Filled rectangles at most this thick (points) are rules; thicker ones contribute their four edges. */
export const RULE_MAX_FILL_WIDTH = 3;
/** Stroked lines thicker than this (points) are no rules (bars, borders of shapes). */
export const RULE_MAX_STROKE = 6;
/** How far (points) a rule's two ends may differ across it and the rule still count as horizontal or vertical. */
export const RULE_MAX_SLANT = 1;
/** Filled boxes covering at least this share of the page are its background, not a table's frame. */
export const BOX_MAX_PAGE_SHARE = 0.9;

/* ------------------------------------------------------------------ OCR decision (ocr/decision.ts, ocr/merge.ts) */

/** A text layer with fewer non-space characters than this is "no text". */
export const MIN_TEXT_CHARS = 10;
/** Share of a text layer's characters that are garbage (replacement, control, private-use) above which it is unusable. */
export const GARBAGE_SHARE = 0.3;
/** Pages with fewer characters than this that are mostly one image are treated as scans in normal mode. */
export const SCAN_TEXT_CHARS = 200;
/** Share of the page the largest image must cover for such a page to count as a scan. */
export const SCAN_IMAGE_AREA = 0.8;
/** OCR output below this mean word confidence (0–100) is treated as noise and not used (the same bar as images). */
export const MIN_OCR_CONFIDENCE = MIN_MEAN_CONFIDENCE;
/** An OCR paragraph with fewer words (CJK: character pairs) than this is never added to a usable text layer. */
export const OCR_MIN_PARAGRAPH_TOKENS = 4;
/** An OCR paragraph is added to a usable text layer when less than this share of its words occur in it. */
export const OCR_KNOWN_SHARE = 0.5;

/* ------------------------------------------------------------------ OCR words as a text layer (ocr/words.ts) */

/** A scanned page is scaled so that its median line of text has this font size (points), the size the frame stages' thresholds are set for. */
export const OCR_BODY_SIZE = 10;
/** Capitals and digits of Latin type stand this many ems above the baseline (Helvetica 0.72, Times 0.66). */
export const OCR_CAP_HEIGHT = 0.7;
/** A line without Latin words (CJK: characters fill the em), top to bottom, is this many ems high... */
export const OCR_LINE_EM = 0.9;
/** ... and its baseline lies this share of its height under its top. */
export const OCR_BASELINE_SHARE = 0.8;
/** An OCR line whose size is within these multiples of the page's median is of the body size (the measurement's error is a pixel or two). */
export const OCR_SAME_SIZE: readonly [number, number] = [0.85, 1.18];
/**
 * A table found in OCR words is kept when the words inside it read at this mean confidence at
 * least. Measured on the ICDAR pages rendered at 150 dpi: true tables 62–96 (small print of
 * numbers at the low end), the tables a chart's labels and bars make 42–59, and one at 66.
 */
export const OCR_TABLE_MIN_CONFIDENCE = 60;
/** ... and when fewer than this share of its filled cells are strokes read as glyphs (a chart's bars and axes read as "|", "__", "~~"). */
export const OCR_TABLE_MAX_JUNK_CELLS = 0.1;
/** Words lie upright when this share of a line's neighbours follow each other along it, and of the longer words are wider than their line is high. */
export const OCR_MIN_UPRIGHT_SHARE = 0.8;

/* ------------------------------------------------------------------ bordered tables (tables/bordered.ts) */

/** How far (points) a rule may miss another for the two to cross, or a cell side to count as ruled. */
export const RULE_TOLERANCE = 2.5;
/** Rules on one line at most this far apart across it (points) join into one … */
export const RULE_JOIN_OFFSET = 1;
/** … when the gap between them along it is at most this (points). */
export const RULE_JOIN_GAP = 2;
/** Shortest horizontal rule (points) a table grid is built from. */
export const TABLE_MIN_HRULE = 8;
/** Shortest vertical rule (points) a table grid is built from. */
export const TABLE_MIN_VRULE = 4;
/** Rules closer than this (points) are one boundary of the grid. */
export const GRID_BOUNDARY_MERGE = 3;
/** Most column boundaries of a grid (40 columns); a finer grid is a drawing, not a table. */
export const GRID_MAX_COLUMN_BOUNDARIES = 41;
/** Most row boundaries of a grid (500 rows). */
export const GRID_MAX_ROW_BOUNDARIES = 501;
/** Share of a cell side a rule must cover to separate the cells beside it (else they are one spanning cell). */
export const RULE_COVERAGE = 0.6;
/** Runs of a cell whose baselines are within this (ems) are one line of it. */
export const CELL_LINE_BASELINE = 0.5;
/** A grid row holding at least this many runs may be several unruled rows. */
export const UNRULED_MIN_RUNS = 4;
/** A grid row is split into its text lines when this many of them fill two or more columns each … */
export const UNRULED_MIN_ROW_LINES = 3;
/** … or, in a grid of at most this many rows, … */
export const UNRULED_SMALL_GRID_ROWS = 3;
/** … this many. */
export const UNRULED_SMALL_GRID_ROW_LINES = 2;
/** Share of a grid's positions that must hold text for it to be a table (not a frame around a paragraph). */
export const GRID_MIN_FILL = 0.3;
/** Rows with two or more filled cells a grid needs to be a table. */
export const GRID_MIN_FULL_ROWS = 2;
/** A grid with a cell longer than this (characters) is a framed text, not a table. */
export const GRID_MAX_CELL_CHARS = 600;

/* ------------------------------------------------------------------ rows and segments (layout/rows.ts) */

/** Gap (ems) that separates two segments of a row (column gutters, table columns, label/value gaps). */
export const SEGMENT_GAP = 1.0;
/** A run joins a row when their boxes overlap by at least this (ems of the smaller) … */
export const ROW_MIN_OVERLAP = 0.5;
/** … and their baselines are less than this apart (ems of the larger): a superscript stays on its line. */
export const ROW_MAX_BASELINE_SHIFT = 0.6;
/** Text more than this many times the row's size is larger text (the row's geometry follows it) … */
export const ROW_LARGER_TEXT = 1.05;
/** … and on another baseline when more than this (ems) off the row's … */
export const ROW_OFF_BASELINE = 0.3;
/** … in which case it joins only within this (ems) of the row's text (the base of a superscript). */
export const ROW_NEXT_TO = 2;

/* ------------------------------------------------------------------ page furniture (layout/furniture.ts) */

/** Most rows stacked at the top or bottom of a page (a journal line over an author line) taken as one header or footer. */
export const FURNITURE_MAX_ROWS = 3;
/** Rows closer than this (ems) stack into one header or footer. */
export const FURNITURE_STACK_GAP = 0.8;
/** A header or footer ending within this share of the page height from its edge … */
export const FURNITURE_NEAR_EDGE = 0.12;
/** … needs at least this gap (ems) to the text; */
export const FURNITURE_NEAR_GAP = 0.8;
/** one ending within this share … */
export const FURNITURE_FAR_EDGE = 0.2;
/** … at least this gap (ems). */
export const FURNITURE_FAR_GAP = 1.5;
/** Longest running header or footer candidate (characters). */
export const FURNITURE_MAX_CHARS = 120;
/** A header or footer is set at most this many times the body size (a title is not furniture). */
export const FURNITURE_MAX_SIZE = 1.25;

/* ------------------------------------------------------------------ reading order (order/columns.ts) */

/** A region of fewer segments than this is not split into columns (nor a column band looked for). */
export const COLUMN_MIN_PIECES = 6;
/** A region narrower than this (points) is not split into columns. */
export const COLUMN_MIN_SPAN = 60;
/** A gutter may be crossed by at most this share of the region's segments (a title, a wide caption) … */
export const GUTTER_MAX_CROSS_SHARE = 0.12;
/** … and always by this many. */
export const GUTTER_MAX_CROSS = 2;
/** A gutter is at least this wide (ems of the region's median size) … */
export const GUTTER_MIN_WIDTH = 0.8;
/** … and at least this wide (points). */
export const GUTTER_MIN_WIDTH_PT = 4;
/** Segments each side of a gutter needs. */
export const COLUMN_MIN_SIDE_PIECES = 3;
/** Share of the region's characters each side of a gutter needs. */
export const COLUMN_MIN_CHAR_SHARE = 0.1;
/** The two sides of a gutter overlap vertically by at least this share of the shorter: they sit side by side. */
export const COLUMN_MIN_OVERLAP = 0.3;
/** Rows a text column spans at least. */
export const COLUMN_MIN_ROWS = 3;
/** Median width (ems) of a text column's segments at least (table columns, labels and values are narrower). */
export const COLUMN_MIN_WIDTH = 6;
/** A segment of at least this many words is prose … */
export const PROSE_MIN_WORDS = 3;
/** … and a CJK one of at least this many characters. */
export const PROSE_MIN_CJK_CHARS = 8;
/** Share of a text column's segments that must be prose. */
export const COLUMN_PROSE_SHARE = 0.5;
/** A horizontal cut needs a gap of at least this (ems) … */
export const CUT_MIN_GAP = 0.5;
/** … at least this many times the region's typical gap between lines. */
export const CUT_GAP_RATIO = 1.4;
/** A piece at least this share of its region's width is full-width text (columns are narrower). */
export const WIDE_SHARE = 0.6;
/** The short last line of a full-width paragraph, at most this far below it (ems), stays with it (not with the columns). */
export const SHORT_LAST_LINE_GAP = 0.8;
/** A vertical gap both columns share wider than this (ems) splits a band (a full-width figure between). */
export const SUB_BAND_GAP = 3;
/** Consecutive leaves overlapping horizontally by this share of the narrower are one column again. */
export const LEAF_MERGE_OVERLAP = 0.8;

/* ------------------------------------------------------------------ lines (layout/lines.ts) */

/** Gap (ems) above which two runs of a line (or a table cell) get a space between them. */
export const SPACE_GAP = 0.18;
/** CJK runs closer than this (ems) join without a space. */
export const CJK_JOIN_GAP = 0.5;
/** Share of a line's characters that must be bold for the line to be bold. */
export const LINE_BOLD_SHARE = 0.95;
/** Share of a line's characters that must be monospace for the line to be code. */
export const LINE_MONO_SHARE = 0.8;

/* ------------------------------------------------------------------ borderless tables (tables/borderless.ts) */

/** A single piece between table rows fits a column when it starts at most this (ems) before it. */
export const BORDERLESS_SINGLE_TOLERANCE = 0.5;
/** Lines further apart than this (ems of the larger) end a table body. */
export const BORDERLESS_MAX_LINE_GAP = 3;
/** A line whose size differs from the body's first line by more than this share ends the body. */
export const BORDERLESS_SIZE_CHANGE = 0.2;
/** A single piece further than this (ems) below the line before ends the body. */
export const BORDERLESS_SINGLE_MAX_GAP = 1.6;
/** Pieces starting at most this (ems of the first line) after a column's right edge are in that column. */
export const BORDERLESS_COLUMN_GAP = 0.5;
/** Most columns of a borderless table. */
export const BORDERLESS_MAX_COLUMNS = 15;
/** A column wider than this share of the table makes it no table. */
export const BORDERLESS_MAX_COLUMN_SHARE = 0.75;
/** Share of the rows' positions that must hold text. */
export const BORDERLESS_MIN_FILL = 0.6;
/** The median cell is at most this long (characters): longer is text set in columns. */
export const BORDERLESS_MAX_MEDIAN_CHARS = 50;
/** A cell of at least this many words (and few commas) is a piece of prose … */
export const PROSE_CELL_WORDS = 5;
/** … and a column whose cells are this share prose is text, not a table column. */
export const PROSE_COLUMN_SHARE = 0.6;
/** Share of a column's consecutive cells that read on, one into the next, at which the column is prose. */
export const PROSE_FLOW_SHARE = 0.4;
/** Most header lines above a table body. */
export const HEADER_MAX_LINES = 3;
/** A header line at most this far above the line below it (ems of the larger). */
export const HEADER_MAX_GAP = 2.5;
/** Header lines at most this many font sizes apart (baseline to baseline) are one wrapped header row … */
export const WRAPPED_HEADER_MAX_LEADING = 1.6;
/** … above the first row whose filled cells after the first are at least this share of values. */
export const WRAPPED_HEADER_VALUE_SHARE = 0.6;
/** A header line's size differs from the line below by at most this share. */
export const HEADER_SIZE_CHANGE = 0.25;
/** Longest piece of a header line (characters). */
export const HEADER_MAX_CHARS = 60;
/** A single piece within this (ems) of the rows above and below is a label spanning both. */
export const SPANNING_LABEL_GAP = 0.9;
/** Rows a borderless table has at least (header lines counting), and body rows unless it has … */
export const BORDERLESS_MIN_ROWS = 3;
/** … at least this many columns. */
export const BORDERLESS_TWO_ROW_MIN_COLUMNS = 3;

/* ------------------------------------------------------------------ table structure checks (tables/bordered.ts, tables/borderless.ts) */

/**
 * Grid boundaries closer than this (points) are one: a cell's shading inset a few points from its
 * rules draws a second edge beside each rule, and no text fits between the two.
 */
export const GRID_MIN_TRACK = 7;
/**
 * Two text lines of a cell at most this far apart (baseline to baseline, ems) are one wrapped
 * text: a boundary drawn between them (the seam of two shadings, one per line) divides no cells.
 */
export const CELL_WRAP_LEADING = 1.25;
/**
 * A borderless table's column holds text in at least two of its body rows; at least this share
 * of its columns must (axis labels of charts side by side fill a column once).
 */
export const BORDERLESS_MIN_SUPPORTED_COLUMNS = 0.5;

/* ------------------------------------------------------------------ blocks (layout/block-builder.ts, layout/preserved.ts) */

/** Line pitches (baseline to baseline, ems) outside [PITCH_MIN, PITCH_MAX] are no line spacing. */
export const PITCH_MIN = 0.8;
export const PITCH_MAX = 3;
/** The line pitch (ems) when too few lines tell. */
export const PITCH_DEFAULT = 1.25;
/** The typical pitch is this quantile of the column's pitches (below the median: paragraph gaps are larger). */
export const PITCH_QUANTILE = 0.4;
/** Lines within this share of the column's median size are body text (for its edges). */
export const BODY_SIZE_TOLERANCE = 0.15;
/** Two lines differing in size by more than this share give no pitch sample. */
export const PITCH_SAMPLE_SIZE_CHANGE = 0.1;
/** A pitch more than this many typical pitches … */
export const PARAGRAPH_GAP = 1.3;
/** … plus this (points) breaks the paragraph. */
export const PARAGRAPH_GAP_PT = 1;
/** Lines differing in size by more than this share are different blocks. */
export const SIZE_CHANGE = 0.12;
/** A change of weight breaks a paragraph when the bold side has fewer characters than this. */
export const BOLD_BREAK_MAX_CHARS = 150;
/** A first-line indent is at least this (ems) … */
export const INDENT_MIN = 0.8;
/** … at most this (ems) … */
export const INDENT_MAX = 8;
/** … under a line starting within this (ems) of the column's edge. */
export const INDENT_PREV_MAX = 0.4;
/** In a column of at least this many lines, … */
export const SHORT_LINE_MIN_LINES = 3;
/** … a line ending a sentence this share of the column width short of its edge … */
export const SHORT_LINE_SHARE = 0.25;
/** … (and at least this many ems) ends its paragraph. */
export const SHORT_LINE_EMS = 4;
/** A numbered title wrapped onto a second line: the first line at most this long (characters) … */
export const TITLE_MAX_CHARS = 100;
/** … the second at most this long. */
export const TITLE_NEXT_MAX_CHARS = 80;
/** A numbered section title set like the body is at most this long (characters) … */
export const SECTION_TITLE_MAX_CHARS = 100;
/** … and ends this share of the column width short of its edge … */
export const SECTION_TITLE_SHORTFALL_SHARE = 0.3;
/** … (and at least this many ems). */
export const SECTION_TITLE_SHORTFALL_EMS = 4;
/** Monospace lines at most this many typical pitches apart (plus PARAGRAPH_GAP_PT) are one code block. */
export const CODE_MAX_GAP = 4;
/** A code block of fewer lines is code only when its font is known to be monospace (not guessed). */
export const CODE_MIN_LINES = 2;
/** A monospace line starting within this (ems) of the paragraph's edge is inline code wrapped into it. */
export const INLINE_CODE_INDENT = 0.5;
/** A numbered line ("1. Introduction") of at most this many characters … */
export const NUMBERED_HEADING_MAX_CHARS = 100;
/** … set this many times the body size (or bold) is a heading, not a list item. */
export const NUMBERED_HEADING_SIZE = 1.15;
/** A weak list marker starts a list item after a line ending this share of the column width short. */
export const LIST_AFTER_SHORT_LINE = 0.2;
/** preserve_layout: a blank line marks a gap of more than this many typical pitches. */
export const PRESERVED_BLANK_LINE = 1.7;

/* ------------------------------------------------------------------ lists and code (layout/lists.ts) */

/** A line continues a list item when it starts within this (ems) of the item's text or marker. */
export const LIST_HANG_TOLERANCE = 0.45;
/** A right-to-left line continues a list item when it starts at most this (ems) outside its marker. */
export const LIST_RTL_HANG = 0.3;
/** List markers further apart than this (ems) are different nesting levels. */
export const LIST_LEVEL_STEP = 0.6;
/** Deepest list nesting level (0 is the top). */
export const LIST_MAX_LEVEL = 3;
/** In a code block, a blank line marks a gap of more than this many typical pitches. */
export const CODE_BLANK_LINE_GAP = 1.6;
/** In a code block, a gap of more than this share of a character width between runs is a space. */
export const CODE_SPACE_GAP = 0.3;

/* ------------------------------------------------------------------ headings (model/headings.ts) */

/** A heading has at most this many lines … */
export const HEADING_MAX_LINES = 3;
/** … at most this many characters … */
export const HEADING_MAX_CHARS = 200;
/** … and at least this many. */
export const HEADING_MIN_CHARS = 2;
/** Share of a heading's non-space characters that are letters at least (else a table or chart remnant). */
export const HEADING_MIN_LETTER_SHARE = 0.4;
/** A text with this many commas is a list of names or items (an author line), no heading. */
export const HEADING_MAX_COMMAS = 2;
/** A text ending a sentence with more words than this is a sentence, no heading. */
export const HEADING_SENTENCE_WORDS = 10;
/** A numbered section title has at most this many lines … */
export const NUMBERED_TITLE_MAX_LINES = 2;
/** … at most this many characters … */
export const NUMBERED_TITLE_MAX_CHARS = 120;
/** … and at most this many words after its number. */
export const NUMBERED_TITLE_MAX_WORDS = 14;
/** Bold at body size means a heading only while less than this share of the document's text is bold. */
export const BOLD_MEANINGFUL_SHARE = 0.5;
/** Blocks smaller than this many times the body size are never headings. */
export const HEADING_MIN_SIZE = 0.9;
/** A block set at least this many times the body size is a heading candidate. */
export const HEADING_LARGER = 1.1;
/** A bold heading at body size has at most this many lines … */
export const BOLD_HEADING_MAX_LINES = 2;
/** … and at most this many characters. */
export const BOLD_HEADING_MAX_CHARS = 120;
/** A numbered title repeating more often than this is a running header or footer. */
export const NUMBERED_MAX_REPEATS = 2;
/** A page with at least this many numbered titles … */
export const TOC_MIN_NUMBERED = 5;
/** … that are more than this share of its blocks is a table of contents (its entries are no headings). */
export const TOC_NUMBERED_SHARE = 0.6;
/** Heading sizes within this share of each other are one style (one level). */
export const HEADING_STYLE_STEP = 0.05;

/* ------------------------------------------------------------------ stacked tables (model/tables.ts) */

/** Two tables one right under the other are one table when the gap between them is at most this many of the upper one's rows … */
export const TABLE_JOIN_MAX_GAP_ROWS = 2.5;
/** … and they overlap across at least this share of the narrower one's width (and have as many columns). */
export const TABLE_JOIN_MIN_OVERLAP = 0.8;

/* ------------------------------------------------------------------ tables continued on the next page (model/tables.ts) */

/** A table ending a page continues on the next when its bottom edge is below this share of the page's height … */
export const PAGE_TABLE_MIN_BOTTOM = 0.6;
/** … the next page's first table starts above this share … */
export const PAGE_TABLE_MAX_TOP = 0.4;
/** … and the two overlap across at least this share of the wider one's width (and have as many columns). */
export const PAGE_TABLE_MIN_OVERLAP = 0.8;
/** A line between the parts saying the table goes on ("Table 3 (continued)") has at most this many characters. */
export const PAGE_TABLE_NOTE_MAX_CHARS = 80;
/**
 * The next page's table opens with a header of its own (another table) when its first row holds
 * words in a column where at least this share of the upper table's body cells are numbers.
 */
export const PAGE_TABLE_NUMERIC_SHARE = 0.8;

/* ------------------------------------------------------------------ running furniture (model/furniture.ts) */

/** A margin line repeating on at least this share of the pages is a running header or footer … */
export const FURNITURE_REPEAT_SHARE = 0.4;
/** … and on at least this many pages. */
export const FURNITURE_MIN_REPEATS = 2;
/** A margin number following the page number at a constant offset on at least this many pages is a page label. */
export const FURNITURE_LABEL_PAGES = 3;
/**
 * A document of at most this many pages is short: a repeat on two pages is thin evidence there, so
 * a running header or footer must stand in the same place on every page (or every page but the
 * first, or every page of one parity, with a line of its own on the others).
 */
export const FURNITURE_SHORT_PAGES = 4;
/** On a short document, a line repeats in the same place when its distance from the page edge differs by at most this share of the page height … */
export const FURNITURE_SLOT_PLACE = 0.02;
/** … and its size by at most this share. */
export const FURNITURE_SLOT_SIZE = 0.1;
/** Two margin lines not set bold whose texts (digits aside) share this share of their letter pairs are the same line (a day, a name changed) … */
export const FURNITURE_SIMILAR_TEXT = 0.8;
/** … when both have at least this many characters. */
export const FURNITURE_SIMILAR_MIN_CHARS = 12;
