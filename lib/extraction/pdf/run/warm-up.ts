/**
 * The document an extraction worker reads a few times when it starts, before any task reaches it.
 *
 * V8 compiles the PDF reader's and layout's JavaScript to fast code only once it has run enough
 * and seen the shapes of the values it handles. A new worker's first long document used to pay
 * for that itself: about 1.4 s of optimising-compiler time during a 400-page report, on the same
 * two cores that read its pages, and code first compiled for whole-number coordinates (what simple
 * generated documents have) was thrown away and compiled again when fractional ones came. This
 * document has what real documents have, on fractional positions and sizes: numbered headings at
 * three sizes, running headers and footers, paragraphs, bulleted, numbered and lettered lists,
 * borderless, ruled and booktabs tables, two-column text, code, a dotted table of contents, an
 * image, a rotated page, most of them on every page; and, a piece per page in turn (variety), what
 * made a first real document still throw optimised code away: chapter, appendix and roman-numeral
 * headings, list items over two lines, a smaller note number before its text, a word printed on
 * itself, a hyphenated line end, a short table. Long enough (64 pages) to be read by every
 * page thread a long document gets.
 */
import { buildPdf, paragraph, type PdfLine, type PdfPageSpec, type PdfText } from './writer';

/** 64 pages: as many page threads as a long document gets (16 pages or more each, at most 4) warm up with it. */
const PAGES = 64;
const LEFT = 72;
const WIDTH = 468;

const PROSE = [
  'The service reads documents of many kinds and turns them into structured text that search and retrieval can use. Each document passes through the same steps, whatever its format, and every step reports its progress.',
  'Measurements were taken on a quiet machine with two cores. Every figure is the median of five runs, and the spread between runs stayed below three percent throughout the whole series of measurements.',
  'Operators can tune the pipeline with a handful of settings. The defaults suit most installations, and the sections below explain when a change pays off and what it costs in memory.',
];

interface Cursor {
  texts: PdfText[];
  lines: PdfLine[];
  y: number;
  /** This page's fractional offset, so that no coordinate is a whole number. */
  d: number;
}

function prose(c: Cursor, text: string, x = LEFT, width = WIDTH, size = 10.13): void {
  const para = paragraph(text, { x: x + c.d, y: c.y, width, size, leading: size * 1.21 });
  c.texts.push(...para.texts);
  c.y = para.y;
}

function heading(c: Cursor, text: string, size: number, font: 'bold' | 'regular' = 'bold'): void {
  c.y -= size * 0.7;
  c.texts.push({ x: LEFT + c.d, y: c.y, text, size, font });
  c.y -= size * 1.55;
}

function list(c: Cursor, markers: string[], page: number): void {
  markers.forEach((marker, i) => {
    c.texts.push({ x: LEFT + 9.3 + c.d, y: c.y, text: marker, size: 10.13 });
    c.texts.push({ x: LEFT + 27.1 + c.d, y: c.y, text: `Item ${i + 1} of the list on page ${page}, with a few more words`, size: 10.13 });
    c.y -= 12.27;
  });
  c.y -= 7.4;
}

function borderlessTable(c: Cursor, page: number): void {
  c.texts.push({ x: LEFT + c.d, y: c.y, text: `Table ${page}: Throughput before and after the change`, size: 9.07 });
  c.y -= 14.6;
  for (let r = 0; r < 6; r++) {
    const cells = r === 0 ? ['Metric', 'Before', 'After', 'Change'] : [`Stage ${r} of ${page}`, (r * 13.7 + page).toFixed(1), (r * 11.2).toFixed(2), `${(r * 2.5).toFixed(1)}%`];
    cells.forEach((text, i) => c.texts.push({ x: LEFT + i * 117.3 + c.d, y: c.y, text, size: 9.61, font: r === 0 ? 'bold' : 'regular' }));
    c.y -= 12.41;
  }
  c.y -= 9.3;
}

function ruledTable(c: Cursor, page: number, grid: boolean): void {
  const top = c.y + 9.13;
  const rows = 4;
  const rowHeight = 14.23;
  for (let r = 0; r < rows; r++) {
    ['Name', 'Value', 'Unit'].forEach((h, i) => c.texts.push({ x: LEFT + 8.2 + i * 150.5 + c.d, y: c.y, text: r === 0 ? h : `${h} ${r}.${page}`, size: 9.43 }));
    c.y -= rowHeight;
  }
  const bottom = top - rows * rowHeight;
  const hline = (y: number) => c.lines.push({ x1: LEFT + 3.1 + c.d, y1: y, x2: LEFT + WIDTH - 2.9 + c.d, y2: y, width: 0.61 });
  if (grid) {
    for (let r = 0; r <= rows; r++) hline(top - r * rowHeight);
    for (let k = 0; k <= 3; k++) c.lines.push({ x1: LEFT + 3.1 + k * 150.5 + c.d, y1: top, x2: LEFT + 3.1 + k * 150.5 + c.d, y2: bottom, width: 0.61 });
  } else {
    hline(top);
    hline(top - rowHeight);
    hline(bottom);
  }
  c.y -= 12.7;
}

function columns(c: Cursor, page: number): void {
  const y = c.y;
  let low = y;
  for (const col of [0, 1]) {
    c.y = y;
    prose(c, `${PROSE[(page + col) % PROSE.length]} Column ${col + 1}.`, LEFT + col * 243.7, 222.4, 9.87);
    low = Math.min(low, c.y);
  }
  c.y = low;
}

function code(c: Cursor): void {
  for (const line of ['const pool = new ExtractionWorkerPool();', 'for (const file of files) {', '  await pool.run(task(file));', '}']) {
    c.texts.push({ x: LEFT + 14.2 + c.d, y: c.y, text: line, size: 8.93, font: 'mono' });
    c.y -= 10.71;
  }
  c.y -= 8.2;
}

function contents(c: Cursor): void {
  heading(c, 'Contents', 14.3);
  ['Introduction', 'Method', 'Results', 'Operations'].forEach((title, i) => {
    c.texts.push({ x: LEFT + c.d, y: c.y, text: `${i + 1} ${title} ${'.'.repeat(60 - title.length)} ${3 + i * 11}`, size: 10.13 });
    c.y -= 13.3;
  });
  c.y -= 8;
}

/**
 * What real documents have beside the above, a piece per page in turn: headings numbered as
 * chapters, appendices and in roman numerals, list items that run onto a second line, a note set
 * smaller before larger text on its baseline, a word printed twice on itself (simulated bold),
 * hyphenated line ends and a short table with a cell that takes two pieces.
 */
function variety(c: Cursor, n: number): void {
  c.y -= 9.7;
  switch (n % 6) {
    case 0:
      heading(c, `Chapter ${n / 6} Operations`, 14.11);
      break;
    case 1:
      heading(c, `A.${(n % 5) + 1} Appendix measurements`, 11.37);
      heading(c, `IV. Review of page ${n}`, 11.37, 'regular');
      break;
    case 2:
      ['•', '•'].forEach((marker, i) => {
        c.texts.push({ x: LEFT + 9.3 + c.d, y: c.y, text: marker, size: 10.13 });
        c.texts.push({ x: LEFT + 27.1 + c.d, y: c.y, text: `Item ${i + 1} is long enough to run onto a second line of the`, size: 10.13 });
        c.y -= 12.27;
        c.texts.push({ x: LEFT + 27.1 + c.d, y: c.y, text: 'list, where it goes on with a few more words.', size: 10.13 });
        c.y -= 12.27;
      });
      c.y -= 7.4;
      break;
    case 3:
      c.texts.push({ x: LEFT + c.d, y: c.y, text: '3', size: 6.71 });
      c.texts.push({ x: LEFT + 5.2 + c.d, y: c.y, text: `Note on page ${n}: the figures above include the warm-up of every worker.`, size: 10.13 });
      c.y -= 14.9;
      break;
    case 4:
      // Simulated bold: the word again on itself, then once more a little to the right.
      for (const dx of [0, 0, 0.25]) c.texts.push({ x: LEFT + c.d + dx, y: c.y, text: 'Important', size: 10.13 });
      c.texts.push({ x: LEFT + 52.4 + c.d, y: c.y, text: `notes for the operators of the service, with a hyphen-`, size: 10.13 });
      c.y -= 12.27;
      c.texts.push({ x: LEFT + c.d, y: c.y, text: 'ated word at the end of the line above and more words after it.', size: 10.13 });
      c.y -= 19.1;
      break;
    default:
      for (const [i, cells] of [['Setting', 'Default', 'Range'], ['workers', '2', '1 to 16'], ['memory', '2048 MB', '256 MB and up']].entries()) {
        cells.forEach((text, k) => c.texts.push({ x: LEFT + k * 152.9 + c.d, y: c.y, text, size: 9.61, font: i === 0 ? 'bold' : 'regular' }));
        c.y -= 12.41;
      }
      c.y -= 9.3;
  }
}

function page(n: number): PdfPageSpec {
  const c: Cursor = { texts: [], lines: [], y: 718.37, d: 0.37 + (n % 7) * 0.113 };
  c.texts.push({ x: LEFT + c.d, y: 752.63, text: 'Extraction performance report', size: 8.17 });
  c.texts.push({ x: LEFT + WIDTH - 60.3 + c.d, y: 752.63, text: `Page ${n} of ${PAGES}`, size: 8.17 });
  if (n === 1) contents(c);
  const section = Math.ceil(n / 4);
  if (n % 4 === 1) heading(c, `${section} Section ${section}: Results of the series`, 16.27);
  heading(c, `${section}.${((n - 1) % 4) + 1} Measurements on page ${n}`, 12.83);
  prose(c, PROSE[n % PROSE.length]);
  if (n % 2 === 0) heading(c, `${section}.${((n - 1) % 4) + 1}.1 Details`, 10.13);
  list(c, n % 3 === 0 ? ['•', '•', '–'] : n % 3 === 1 ? ['1.', '2.', '3.'] : ['a)', 'b)', 'c)'], n);
  borderlessTable(c, n);
  prose(c, `The settings measured on page ${n} are listed below, with their values and units.`);
  ruledTable(c, n, n % 2 === 1);
  if (n % 2 === 0) code(c);
  columns(c, n);
  variety(c, n);
  prose(c, `${PROSE[(n + 1) % PROSE.length]} End of page ${n}.`);
  c.texts.push({ x: 300.41 + c.d, y: 38.29, text: String(n), size: 9.07 });
  return { texts: c.texts, lines: c.lines, rotate: n === PAGES ? 90 : undefined, image: n === 5 ? { x: 400.5, y: 60.25, w: 120.3, h: 80.7 } : undefined };
}

let built: Uint8Array | null = null;

export function warmUpDocument(): Uint8Array {
  built ??= buildPdf(Array.from({ length: PAGES }, (_, i) => page(i + 1)), { title: 'Extraction performance report' });
  return built;
}
