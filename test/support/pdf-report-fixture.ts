/**
 * A generated four-page technical report with the structure real reports have and its reference
 * Markdown: a title, numbered headings at three levels (large, bold at a larger size, bold at body
 * size, and one set in the body font at body size), a running header and a "Page N of M" footer,
 * lists, captions, and tables ruled as a full grid (with a header cell spanning two columns and a
 * cell wrapped over two lines), ruled only above and below (booktabs) and without any rules.
 */
import { buildPdf, paragraph, textWidth, type PdfLine, type PdfPageSpec, type PdfText } from './pdf-fixture';

const LEFT = 72;
const WIDTH = 468;
const BODY = 10;

const PROSE = [
  'The service reads documents of many kinds and turns them into structured text that search and retrieval can use. Each document passes through the same steps, whatever its format.',
  'Measurements were taken on a quiet machine with two cores. Every figure is the median of five runs, and the spread between runs stayed below three percent throughout.',
  'The results below compare the new pipeline with the previous release. Larger numbers are better for throughput, smaller numbers are better for latency and memory.',
  'Operators can tune the pipeline with a handful of settings. The defaults suit most installations, and the sections below explain when a change pays off.',
];

interface Writer {
  pages: PdfPageSpec[];
  md: string[];
  texts: PdfText[];
  lines: PdfLine[];
  y: number;
}

function newPage(w: Writer): void {
  if (w.texts.length) w.pages.push({ texts: w.texts, lines: w.lines });
  w.texts = [];
  w.lines = [];
  w.y = 700;
}

function heading(w: Writer, text: string, level: number, size: number, font: 'bold' | 'regular'): void {
  w.y -= size * 0.8;
  w.texts.push({ x: LEFT, y: w.y, text, size, font });
  w.y -= size * 1.6;
  w.md.push(`${'#'.repeat(level)} ${text}`);
}

function prose(w: Writer, text: string): void {
  const p = paragraph(text, { x: LEFT, y: w.y, width: WIDTH, size: BODY });
  w.texts.push(...p.texts);
  w.y = p.y;
  w.md.push(text);
}

function caption(w: Writer, text: string): void {
  w.texts.push({ x: LEFT, y: w.y, text, size: 9 });
  w.y -= 16;
  w.md.push(text);
}

function list(w: Writer, items: string[]): void {
  for (const item of items) {
    w.texts.push({ x: LEFT + 8, y: w.y, text: '•', size: BODY }, { x: LEFT + 20, y: w.y, text: item, size: BODY });
    w.y -= 13;
  }
  w.y -= 6;
  w.md.push(items.map((i) => `- ${i}`).join('\n'));
}

function gfm(rows: string[][]): string {
  const line = (r: string[]) => `| ${r.join(' | ')} |`;
  return [line(rows[0]), `|${' --- |'.repeat(rows[0].length)}`, ...rows.slice(1).map(line)].join('\n');
}

/** Columns at `xs` (left edges); cell text left-aligned 4 pt inside. */
function tableRow(w: Writer, xs: number[], cells: string[], font: 'bold' | 'regular' = 'regular'): void {
  cells.forEach((c, i) => {
    if (c) w.texts.push({ x: xs[i] + 4, y: w.y, text: c, size: 9, font });
  });
}

function gridTable(w: Writer): void {
  // Region | Revenue (Q1, Q2) | Notes; "Revenue" spans two columns; one note wraps.
  const xs = [LEFT, LEFT + 110, LEFT + 190, LEFT + 270, LEFT + 468];
  const rowH = 16;
  const top = w.y + 12;
  const body = [
    ['North', '12.4', '13.1', 'Steady growth'],
    ['South', '8.0', '9.6', ['New office opened in', 'March']],
    ['East', '10.2', '9.9', 'Flat'],
  ] as const;
  const hs: number[] = [top];
  // Header: two rows, "Revenue" spanning Q1 and Q2.
  w.texts.push({ x: xs[0] + 4, y: w.y, text: 'Region', size: 9, font: 'bold' });
  w.texts.push({ x: xs[1] + 4, y: w.y, text: 'Revenue (M EUR)', size: 9, font: 'bold' });
  w.texts.push({ x: xs[3] + 4, y: w.y, text: 'Notes', size: 9, font: 'bold' });
  w.y -= rowH;
  hs.push(w.y + 12);
  tableRow(w, xs, ['', 'Q1', 'Q2', ''], 'bold');
  w.y -= rowH;
  hs.push(w.y + 12);
  for (const r of body) {
    const note = r[3];
    tableRow(w, xs, [r[0], r[1], r[2], typeof note === 'string' ? note : note[0]]);
    if (typeof note !== 'string') {
      w.y -= 11;
      w.texts.push({ x: xs[3] + 4, y: w.y, text: note[1], size: 9 });
    }
    w.y -= rowH;
    hs.push(w.y + 12);
  }
  const bottom = hs[hs.length - 1];
  for (const y of hs) {
    // The rule under "Revenue" only spans its two columns; the rule under the header row 1 is
    // interrupted where "Region" and "Notes" span both header rows.
    if (y === hs[1]) w.lines.push({ x1: xs[1], y1: y, x2: xs[3], y2: y });
    else w.lines.push({ x1: xs[0], y1: y, x2: xs[4], y2: y });
  }
  for (const x of xs) {
    // No rule between Q1 and Q2 in the first header row (the spanning cell).
    if (x === xs[2]) w.lines.push({ x1: x, y1: hs[1], x2: x, y2: bottom });
    else w.lines.push({ x1: x, y1: top, x2: x, y2: bottom });
  }
  w.y -= 10;
  w.md.push(
    gfm([
      // Spanning cells once, the positions they cover empty (the Markdown's table rule).
      ['Region', 'Revenue (M EUR)', '', 'Notes'],
      ['', 'Q1', 'Q2', ''],
      ['North', '12.4', '13.1', 'Steady growth'],
      ['South', '8.0', '9.6', 'New office opened in March'],
      ['East', '10.2', '9.9', 'Flat'],
    ]),
  );
}

function booktabsTable(w: Writer): void {
  const xs = [LEFT, LEFT + 150, LEFT + 260, LEFT + 370];
  const rows = [
    ['Format', 'Pages/s', 'Memory (MB)', 'Errors'],
    ['PDF', '412', '180', '0'],
    ['DOCX', '95', '120', '1'],
    ['XLSX', '60', '240', '0'],
    ['PPTX', '48', '150', '2'],
  ];
  w.lines.push({ x1: LEFT, y1: w.y + 12, x2: LEFT + WIDTH, y2: w.y + 12, width: 1 });
  rows.forEach((r, i) => {
    tableRow(w, xs, r, i === 0 ? 'bold' : 'regular');
    if (i === 0) w.lines.push({ x1: LEFT, y1: w.y - 4, x2: LEFT + WIDTH, y2: w.y - 4, width: 0.5 });
    w.y -= 14;
  });
  w.lines.push({ x1: LEFT, y1: w.y + 10, x2: LEFT + WIDTH, y2: w.y + 10, width: 1 });
  w.y -= 10;
  w.md.push(gfm(rows));
}

function borderlessTable(w: Writer): void {
  const xs = [LEFT, LEFT + 200, LEFT + 300];
  const rows = [
    ['Setting', 'Default', 'Range'],
    ['Worker threads', '2', '1-16'],
    ['Page timeout (s)', '30', '5-600'],
    ['Memory cap (MB)', '1024', '256-8192'],
    ['Max pages', '2000', '1-100000'],
  ];
  rows.forEach((r, i) => {
    // Numbers right-aligned in their columns, as spreadsheets and reports set them.
    w.texts.push({ x: xs[0], y: w.y, text: r[0], size: 9, font: i === 0 ? 'bold' : 'regular' });
    for (const c of [1, 2]) w.texts.push({ x: xs[c] + 60 - textWidth(r[c], 9, i === 0 ? 'bold' : 'regular'), y: w.y, text: r[c], size: 9, font: i === 0 ? 'bold' : 'regular' });
    w.y -= 13;
  });
  w.y -= 10;
  w.md.push(gfm(rows));
}

/** The report's PDF and its reference Markdown (headings, paragraphs, lists, captions, tables). */
export function buildStructuredReport(): { pdf: Uint8Array; markdown: string } {
  const w: Writer = { pages: [], md: [], texts: [], lines: [], y: 700 };
  heading(w, 'Document Extraction Performance Report', 1, 20, 'bold');
  prose(w, PROSE[0]);
  heading(w, '1 Introduction', 2, 14, 'bold');
  prose(w, PROSE[1]);
  prose(w, PROSE[2]);
  heading(w, '1.1 Scope', 3, 11, 'bold');
  prose(w, PROSE[3]);
  list(w, ['PDF documents with a text layer', 'Office documents: DOCX, XLSX and PPTX', 'Scanned pages read with OCR']);
  heading(w, '1.2 Method', 3, 11, 'bold');
  prose(w, PROSE[1]);
  prose(w, PROSE[0]);
  newPage(w);
  heading(w, '2 Results', 2, 14, 'bold');
  prose(w, PROSE[2]);
  heading(w, '2.1 Revenue by region', 3, 11, 'bold');
  caption(w, 'Table 1: Revenue by region and quarter.');
  gridTable(w);
  prose(w, PROSE[1]);
  heading(w, '2.2 Throughput', 3, 11, 'bold');
  prose(w, PROSE[3]);
  caption(w, 'Table 2: Throughput and memory per format.');
  booktabsTable(w);
  prose(w, PROSE[0]);
  newPage(w);
  heading(w, '3 Configuration', 2, 14, 'bold');
  prose(w, PROSE[3]);
  heading(w, '3.1 Defaults', 3, BODY, 'bold');
  prose(w, PROSE[2]);
  caption(w, 'Table 3: Settings and their defaults.');
  borderlessTable(w);
  prose(w, PROSE[1]);
  heading(w, '3.2 Limits', 3, BODY, 'bold');
  prose(w, PROSE[0]);
  list(w, ['A page that takes too long is skipped', 'A document over the memory cap fails', 'Cancelled tasks stop between pages']);
  newPage(w);
  heading(w, '4 Conclusion', 2, 14, 'bold');
  prose(w, PROSE[2]);
  prose(w, PROSE[3]);
  heading(w, '4.1 Future work', 3, BODY, 'regular');
  prose(w, PROSE[1]);
  w.lines.push({ x1: LEFT + 100, y1: w.y - 50, x2: LEFT + 300, y2: w.y }); // the figure: one line of a chart
  w.y -= 66;
  caption(w, 'Figure 1: Throughput over the last six releases.');
  prose(w, PROSE[0]);
  newPage(w);
  const total = w.pages.length;
  w.pages.forEach((p, i) => {
    p.texts!.push({ x: LEFT, y: 750, text: 'Quarry Technical Report 2024', size: 8 }, { x: 460, y: 750, text: 'Internal', size: 8 });
    p.texts!.push({ x: 270, y: 40, text: `Page ${i + 1} of ${total}`, size: 8 });
  });
  return { pdf: buildPdf(w.pages, { title: 'Document Extraction Performance Report' }), markdown: `${w.md.join('\n\n')}\n` };
}
