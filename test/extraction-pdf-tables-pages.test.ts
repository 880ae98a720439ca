/**
 * Tables continued on the next page, in generated PDFs whose structure the test wrote: joined into
 * one table whose rows keep their own pages (row_prov, the layout record, chunk pages), or kept
 * apart with `merge_tables: false`; tables that only happen to end and start pages stay apart.
 */
import { describe, expect, it } from 'vitest';
import { chunkMarkdown } from '@/lib/chunking';
import type { QuarryDocument, Section, Table } from '@/lib/document/types';
import { buildPdf } from '@/test/support/pdf-fixture';
import { COLUMNS, HEADER, PITCH, range, row, shipments, shipmentsPage } from '@/test/support/pdf-table-pages';
import { documentTables, pdfExtractor } from '@/test/support/pdf-extract';

const extract = pdfExtractor('quarry-tables-pages-');
const tables = documentTables;

function cellText(t: Table): string[][] {
  return t.rows.map((row) => row.map((c) => c.content.map((r) => (r.type === 'text' ? r.text : '')).join('')));
}

function pageSection(doc: QuarryDocument | undefined, page: number): Section {
  return (doc?.blocks ?? []).find((b): b is Section => b.type === 'section' && b.page === page)!;
}

describe('a table continued on the next page', () => {
  it('is one table whose rows cite their own pages, the repeated header dropped', async () => {
    const pdf = shipments({ parts: [range(0, 30), range(30, 40)], repeatHeader: true, after: 'All figures are before tax.' });
    const { markdown, document, layout } = await extract('joined.pdf', pdf);
    const found = tables(document);
    expect(found).toHaveLength(1);
    const [table] = found;
    expect(cellText(table)).toEqual([HEADER, ...range(0, 40).map(row)]);
    // The table is written once, on its first page; page 2 goes on with what follows it.
    expect(markdown.match(/^\|( --- \|)+$/gm)).toHaveLength(1);
    expect(pageSection(document, 1).content.some((b) => b.type === 'table')).toBe(true);
    expect(pageSection(document, 2).content.map((b) => b.type)).toEqual(['paragraph']);
    // Each row keeps its page and its own region there.
    const pages = table.row_prov!.map((r) => r.page);
    expect(pages).toEqual([...Array(31).fill(1), ...Array(10).fill(2)]);
    for (const r of table.row_prov!) expect(r.bbox).toHaveLength(4);
    const onPage2 = table.row_prov!.slice(31).map((r) => r.bbox![1]);
    // Page 2's rows start at the top of their page, in order.
    expect(onPage2[0]).toBeLessThan(0.2);
    expect([...onPage2].sort((a, b) => a - b)).toEqual(onPage2);
    // The table's own region is on its first page only.
    expect(table.prov!.page).toBe(1);
    expect(table.prov!.bbox![3]).toBeLessThan(1);
    // The layout record places page 2's rows on page 2.
    const page2 = layout!.pages.find((p) => p.page === 2)!;
    const lastRow = row(39).join(' | ');
    const at = markdown.indexOf(lastRow);
    expect(at).toBeGreaterThan(0);
    expect(page2.blocks.flat().some(([start, end]) => start <= at && end > at)).toBe(true);
    // A chunk of page 2's rows cites page 2; one over both pages says so.
    const chunks = await chunkMarkdown(markdown, { type: 'paragraph', chunk_size: 120, overlap: 0 }, { document, layout });
    const last = chunks.find((c) => c.content.includes(lastRow))!;
    expect(last.metadata.page).toBe(2);
    expect(last.metadata.boxes!.every((b) => b.page === 2)).toBe(true);
    const first = chunks.find((c) => c.content.includes(row(0).join(' | ')))!;
    expect(first.metadata.page).toBe(1);
    const whole = await chunkMarkdown(markdown, { type: 'paragraph', chunk_size: 2000, overlap: 0 }, { document, layout });
    const all = whole.find((c) => c.content.includes(lastRow) && c.content.includes(row(0).join(' | ')))!;
    expect(all.metadata.page).toBe(1);
    expect(all.metadata.page_end).toBe(2);
  });

  it('keeps each page its own part with merge_tables: false', async () => {
    const pdf = shipments({ parts: [range(0, 30), range(30, 40)], repeatHeader: true, after: 'All figures are before tax.' });
    const { document } = await extract('apart.pdf', pdf, { merge_tables: false });
    const found = tables(document);
    expect(found.map(cellText)).toEqual([
      [HEADER, ...range(0, 30).map(row)],
      [HEADER, ...range(30, 40).map(row)],
    ]);
    expect(found.map((t) => t.prov?.page)).toEqual([1, 2]);
    expect(found[1].row_prov!.every((r) => r.page === 2)).toBe(true);
  });

  it('joins a part without a repeated header, and a table over three pages', async () => {
    const pdf = shipments({ parts: [range(0, 30), range(30, 68), range(68, 75)] });
    const { document } = await extract('three.pdf', pdf);
    const found = tables(document);
    expect(found).toHaveLength(1);
    expect(cellText(found[0])).toEqual([HEADER, ...range(0, 75).map(row)]);
    const pages = found[0].row_prov!.map((r) => r.page);
    expect(pages).toEqual([...Array(31).fill(1), ...Array(38).fill(2), ...Array(7).fill(3)]);
  });

  it('joins across a line saying the table goes on, which stays on its page', async () => {
    const pdf = shipments({ parts: [range(0, 30), range(30, 36)], repeatHeader: true, note: 'Table 1 (continued)', after: 'All figures are before tax.' });
    const { document, markdown } = await extract('note.pdf', pdf);
    expect(tables(document).map(cellText)).toEqual([[HEADER, ...range(0, 36).map(row)]]);
    expect(markdown).toContain('Table 1 (continued)');
    expect(pageSection(document, 2).content.map((b) => b.type)).toEqual(['paragraph', 'paragraph']);
  });

  it('joins a ruled table continued on the next page', async () => {
    const pdf = shipments({ parts: [range(0, 30), range(30, 36)], repeatHeader: true, ruled: true, after: 'All figures are before tax.' });
    const { document, layout } = await extract('ruled.pdf', pdf);
    const found = tables(document);
    expect(found).toHaveLength(1);
    expect(cellText(found[0])).toEqual([HEADER, ...range(0, 36).map(row)]);
    expect(found[0].row_prov!.map((r) => r.page)).toEqual([...Array(31).fill(1), ...Array(6).fill(2)]);
    expect(layout!.pages.map((p) => p.page)).toContain(2);
  });

  it('keeps apart tables of different columns, and a table that ends high on its page', async () => {
    const other = shipments({ parts: [range(0, 30), range(30, 36)], repeatHeader: true, laterHeader: ['Depot', 'Item', 'Count', 'Value'] });
    // Same columns, but the next page's table opens with a header of its own: another table.
    const short = shipments({ parts: [range(0, 5), range(5, 12)], repeatHeader: true });
    const narrow = buildPdf([
      { texts: shipmentsPage(range(0, 30)) },
      { texts: [HEADER.slice(0, 3), ...range(30, 36).map((i) => row(i).slice(0, 3))].flatMap((cells, r) => cells.map((text, k) => ({ x: COLUMNS[k], y: 740 - r * PITCH, text, size: 10 }))) },
    ]);
    const shortDoc = (await extract('short.pdf', short)).document;
    expect(tables(shortDoc)).toHaveLength(2);
    const narrowDoc = (await extract('narrow.pdf', narrow)).document;
    expect(tables(narrowDoc).map((t) => t.prov?.page)).toEqual([1, 2]);
    const otherDoc = (await extract('other.pdf', other)).document;
    expect(tables(otherDoc).map((t) => cellText(t)[0])).toEqual([HEADER, ['Depot', 'Item', 'Count', 'Value']]);
  });
});
