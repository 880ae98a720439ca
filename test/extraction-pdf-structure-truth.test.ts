/**
 * Structure of generated PDFs whose truth is known because the test wrote them: two columns of
 * questions are text in reading order and no table; a ruled form's tall cell beside many label
 * rows is one cell, written once.
 */
import { describe, expect, it } from 'vitest';
import { findBorderlessTables, type TableLineLike } from '@/lib/extraction/pdf/tables/borderless';
import type { QuarryDocument, Table } from '@/lib/document/types';
import { buildPdf, paragraph, wrapText, type PdfLine, type PdfRect, type PdfText } from '@/test/support/pdf-fixture';
import { buildUnicodePdf, type UnicodeText } from '@/test/support/pdf-unicode-fixture';
import { documentTables, pdfExtractor } from '@/test/support/pdf-extract';

const extract = pdfExtractor('quarry-structure-truth-');
const tables = documentTables;

const QUESTIONS: [string, string[]][] = [
  ['How often do you exercise in a typical week?', ['Never', 'Sometimes', 'Often']],
  ['Do you have any allergies to medication, food or insects that we should know about?', ['Yes', 'No']],
  ['Have you been admitted to a hospital in the last five years?', ['Yes', 'No']],
  ['Do you smoke or use tobacco products of any kind?', ['Yes', 'No']],
  ['Is there a family history of heart disease?', ['Yes', 'No', 'Unsure']],
  ['Do you take any vitamins or supplements every day?', ['Yes', 'No']],
  ['How would you rate your sleep over the past month?', ['Poor', 'Fair', 'Good']],
  ['Do you drink alcohol more than twice a week?', ['Yes', 'No']],
  ['Have you travelled abroad in the last three months?', ['Yes', 'No']],
  ['Would you like to receive reminders by text message?', ['Yes', 'No']],
];

/** A questionnaire page: five numbered questions per column, each followed by its check boxes. */
function questionnaire(): Uint8Array {
  const texts: PdfText[] = [{ x: 72, y: 740, text: 'Patient questionnaire', size: 16, font: 'bold' }];
  const rects: PdfRect[] = [];
  let n = 0;
  for (const colX of [72, 324]) {
    let y = 700;
    for (let k = 0; k < 5; k++) {
      const [question, options] = QUESTIONS[n++];
      const p = paragraph(`${n}. ${question}`, { x: colX, y, width: 210, size: 10, leading: 12, gapAfter: 0 });
      texts.push(...p.texts);
      y = p.y - 4;
      let x = colX + 12;
      for (const option of options) {
        rects.push({ x, y: y - 1, w: 7, h: 7 });
        texts.push({ x: x + 11, y, text: option, size: 10 });
        x += 70;
      }
      y -= 24;
    }
  }
  return buildPdf([{ texts, rects }]);
}

describe('two columns of prose', () => {
  it('writes a two-column questionnaire as text, not as a table', async () => {
    const { markdown, document } = await extract('questionnaire.pdf', questionnaire());
    expect(tables(document)).toEqual([]);
    expect(markdown).not.toContain('|');
    const words = (text: string) => text.toLowerCase().match(/[a-z]+/g) ?? [];
    const written = new Set(words(markdown));
    for (const [question, options] of QUESTIONS) for (const word of [...words(question), ...options.map((o) => o.toLowerCase())]) expect(written).toContain(word);
  });

  it('finds no table in two narrow columns of wrapped sentences set line beside line', () => {
    const left = wrapText(
      'The clinic opens at eight in the morning and closes at six in the evening on weekdays, while on weekends the doors stay open until noon for urgent visits only.',
      120,
      10,
    );
    const right = wrapText(
      'Patients who arrive without an appointment are seen in the order they register at the front desk, and children under five are always seen first by the nurse on duty.',
      120,
      10,
    );
    const lines: TableLineLike[] = [];
    for (let i = 0; i < Math.min(left.length, right.length); i++) {
      lines.push({
        y: 100 + i * 12,
        size: 10,
        excluded: false,
        segs: [
          { x0: 72, x1: 72 + left[i].length * 5, text: left[i] },
          { x0: 324, x1: 324 + right[i].length * 5, text: right[i] },
        ],
      });
    }
    expect(lines.length).toBeGreaterThanOrEqual(5);
    // Every line of each column has fewer than five words: the word count alone does not tell.
    expect(findBorderlessTables(lines)).toEqual([]);
  });

  it('still finds a borderless table of short aligned cells', () => {
    const rows = [
      ['Region', 'Visits', 'Share'],
      ['North', '1,204', '31%'],
      ['South', '986', '25%'],
      ['East', '1,310', '34%'],
      ['West', '402', '10%'],
    ];
    const lines: TableLineLike[] = rows.map((row, i) => ({
      y: 100 + i * 14,
      size: 10,
      excluded: false,
      segs: row.map((text, c) => ({ x0: 72 + c * 120, x1: 72 + c * 120 + text.length * 5, text })),
    }));
    const found = findBorderlessTables(lines);
    expect(found).toHaveLength(1);
    expect(found[0].rows).toEqual(rows);
  });
});

const TALL_TEXT =
  'The applicant declares that every statement made in this form is true and complete, and accepts that a false statement may lead to the refusal of the application.';
const LABELS = ['Family name', 'Given names', 'Date of birth', 'Place of birth', 'Nationality', 'Passport number', 'Address', 'Telephone'];

/** A ruled form: eight label rows on the left, one tall cell spanning all of them on the right. */
function formGrid(): { lines: PdfLine[]; rowTop: (i: number) => number; left: [number, number]; right: [number, number] } {
  const top = 700;
  const rowH = 22;
  const left: [number, number] = [72, 252];
  const right: [number, number] = [252, 540];
  const bottom = top - rowH * LABELS.length;
  const lines: PdfLine[] = [
    { x1: left[0], y1: top, x2: right[1], y2: top },
    { x1: left[0], y1: bottom, x2: right[1], y2: bottom },
    { x1: left[0], y1: top, x2: left[0], y2: bottom },
    { x1: left[1], y1: top, x2: left[1], y2: bottom },
    { x1: right[1], y1: top, x2: right[1], y2: bottom },
  ];
  // Rules between the label rows, on the left only.
  for (let i = 1; i < LABELS.length; i++) lines.push({ x1: left[0], y1: top - i * rowH, x2: left[1], y2: top - i * rowH });
  return { lines, rowTop: (i) => top - i * rowH, left, right };
}

function expectOneTallCell(markdown: string, document: QuarryDocument | undefined, text: string, labels: string[]) {
  const [table] = tables(document);
  expect(table, 'a table').toBeDefined();
  const tall = table.rows.flat().filter((cell) => cell.content.some((run) => run.type === 'text' && run.text.includes(text.slice(0, 20))));
  expect(tall).toHaveLength(1);
  expect(tall[0].row_span).toBe(labels.length);
  const body = table.rows.flat().map((cell) => cell.content.map((run) => (run.type === 'text' ? run.text : '')).join(''));
  for (const label of labels) expect(body).toContain(label);
  // Written once in the Markdown (and so once in the index and in search results).
  expect(markdown.split(text.slice(0, 20)).length - 1).toBe(1);
  const rows = markdown.split('\n').filter((l) => l.startsWith('|') && !/^\|( -+ \|)+$/.test(l));
  expect(rows).toHaveLength(labels.length);
}

describe('ruled tables with a cell spanning rows', () => {
  it('writes a tall right-hand cell once, spanning the eight label rows (English)', async () => {
    const grid = formGrid();
    const texts: PdfText[] = LABELS.map((label, i) => ({ x: grid.left[0] + 6, y: grid.rowTop(i) - 15, text: label, size: 10 }));
    const wrapped = wrapText(TALL_TEXT, grid.right[1] - grid.right[0] - 12, 10);
    wrapped.forEach((line, i) => texts.push({ x: grid.right[0] + 6, y: grid.rowTop(0) - 15 - i * 13, text: line, size: 10 }));
    const { markdown, document } = await extract('form-en.pdf', buildPdf([{ texts, lines: grid.lines }]));
    expectOneTallCell(markdown, document, TALL_TEXT, LABELS);
  });

  const FORMS = {
    hebrew: {
      labels: ['שם משפחה', 'שם פרטי', 'תאריך לידה', 'מקום לידה', 'אזרחות', 'מספר דרכון', 'כתובת', 'טלפון'],
      tall: ['המבקש מצהיר כי כל הפרטים', 'שמסר בטופס זה נכונים ומלאים'],
    },
    persian: {
      labels: ['نام خانوادگی', 'نام', 'تاریخ تولد', 'محل تولد', 'تابعیت', 'شماره گذرنامه', 'نشانی', 'تلفن'],
      tall: ['متقاضی گواهی میدهد که همه', 'اطلاعات این فرم درست و کامل است'],
    },
  };

  it.each(Object.keys(FORMS) as (keyof typeof FORMS)[])('writes a tall cell once in a right-to-left form (%s), with the columns starting from the right', async (script) => {
    const fonts = { regular: '/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf', bold: '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf' };
    const { labels, tall } = FORMS[script];
    // Right to left: the labels sit in the right-hand column, the tall cell on the left.
    const grid = formGrid();
    const texts: UnicodeText[] = labels.map((label, i) => ({ x: 534, y: grid.rowTop(i) - 15, text: label, alignRight: true }));
    tall.forEach((line, i) => texts.push({ x: 354, y: grid.rowTop(0) - 15 - i * 13, text: line, alignRight: true }));
    const mirrored = grid.lines.map((l) => ({ ...l, x1: 612 - l.x1, x2: 612 - l.x2 }));
    const { markdown, document } = await extract(`form-${script}.pdf`, buildUnicodePdf([texts], fonts, [mirrored]));
    expectOneTallCell(markdown, document, tall.join(' '), labels);
    // The first column is the labels' (the rightmost one).
    const [table] = tables(document);
    const first = table.rows[0][0].content.map((r) => (r.type === 'text' ? r.text : '')).join('');
    expect(first).toBe(labels[0]);
  });
});

describe('ruled tables with rules between columns only in the header', () => {
  const COUNTRIES = [
    ['Austria', '92.9', '7.1', '0', '5,821'],
    ['Belgium', '0', '0', '100.0', '5,906'],
    ['Czech Republic', '99.2', '0.8', '0', '24,137'],
    ['Denmark', '10.0', '12.1', '77.9', '3,868'],
    ['Estonia', '86.8', '13.2', '0', '114'],
    ['Finland', '19.2', '56.6', '24.2', '4,107'],
  ];
  const HEADER = ['Country', 'Domestic (%)', 'Imported (%)', 'Unknown (%)', 'Total (n)'];
  const COLUMNS = [72, 200, 290, 380, 470, 540];

  /**
   * A table boxed and ruled under every row, with column rules only in the header row (as
   * statistical reports set them), and a title row above spanning all columns.
   */
  function partlyRuled(): Uint8Array {
    const top = 700;
    const rowH = 18;
    const rows = [['Table 3: Cases by country of origin'], HEADER, ...COUNTRIES];
    const texts: PdfText[] = [];
    const lines: PdfLine[] = [];
    rows.forEach((cells, r) => {
      const y = top - r * rowH;
      lines.push({ x1: COLUMNS[0], y1: y, x2: COLUMNS[5], y2: y });
      if (r === 0) texts.push({ x: 230, y: y - 13, text: cells[0], size: 10, font: 'bold' });
      else cells.forEach((text, c) => texts.push({ x: COLUMNS[c] + 4, y: y - 13, text, size: 10, font: r === 1 ? 'bold' : 'regular' }));
    });
    const bottom = top - rows.length * rowH;
    lines.push({ x1: COLUMNS[0], y1: bottom, x2: COLUMNS[5], y2: bottom });
    lines.push({ x1: COLUMNS[0], y1: top, x2: COLUMNS[0], y2: bottom }, { x1: COLUMNS[5], y1: top, x2: COLUMNS[5], y2: bottom });
    // The header row's column rules.
    for (const x of COLUMNS.slice(1, 5)) lines.push({ x1: x, y1: top - rowH, x2: x, y2: top - 2 * rowH });
    return buildPdf([{ texts, lines }]);
  }

  it('reads each body row as its cells, one per column, and keeps the title row one spanning cell', async () => {
    const { markdown, document } = await extract('partly-ruled.pdf', partlyRuled());
    const [table] = tables(document);
    expect(table, markdown).toBeDefined();
    const text = (cell: { content: { type: string; text?: string }[] }) => cell.content.map((r) => r.text ?? '').join('');
    const body = table.rows.filter((row) => COUNTRIES.some((c) => text(row[0]) === c[0]));
    expect(body.map((row) => row.map(text))).toEqual(COUNTRIES);
    for (const row of body) for (const cell of row) expect(cell.col_span ?? 1).toBe(1);
    expect(table.rows.some((row) => row.length === 1 && text(row[0]) === 'Table 3: Cases by country of origin' && row[0].col_span === 5)).toBe(true);
    for (const c of COUNTRIES) expect(markdown).toContain(`| ${c.join(' | ')} |`);
  });
});

describe('a table cut in two on its page', () => {
  const BODY = [
    ['Austria', '86.2', '13.8', '0', '3,375'],
    ['Belgium', '0', '0', '100.0', '3,973'],
    ['Bulgaria', '0', '0', '100.0', '1,136'],
    ['Cyprus', '81.0', '3.8', '15.2', '158'],
    ['Denmark', '3.1', '10.2', '86.7', '1,662'],
    ['Estonia', '94.2', '5.8', '0', '430'],
  ];
  const TOTALS = [
    ['EU Total', '65.1', '7.9', '27.0', '151,292'],
    ['EU average', '54.0', '8.5', '38.1', '5,603'],
  ];
  const HEADER = ['Country', 'Domestic (%)', 'Imported (%)', 'Unknown (%)', 'Total (n)'];
  const COLUMNS = [72, 200, 290, 380, 470, 540];
  const text = (cell: { content: { type: string; text?: string }[] }) => cell.content.map((r) => r.text ?? '').join('');

  /**
   * A borderless table (no rules at all), then its total rows boxed in a ruled grid under it:
   * right under it, or after a paragraph.
   */
  function withBoxedTotals(between: string | null): Uint8Array {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Table 2. Cases by origin', size: 11, font: 'bold' }];
    const rowH = 16;
    [HEADER, ...BODY].forEach((cells, r) => cells.forEach((t, c) => texts.push({ x: COLUMNS[c] + 4, y: 710 - r * rowH, text: t, size: 10 })));
    let top = 710 - (BODY.length + 1) * rowH + 10;
    if (between) {
      const p = paragraph(between, { x: 72, y: top - 20, width: 460, size: 10 });
      texts.push(...p.texts);
      top = p.y - 10;
    }
    const lines: PdfLine[] = [0, 1, 2].map((k) => ({ x1: COLUMNS[0], y1: top - k * rowH, x2: COLUMNS[5], y2: top - k * rowH }));
    for (const x of COLUMNS) lines.push({ x1: x, y1: top, x2: x, y2: top - 2 * rowH });
    TOTALS.forEach((cells, r) => cells.forEach((t, c) => texts.push({ x: COLUMNS[c] + 4, y: top - 12 - r * rowH, text: t, size: 10, font: 'bold' })));
    texts.push(...paragraph('The totals count every reporting country, including those not listed above.', { x: 72, y: top - 3 * rowH - 20, width: 460, size: 10 }).texts);
    return buildPdf([{ texts, lines }]);
  }

  it('joins boxed total rows to the table right above them, with as many columns', async () => {
    const { markdown, document } = await extract('boxed-totals.pdf', withBoxedTotals(null));
    const found = tables(document);
    expect(found, markdown).toHaveLength(1);
    expect(found[0].rows.map((row) => row.map(text))).toEqual([HEADER, ...BODY, ...TOTALS]);
    expect(markdown).toContain(`| ${BODY[BODY.length - 1].join(' | ')} |\n| ${TOTALS[0].join(' | ')} |`);
  });

  it('keeps the two tables apart when text stands between them', async () => {
    const { markdown, document } = await extract('boxed-totals-apart.pdf', withBoxedTotals('Totals for the whole Union follow, for every reporting country together.'));
    const found = tables(document);
    expect(found, markdown).toHaveLength(2);
    expect(found[1].rows.map((row) => row.map(text))).toEqual(TOTALS);
  });
});

describe('header cells wrapped over several lines', () => {
  const COLS = [72, 200, 300, 400];
  const HEAD = [
    ['', 'Population', 'GNP', 'Life'],
    ['Country', '(million)', 'per capita', 'expectancy'],
    ['', '1995', '($000)', '(years)'],
  ];
  const BODY = [
    ['Austria', '8.0', '26.9', '76.5'],
    ['Belgium', '10.1', '24.7', '76.8'],
    ['Denmark', '5.2', '29.9', '75.2'],
    ['Finland', '5.1', '20.6', '76.4'],
    ['France', '58.1', '24.9', '78.1'],
  ];
  const text = (cell: { content: { type: string; text?: string }[] }) => cell.content.map((r) => r.text ?? '').join('');

  /** A borderless table whose header cells wrap over three lines, then its rows of values; optionally a section label row after the first two. */
  function wrappedHeader(section: string | null): Uint8Array {
    const texts: PdfText[] = [{ x: 72, y: 740, text: 'Table 1. Basic indicators', size: 11, font: 'bold' }];
    let y = 710;
    for (const row of HEAD) {
      row.forEach((t, c) => t && texts.push({ x: COLS[c], y, text: t, size: 10, font: 'bold' }));
      y -= 11;
    }
    y -= 6;
    BODY.forEach((row, i) => {
      if (section && i === 2) {
        texts.push({ x: COLS[0], y, text: section, size: 10, font: 'bold' });
        y -= 16;
      }
      row.forEach((t, c) => texts.push({ x: COLS[c], y, text: t, size: 10 }));
      y -= 16;
    });
    return buildPdf([{ texts }]);
  }

  it('makes one header row of them, each column its cell', async () => {
    const { markdown, document } = await extract('wrapped-header.pdf', wrappedHeader(null));
    const [table] = tables(document);
    expect(table, markdown).toBeDefined();
    expect(table.rows.map((row) => row.map(text))).toEqual([
      ['Country', 'Population (million) 1995', 'GNP per capita ($000)', 'Life expectancy (years)'],
      ...BODY,
    ]);
    expect(markdown).toContain('| Country | Population (million) 1995 | GNP per capita ($000) | Life expectancy (years) |\n| --- | --- | --- | --- |\n| Austria |');
  });

  it('leaves the rows below the header as they are: a section label stays a row of its own', async () => {
    const { markdown, document } = await extract('wrapped-header-section.pdf', wrappedHeader('Northern Europe'));
    const [table] = tables(document);
    expect(table, markdown).toBeDefined();
    expect(table.rows.map((row) => row.map(text))).toEqual([
      ['Country', 'Population (million) 1995', 'GNP per capita ($000)', 'Life expectancy (years)'],
      ...BODY.slice(0, 2),
      ['Northern Europe', '', '', ''],
      ...BODY.slice(2),
    ]);
  });
});
