// npx tsx scripts/bench-sheets.ts — time and peak memory of large spreadsheets and tables: a
// generated workbook of 100,000 cells (merged ranges included), a workbook at the 1,000,000-cell
// workbook limit, and a CSV of 100,000 cells. Each case runs in a fresh process (`--case NAME`),
// so its peak resident memory is its own (that of the first extraction); the extraction is run
// three times and the best wall and CPU times kept.
// `--write DIR` writes the generated documents instead.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { extractDocument } from '@/lib/extraction/engine';
import { extractInput } from '@/test/support/extract-input';

const XLSX = { mime_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', extension: '.xlsx' };
const CSV = { mime_type: 'text/csv', extension: '.csv' };
const REL = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';

function column(n: number): string {
  let s = '';
  for (let c = n; c > 0; c = Math.floor((c - 1) / 26)) s = String.fromCharCode(65 + ((c - 1) % 26)) + s;
  return s;
}

/** A workbook of `sheets` sheets, each `rows` × `cols` cells (text and numbers), a merged title row on top. */
function workbook(sheets: number, rows: number, cols: number): Uint8Array {
  const rels = (entries: [string, string, string][]) =>
    `<?xml version="1.0" encoding="UTF-8"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships">${entries
      .map(([id, type, target]) => `<Relationship Id="${id}" Type="${REL}/${type}" Target="${target}"/>`)
      .join('')}</Relationships>`;
  const files: Zippable = {
    '[Content_Types].xml': strToU8('<?xml version="1.0" encoding="UTF-8"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/><Default Extension="xml" ContentType="application/xml"/></Types>'),
    '_rels/.rels': strToU8(rels([['rId1', 'officeDocument', 'xl/workbook.xml']])),
    'xl/workbook.xml': strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><workbook xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main" xmlns:r="${REL}"><sheets>${Array.from({ length: sheets }, (_, i) => `<sheet name="S${i + 1}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('')}</sheets></workbook>`,
    ),
    'xl/_rels/workbook.xml.rels': strToU8(rels(Array.from({ length: sheets }, (_, i) => [`rId${i + 1}`, 'worksheet', `worksheets/sheet${i + 1}.xml`]))),
  };
  for (let s = 0; s < sheets; s++) {
    const out: string[] = [`<row r="1"><c r="A1" t="inlineStr"><is><t>Title of sheet ${s + 1}</t></is></c></row>`];
    const merges = [`<mergeCell ref="A1:${column(cols)}1"/>`];
    for (let r = 2; r <= rows; r++) {
      const cells: string[] = [];
      for (let c = 1; c <= cols; c++) {
        const ref = `${column(c)}${r}`;
        cells.push(c % 3 === 1 ? `<c r="${ref}" t="inlineStr"><is><t>item ${r}-${c}</t></is></c>` : `<c r="${ref}"><v>${r * c + 0.5}</v></c>`);
      }
      out.push(`<row r="${r}">${cells.join('')}</row>`);
      // A group label beside every tenth row, merged over the nine rows below it.
      if (r % 10 === 2 && r + 9 <= rows) merges.push(`<mergeCell ref="A${r}:A${r + 9}"/>`);
    }
    files[`xl/worksheets/sheet${s + 1}.xml`] = strToU8(
      `<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>${out.join('')}</sheetData><mergeCells count="${merges.length}">${merges.join('')}</mergeCells></worksheet>`,
    );
  }
  return zipSync(files);
}

const CASES: Record<string, { type: typeof XLSX; make: () => Uint8Array | string }> = {
  'xlsx 100k cells (5,000 × 20)': { type: XLSX, make: () => workbook(1, 5_000, 20) },
  'xlsx 1M cells (10 sheets × 100k)': { type: XLSX, make: () => workbook(10, 5_000, 20) },
  'csv 100k cells (10,000 × 10)': {
    type: CSV,
    make: () => Array.from({ length: 10_000 }, (_, r) => Array.from({ length: 10 }, (_, c) => (c % 2 ? `v${r}.${c}` : String(r * c))).join(',')).join('\n'),
  },
};

async function runCase(name: string): Promise<void> {
  // What the process holds before extracting (the modules loaded), to tell the extraction's share.
  const startMb = process.memoryUsage().rss / 1024 / 1024;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-sheets-'));
  const { type, make } = CASES[name];
  const file = path.join(tmp, `doc${type.extension}`);
  fs.writeFileSync(file, make());
  // Peak memory of one extraction (the first), then the best wall and CPU time of three.
  let best = Infinity;
  let bestCpu = Infinity;
  let length = 0;
  let rssMb = 0;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    const cpu = process.cpuUsage();
    const result = await extractDocument(extractInput(file, type, tmp));
    const used = process.cpuUsage(cpu);
    best = Math.min(best, performance.now() - started);
    bestCpu = Math.min(bestCpu, (used.user + used.system) / 1000);
    length = result.markdown.length;
    if (i === 0) rssMb = process.resourceUsage().maxRSS / 1024;
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  console.log(JSON.stringify({ name, ms: Math.round(best), cpuMs: Math.round(bestCpu), rssMb: Math.round(rssMb), startMb: Math.round(startMb), markdownChars: length }));
}

const at = process.argv.indexOf('--case');
const write = process.argv.indexOf('--write');
if (at >= 0) {
  await runCase(process.argv[at + 1]);
} else if (write >= 0) {
  // The generated documents, to profile them elsewhere.
  const dir = process.argv[write + 1];
  fs.mkdirSync(dir, { recursive: true });
  Object.values(CASES).forEach(({ type, make }, i) => fs.writeFileSync(path.join(dir, `case-${i + 1}${type.extension}`), make()));
  console.log(Object.keys(CASES).map((name, i) => `case-${i + 1}: ${name}`).join('\n'));
} else {
  console.log(`${'case'.padEnd(36)} ${'wall'.padStart(10)} ${'CPU'.padStart(10)} ${'peak RSS'.padStart(10)} ${'at start'.padStart(10)} ${'Markdown'.padStart(12)}`);
  for (const name of Object.keys(CASES)) {
    const line = execFileSync(process.execPath, ['--import', 'tsx', import.meta.filename, '--case', name], { encoding: 'utf8' }).trim().split('\n').pop()!;
    const { ms, cpuMs, rssMb, startMb, markdownChars } = JSON.parse(line) as { ms: number; cpuMs: number; rssMb: number; startMb: number; markdownChars: number };
    console.log(
      `${name.padEnd(36)} ${`${ms} ms`.padStart(10)} ${`${cpuMs} ms`.padStart(10)} ${`${rssMb} MB`.padStart(10)} ${`${startMb} MB`.padStart(10)} ${markdownChars.toLocaleString('en-US').padStart(12)}`,
    );
  }
}
