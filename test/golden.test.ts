/**
 * Golden files of Quarry's own output (test/golden): every golden document (fixtures and the
 * generated PDFs, see test/support/golden-corpus.ts) is extracted once, in parallel, in extraction
 * workers as the server runs them, and each document's Markdown, summary JSON and document model
 * (or its error) must equal its golden files. A change to any rule that shapes the output then
 * shows as a reviewable diff of what it does to every document: run `UPDATE_GOLDEN=1 npm run
 * test:golden` and review `git diff test/golden`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TABLE_LIMITS } from '@/lib/document/settings';
import { tableGrid } from '@/lib/document/table-grid';
import type { Block, QuarryDocument, Table, TableCell } from '@/lib/document/types';
import { goldenCorpus, skipReason } from '@/test/support/golden-corpus';
import {
  checkGolden,
  describeDifference,
  orphanGoldenFiles,
  removeOrphanGoldenFiles,
  runGoldenCorpus,
  stableJson,
  UPDATE_HINT,
  writeGolden,
  type GoldenOutcome,
} from '@/test/support/golden-run';

const UPDATE = process.env.UPDATE_GOLDEN === '1';

function tablesOf(blocks: readonly Block[]): Table[] {
  return blocks.flatMap((b): Table[] => {
    if (b.type === 'table') return [b];
    if (b.type === 'section' || b.type === 'quote' || b.type === 'footnote') return tablesOf(b.content);
    if (b.type === 'list') return b.items.flatMap((item) => tablesOf(item.content));
    return [];
  });
}

/** Two words or more of two letters or more ("Revenue (M EUR)", not "24" or "{R {L"). */
function isPhrase(text: string): boolean {
  return (text.match(/\p{L}{2,}/gu) ?? []).length >= 2;
}

function cellText(cell: TableCell | null): string {
  return (cell?.content ?? []).map((run) => (run.type === 'text' ? run.text : '')).join('').trim();
}
/**
 * The whole corpus (a 619-page and a 400-page PDF, an 872-page DOCX, OCR of images and scans)
 * took 25-40 s on two cores, 40 s on one. The limit is above the server's 600 s per document, so
 * a document that hangs ends as its EXTRACTION_TIMEOUT golden difference, not as a hook timeout.
 */
const RUN_TIMEOUT_MS = 15 * 60_000;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-golden-'));
const corpus = goldenCorpus(tmp);
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('golden output of every document', () => {
  let outcomes: Map<string, GoldenOutcome>;
  beforeAll(async () => {
    const started = performance.now();
    outcomes = await runGoldenCorpus(corpus);
    console.log(`golden: ${corpus.length} documents extracted in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }, RUN_TIMEOUT_MS);

  for (const doc of corpus) {
    it(doc.name, (ctx) => {
      const outcome = outcomes.get(doc.name)!;
      if (outcome.kind === 'skipped') return ctx.skip(`cannot be read on this machine: ${outcome.reason}`);
      if (UPDATE) return writeGolden(doc.name, outcome);
      const problems = checkGolden(doc.name, outcome);
      if (problems.length) expect.fail(problems.join('\n\n'));
    });
  }

  // Numbers and single words repeat in real tables (the 400-page report's record layouts print the
  // same line number on every row of a field); a phrase repeated down a whole column is a spanning
  // cell written into every row it covers.
  it('repeats no phrase down a whole column or across a whole row of a table', () => {
    const repeats: string[] = [];
    for (const [name, outcome] of outcomes) {
      if (outcome.kind !== 'extracted' || !outcome.document) continue;
      for (const table of tablesOf((outcome.document as QuarryDocument).blocks)) {
        const { rows, width } = tableGrid(table, TABLE_LIMITS);
        if (rows.length <= 2) continue;
        for (let c = 0; c < width; c++) {
          const texts = rows.map((row) => cellText(row[c]));
          if (isPhrase(texts[0]) && texts.every((t) => t === texts[0])) repeats.push(`${name}: "${texts[0].slice(0, 60)}" in all ${rows.length} rows of column ${c + 1}`);
        }
        // Nor across a whole row of more than two columns (a spanning header written in every column).
        if (width > 2) {
          rows.forEach((row, r) => {
            const texts = row.map(cellText);
            if (isPhrase(texts[0]) && texts.every((t) => t === texts[0])) repeats.push(`${name}: "${texts[0].slice(0, 60)}" in all ${width} columns of row ${r + 1}`);
          });
        }
      }
    }
    expect(repeats).toEqual([]);
  });

  it('has no golden files of documents that left the corpus', () => {
    const orphans = orphanGoldenFiles(new Set(corpus.map((d) => d.name)));
    if (UPDATE) return removeOrphanGoldenFiles(orphans);
    if (orphans.length) expect.fail(`Golden files of no document in the corpus:\n${orphans.join('\n')}\nRun ${UPDATE_HINT} to remove them`);
  });
});

describe('the golden corpus', () => {
  it('keeps documents and skips the references beside them', () => {
    const names = corpus.map((d) => d.name);
    expect(names).toContain('pdf/ocr_test.pdf');
    expect(names).toContain('formats/same-content/eng_spa_mult.md');
    expect(names).toContain('bad/jo.pdf');
    expect(names).toContain('generated/report.pdf');
    for (const reference of ['pdf/ocr_test.md', 'pdf/ocr_test.docling.json', 'ocr/phototest.txt', 'ocr/webp-test.md', 'LICENSES.md']) expect(names).not.toContain(reference);
    expect(names.some((n) => n.startsWith('retrieval/') || /-(reg|str)\.xml$/.test(n))).toBe(false);
    expect(skipReason('docx/notes.md', ['notes.md'])).toBeNull(); // no document beside it: kept
  });
});

describe('stableJson', () => {
  it('orders keys (leading ones first), indents by one space and keeps number arrays on one line', () => {
    const value = { z: 1, document: { type: 'doc', bbox: [0.1, 0.25, 1, 0], content: [{ text: 'a', type: 'text' }], empty: [], none: {} }, total_pages: 2, skip: undefined };
    expect(stableJson(value, ['total_pages', 'document', 'type'])).toBe(
      [
        '{',
        ' "total_pages": 2,',
        ' "document": {',
        '  "type": "doc",',
        '  "bbox": [0.1, 0.25, 1, 0],',
        '  "content": [',
        '   {',
        '    "type": "text",',
        '    "text": "a"',
        '   }',
        '  ],',
        '  "empty": [],',
        '  "none": {}',
        ' },',
        ' "z": 1',
        '}',
      ].join('\n'),
    );
  });

  it('gives the same text whatever order the keys were set in, and parses back to the value', () => {
    const a = { b: [1, 'x', [2, 3]], a: { d: null, c: 'é"\n' } };
    const b = { a: { c: 'é"\n', d: null }, b: [1, 'x', [2, 3]] };
    expect(stableJson(a)).toBe(stableJson(b));
    expect(JSON.parse(stableJson(a))).toEqual(a);
    expect(stableJson({ when: new Date(Date.UTC(2024, 0, 2)), n: Number.NaN })).toBe('{\n "n": null,\n "when": "2024-01-02T00:00:00.000Z"\n}');
  });
});

describe('a golden difference fails the test', () => {
  const golden = ['# Title', '', 'One.', 'Two.', 'Three.', 'Four.', 'Five.', ''].join('\n');

  it('names the file, the first differing line in each and shows the lines around', () => {
    const changed = golden.replace('Four.', 'Four!');
    const message = describeDifference('test/golden/x.pdf.md', golden, changed)!;
    expect(message).toContain('test/golden/x.pdf.md differs from the extracted output: line 6 of the golden file, line 6 of the output');
    expect(message).toContain('@@ -6,1 +6,1 @@\n  One.\n  Two.\n  Three.\n- Four.\n+ Four!\n  Five.\n');
    expect(message).toContain(UPDATE_HINT);
    expect(describeDifference('x', golden, golden)).toBeNull();
    const inserted = describeDifference('x', golden, golden.replace('Two.\n', 'Two.\nNew.\nNewer.\n'))!;
    expect(inserted).toContain('line 5 of the golden file, lines 5–6 of the output');
    expect(inserted).toContain('@@ -4,0 +5,2 @@\n  \n  One.\n  Two.\n+ New.\n+ Newer.\n  Three.\n');
  });

  it('fails on a changed, missing or stale golden file, and passes once written', () => {
    const dir = fs.mkdtempSync(path.join(tmp, 'golden-'));
    const extracted = { kind: 'extracted', markdown: golden, document: null, totalPages: 1, metadata: { title: 'Title' } } as const;
    expect(checkGolden('pdf/a.pdf', extracted, dir)).toEqual([expect.stringMatching(/a\.pdf\.json is missing\. Run UPDATE_GOLDEN=1/), expect.stringMatching(/a\.pdf\.md is missing/)]);
    writeGolden('pdf/a.pdf', extracted, dir);
    expect(checkGolden('pdf/a.pdf', extracted, dir)).toEqual([]);
    const [problem] = checkGolden('pdf/a.pdf', { ...extracted, markdown: golden.replace('Two.', 'Deux.') }, dir);
    expect(problem).toContain('line 4 of the golden file, line 4 of the output');
    const failed = { kind: 'failed', code: 'CORRUPT_DOCUMENT', message: 'broken' } as const;
    expect(checkGolden('pdf/a.pdf', failed, dir).join('\n')).toMatch(/a\.pdf\.error\.json is missing[\s\S]*a\.pdf\.json is stale[\s\S]*a\.pdf\.md is stale/);
    writeGolden('pdf/a.pdf', failed, dir);
    expect(fs.readdirSync(path.join(dir, 'pdf'))).toEqual(['a.pdf.error.json']);
    expect(orphanGoldenFiles(new Set(['pdf/b.pdf']), dir)).toEqual(['pdf/a.pdf.error.json']);
    removeOrphanGoldenFiles(['pdf/a.pdf.error.json'], dir);
    expect(fs.readdirSync(dir)).toEqual([]);
  });
});

