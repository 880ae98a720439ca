/**
 * The served document model's schema (lib/api/schemas/documents.ts) against real models: fixture
 * documents run through the extractors, whose `result.document` it must accept as they are (no
 * field dropped), and malformed models it must refuse.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { blockSchema, extractionDocumentSchema, quarryDocumentSchema } from '@/lib/api/schemas/documents';
import type { Block, QuarryDocument } from '@/lib/document/types';
import { extractImage, extractPdf } from '@/lib/extraction/engine';
import { createOcrService } from '@/lib/extraction/ocr';
import type { ExtractInput, ExtractionMode } from '@/lib/extraction/types';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { buildStructuredReport } from '@/test/support/pdf-report-fixture';

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-document-schema-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

function input(file: string, mimeType: string, mode: ExtractionMode): ExtractInput {
  return {
    path: file,
    mimeType,
    extension: path.extname(file),
    mode,
    options: { ocr_provider: 'default', extract_tables: true, preserve_layout: false },
    onProgress: () => undefined,
    signal: new AbortController().signal,
    maxPages: 100,
    tmpDir: tmp,
  };
}

/** Every block of the model, nested ones included. */
function allBlocks(blocks: Block[]): Block[] {
  return blocks.flatMap((b) => {
    const children =
      b.type === 'list' ? b.items.flatMap((i) => i.content) : b.type === 'quote' || b.type === 'footnote' || b.type === 'section' ? b.content : [];
    return [b, ...allBlocks(children)];
  });
}

/** Parses with the schema and checks that nothing of the model was left out (an undocumented field). */
function accepts(document: QuarryDocument | undefined): QuarryDocument {
  expect(document).toBeDefined();
  const plain = JSON.parse(JSON.stringify(document));
  const parsed = quarryDocumentSchema.safeParse(plain);
  expect(parsed.error?.issues ?? []).toEqual([]);
  expect(parsed.data).toStrictEqual(plain);
  const served = extractionDocumentSchema.safeParse({ extraction_id: 'ext_01jd0000000000000000000000', ...plain });
  expect(served.success).toBe(true);
  return plain;
}

describe('the document model schema accepts real models', () => {
  it('a PDF with code, formulas and two pages', async () => {
    const result = await extractPdf(input(path.join(FIXTURES_DIR, 'pdf/code_and_formula.pdf'), 'application/pdf', 'simple'), null);
    const doc = accepts(result.document);
    const pages = doc.blocks.filter((b) => b.type === 'section' && b.kind === 'page');
    expect(pages.map((p) => (p.type === 'section' ? p.page : null))).toEqual([1, 2]);
    const types = new Set(allBlocks(doc.blocks).map((b) => b.type));
    expect(types).toContain('paragraph');
    expect(types).toContain('code');
    // The served model gives boxes, never the source lines.
    expect(JSON.stringify(doc)).not.toContain('"lines"');
    expect(allBlocks(doc.blocks).some((b) => b.prov?.bbox !== undefined)).toBe(true);
  });

  it('a generated report with ruled, booktabs and borderless tables (spanning header cells)', async () => {
    const file = path.join(tmp, 'report.pdf');
    fs.writeFileSync(file, buildStructuredReport().pdf);
    const result = await extractPdf(input(file, 'application/pdf', 'simple'), null);
    const doc = accepts(result.document);
    const blocks = allBlocks(doc.blocks);
    const tables = blocks.filter((b) => b.type === 'table');
    expect(tables.length).toBeGreaterThanOrEqual(2);
    expect(blocks.some((b) => b.type === 'heading' && b.level >= 2)).toBe(true);
  });

  it('an image read by OCR', async () => {
    const ocr = createOcrService({ ocr_provider: 'default', extract_tables: true, preserve_layout: false }, tmp);
    try {
      const result = await extractImage(input(path.join(FIXTURES_DIR, 'ocr/phototest.tif'), 'image/tiff', 'normal'), ocr);
      const doc = accepts(result.document);
      const page = doc.blocks.find((b) => b.type === 'section');
      expect(page).toMatchObject({ type: 'section', kind: 'page', page: 1 });
      expect(JSON.stringify(doc)).toContain('quick brown');
    } finally {
      await ocr.close();
    }
  }, 60_000);
});

describe('the document model schema refuses malformed models', () => {
  const paragraph = { type: 'paragraph', content: [{ type: 'text', text: 'Hello' }] };
  const ok = { version: 1, metadata: {}, blocks: [paragraph] };

  it('accepts a small well-formed model with nesting and spans', () => {
    const model = {
      version: 1,
      metadata: { title: 'T', language: 'en' },
      blocks: [
        {
          type: 'section',
          kind: 'page',
          page: 1,
          width: 612,
          height: 792,
          content: [
            { type: 'heading', level: 2, content: [{ type: 'text', text: 'Scope', bold: true }], prov: { page: 1, bbox: [0.1, 0.1, 0.5, 0.12] } },
            { type: 'list', ordered: true, start: 3, items: [{ content: [paragraph], number: 3 }, { content: [{ type: 'list', ordered: false, items: [{ content: [paragraph], checked: true }] }] }] },
            { type: 'table', header_rows: 1, rows: [[{ content: [], col_span: 2 }], [{ content: [], row_span: 2 }, { content: [] }], [{ content: [] }]] },
            { type: 'quote', content: [{ type: 'footnote', label: '1', content: [paragraph] }] },
            { type: 'rule' },
            { type: 'paragraph', content: [{ type: 'math', latex: 'x^2' }, { type: 'break' }, { type: 'footnote_ref', label: '1' }] },
          ],
        },
      ],
    };
    expect(quarryDocumentSchema.safeParse(model).success).toBe(true);
    expect(quarryDocumentSchema.safeParse(ok).success).toBe(true);
  });

  const bad: [string, unknown][] = [
    ['no version', { metadata: {}, blocks: [] }],
    ['another version', { ...ok, version: 2 }],
    ['blocks not a list', { ...ok, blocks: {} }],
    ['an unknown block type', { ...ok, blocks: [{ type: 'banner', content: [] }] }],
    ['a heading of level 7', { ...ok, blocks: [{ type: 'heading', level: 7, content: [] }] }],
    ['a paragraph without content', { ...ok, blocks: [{ type: 'paragraph' }] }],
    ['an inline of unknown type', { ...ok, blocks: [{ type: 'paragraph', content: [{ type: 'emoji', text: ':)' }] }] }],
    ['a text run without text', { ...ok, blocks: [{ type: 'paragraph', content: [{ type: 'text' }] }] }],
    ['a box of three numbers', { ...ok, blocks: [{ ...paragraph, prov: { bbox: [0, 0, 1] } }] }],
    ['a box outside the page', { ...ok, blocks: [{ ...paragraph, prov: { bbox: [0, 0, 1.5, 1] } }] }],
    ['page 0', { ...ok, blocks: [{ ...paragraph, prov: { page: 0 } }] }],
    ['a cell spanning no columns', { ...ok, blocks: [{ type: 'table', header_rows: 0, rows: [[{ content: [], col_span: 0 }]] }] }],
    ['a table without header_rows', { ...ok, blocks: [{ type: 'table', rows: [] }] }],
    ['a section of unknown kind', { ...ok, blocks: [{ type: 'section', kind: 'chapterette', content: [] }] }],
    // Deep inside: a list item's nested paragraph.
    ['a malformed block nested in a list', { ...ok, blocks: [{ type: 'list', ordered: false, items: [{ content: [{ type: 'paragraph', content: 'text' }] }] }] }],
  ];
  for (const [what, model] of bad) {
    it(`refuses ${what}`, () => {
      expect(quarryDocumentSchema.safeParse(model).success).toBe(false);
    });
  }

  it('refuses a block that is not one of the model', () => {
    expect(blockSchema.safeParse({ type: 'code' }).success).toBe(false);
    expect(blockSchema.safeParse({ type: 'code', text: 'x = 1', language: 'python' }).success).toBe(true);
  });
});
