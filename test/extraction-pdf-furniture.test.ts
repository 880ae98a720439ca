/**
 * Page furniture of generated PDFs whose truth is known because the test wrote them: running
 * headers, footers and page numbers leave the Markdown, the chunks and the content and are kept in
 * each page section's `furniture`, on documents of one to four pages; titles and section headings
 * near the top of a page stay in the text.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { blockSchema } from '@/lib/api/schemas/documents';
import { chunkMarkdown } from '@/lib/chunking';
import { extractPdf } from '@/lib/extraction/engine';
import type { Block, Inline, Section } from '@/lib/document/types';
import { buildPdf, paragraph, type PdfText } from '@/test/support/pdf-fixture';
import { extractInput, PDF_TYPE } from '@/test/support/extract-input';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-furniture-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

async function extract(name: string, bytes: Uint8Array) {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, bytes);
  const result = await extractPdf(extractInput(file, PDF_TYPE, tmp, { mode: 'simple' }), null);
  const sections = (result.document?.blocks ?? []).filter((b): b is Section => b.type === 'section');
  return { ...result, sections };
}

function inlineText(content: readonly Inline[]): string {
  return content.map((r) => (r.type === 'text' ? r.text : ' ')).join('').replace(/\s+/g, ' ').trim();
}

function furnitureOf(section: Section): string[] {
  return (section.furniture ?? []).map((p) => inlineText(p.content));
}

function contentText(blocks: readonly Block[]): string {
  return blocks
    .map((b) => {
      if (b.type === 'section' || b.type === 'quote') return contentText(b.content);
      if (b.type === 'heading' || b.type === 'paragraph') return inlineText(b.content);
      if (b.type === 'list') return b.items.map((i) => contentText(i.content)).join(' ');
      return '';
    })
    .join(' ');
}

const SENTENCE =
  'The inspection covered the storage rooms, the loading bays and the main workshop, and the findings were discussed with the team leads before this report was written.';

/** Body text of a page: three paragraphs, each ending with a sentence naming it. */
function body(page: number, top = 700, opts: { heading?: string } = {}): PdfText[] {
  const texts: PdfText[] = [];
  let y = top;
  if (opts.heading) {
    texts.push({ x: 72, y, text: opts.heading, size: 12, font: 'bold' });
    y -= 24;
  }
  for (let k = 1; k <= 3; k++) {
    const p = paragraph(`${SENTENCE} End of paragraph ${k} on page ${page}.`, { x: 72, y, width: 468, size: 10 });
    texts.push(...p.texts);
    y = p.y;
  }
  return texts;
}

function expectBodyIntact(markdown: string, pages: number) {
  for (let p = 1; p <= pages; p++) for (let k = 1; k <= 3; k++) expect(markdown).toContain(`End of paragraph ${k} on page ${p}.`);
}

describe('running headers and footers of short documents', () => {
  it('keeps a three-page running header and "Page N of 3" footer in each page section, not in the text', async () => {
    const header = 'Quarry Labs - Annual safety review';
    const pages = [1, 2, 3].map((p) => ({
      texts: [{ x: 72, y: 760, text: header, size: 9 }, ...body(p), { x: 500, y: 36, text: `Page ${p} of 3`, size: 9 }],
    }));
    const { markdown, document, sections } = await extract('three-pages.pdf', buildPdf(pages));
    expect(markdown).not.toContain(header);
    expect(markdown).not.toMatch(/Page \d of 3/);
    expectBodyIntact(markdown, 3);
    expect(sections.map(furnitureOf)).toEqual([1, 2, 3].map((p) => [header, `Page ${p} of 3`]));
    expect(contentText(document!.blocks)).not.toContain(header);
    // Served like content: a page and a region, no source lines, no place in the Markdown.
    for (const s of sections) {
      for (const f of s.furniture!) {
        expect(f.prov?.page).toBe(s.page);
        expect(f.prov?.bbox).toHaveLength(4);
        expect(f.prov).not.toHaveProperty('lines');
        expect(f.prov).not.toHaveProperty('span');
      }
      expect(blockSchema.safeParse(s).success).toBe(true);
    }
    // The header sits at the top of the page, the footer at the bottom.
    expect(sections[0].furniture![0].prov!.bbox![1]).toBeLessThan(0.1);
    expect(sections[0].furniture![1].prov!.bbox![3]).toBeGreaterThan(0.9);
    const chunks = await chunkMarkdown(markdown, { type: 'paragraph', chunk_size: 64, overlap: 0 }, { document });
    expect(chunks.length).toBeGreaterThan(1);
    for (const c of chunks) {
      expect(c.content).not.toContain(header);
      expect(c.content).not.toMatch(/Page \d of 3/);
    }
  });

  it('keeps a two-page header and a footer whose revision and date change', async () => {
    const header = 'Internal memo: warehouse operations';
    const downloaded = 'Downloaded from https://reports.example.org/memo/17 on 12 March 2020';
    const pages = [1, 2].map((p) => ({
      texts: [
        { x: 72, y: 760, text: header, size: 9 },
        ...body(p),
        { x: 72, y: 44, text: `Rev. ${p + 3} - 2021-03-0${p}`, size: 8 },
        { x: 72, y: 34, text: downloaded, size: 8 },
      ],
    }));
    const { markdown, sections } = await extract('two-pages.pdf', buildPdf(pages));
    expect(markdown).not.toContain(header);
    expect(markdown).not.toContain('Downloaded from');
    expect(markdown).not.toContain('Rev.');
    expectBodyIntact(markdown, 2);
    expect(sections.map(furnitureOf)).toEqual([1, 2].map((p) => [header, `Rev. ${p + 3} - 2021-03-0${p}`, downloaded]));
  });

  it('keeps a header that starts on the second of three pages, under a title page', async () => {
    const header = 'Warehouse inspection 2021: findings';
    const pages = [1, 2, 3].map((p) => ({
      texts: p === 1 ? [{ x: 72, y: 740, text: 'Warehouse inspection', size: 20, font: 'bold' as const }, ...body(p, 690)] : [{ x: 72, y: 760, text: header, size: 9 }, ...body(p)],
    }));
    const { markdown, sections } = await extract('title-page.pdf', buildPdf(pages));
    expect(markdown).not.toContain(header);
    expect(markdown).toContain('Warehouse inspection');
    expectBodyIntact(markdown, 3);
    expect(sections.map(furnitureOf)).toEqual([[], [header], [header]]);
  });

  it('keeps a footer whose day changes from page to page', async () => {
    const days = ['Monday 1 March 2021', 'Tuesday 2 March 2021', 'Wednesday 3 March 2021'];
    const footer = (p: number) => `Site inspection log of the Leeds warehouse, ${days[p - 1]}`;
    const pages = [1, 2, 3].map((p) => ({ texts: [...body(p), { x: 72, y: 36, text: footer(p), size: 8 }] }));
    const { markdown, sections } = await extract('changing-footer.pdf', buildPdf(pages));
    expect(markdown).not.toContain('Site inspection log');
    expectBodyIntact(markdown, 3);
    expect(sections.map(furnitureOf)).toEqual([1, 2, 3].map((p) => [footer(p)]));
  });

  it('keeps headers that alternate between odd and even pages', async () => {
    const odd = 'Quarry Labs Annual Report 2021';
    const even = 'Part Two: Operations and Safety';
    const alternating = (count: number) =>
      Array.from({ length: count }, (_, i) => {
        const p = i + 1;
        const head: PdfText = p % 2 ? { x: 72, y: 760, text: odd, size: 9 } : { x: 380, y: 760, text: even, size: 9 };
        return { texts: [head, ...body(p), { x: 300, y: 36, text: String(p), size: 9 }] };
      });
    for (const count of [4, 3]) {
      const { markdown, sections } = await extract(`alternating-${count}.pdf`, buildPdf(alternating(count)));
      expect(markdown).not.toContain(odd);
      expect(markdown).not.toContain(even);
      expectBodyIntact(markdown, count);
      expect(sections.map(furnitureOf)).toEqual(sections.map((_, i) => [(i + 1) % 2 ? odd : even, String(i + 1)]));
    }
  });
});

describe('text near the top of a page that is not furniture', () => {
  it("keeps a one-page document's title and margin note; only its page number is furniture", async () => {
    const texts: PdfText[] = [
      { x: 72, y: 770, text: 'Draft for comment', size: 9 },
      { x: 72, y: 730, text: 'Warehouse inspection report', size: 18, font: 'bold' },
      ...body(1, 690),
      { x: 300, y: 36, text: '1', size: 9 },
    ];
    const { markdown, sections } = await extract('one-page.pdf', buildPdf([{ texts }]));
    expect(markdown).toContain('Warehouse inspection report');
    expect(markdown).toContain('Draft for comment');
    expectBodyIntact(markdown, 1);
    expect(sections.map(furnitureOf)).toEqual([['1']]);
  });

  it('keeps different section headings at the top of the pages of a three-page document', async () => {
    const headings = ['Introduction', 'Methods of inspection', 'Results'];
    const pages = headings.map((heading, i) => ({
      texts: [...body(i + 1, 760, { heading }), { x: 300, y: 36, text: `- ${i + 1} -`, size: 9 }],
    }));
    const { markdown, sections } = await extract('headings-on-top.pdf', buildPdf(pages));
    for (const h of headings) expect(markdown).toContain(h);
    expectBodyIntact(markdown, 3);
    expect(sections.map(furnitureOf)).toEqual([['- 1 -'], ['- 2 -'], ['- 3 -']]);
  });

  it('keeps a margin line that repeats on only two pages of a three-page document', async () => {
    const note = 'Continued from the previous section';
    const pages = [1, 2, 3].map((p) => ({
      texts: [...(p < 3 ? [{ x: 72, y: 760, text: note, size: 9 }] : []), ...body(p)],
    }));
    const { markdown, sections } = await extract('two-of-three.pdf', buildPdf(pages));
    expect(markdown.split(note)).toHaveLength(3);
    expectBodyIntact(markdown, 3);
    expect(sections.every((s) => s.furniture === undefined)).toBe(true);
  });
});
