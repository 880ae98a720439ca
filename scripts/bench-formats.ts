// npm run bench:formats — every document format of the same text (fixtures/formats/same-content):
// each file is typed as an upload would be (by content) and extracted as the worker does; the
// table gives the text similarity of its Markdown to eng_spa_mult.md and the extraction time.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { extractDocument } from '@/lib/extraction/engine';
import { findSoffice } from '@/lib/extraction/formats';
import { textSimilarity } from '@/lib/extraction/quality';
import { detectFileOnDisk } from '@/lib/files/detect-file';
import { FIXTURES_DIR } from '@/test/support/fixtures';
import { extractInput } from '@/test/support/extract-input';

const GOAL = 0.9;
const dir = path.join(FIXTURES_DIR, 'formats', 'same-content');
const reference = fs.readFileSync(path.join(dir, 'eng_spa_mult.md'), 'utf8');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-formats-'));

async function main(): Promise<void> {
  console.log(`Same text in every format, against eng_spa_mult.md (goal ≥ ${GOAL}); LibreOffice: ${findSoffice() ? 'installed' : 'not installed'}`);
  console.log(`  ${'file'.padEnd(22)} ${'read as'.padEnd(8)} ${'similarity'.padStart(10)} ${'time'.padStart(9)}`);
  let missed = 0;
  for (const name of fs.readdirSync(dir).sort()) {
    if (name === 'eng_spa_mult.md') continue;
    const file = path.join(dir, name);
    const type = await detectFileOnDisk(file);
    const started = performance.now();
    try {
      const result = await extractDocument(extractInput(file, type, tmp));
      const ms = performance.now() - started;
      const similarity = textSimilarity(result.markdown, reference);
      if (similarity < GOAL) missed++;
      const verdict = similarity >= GOAL ? '' : '  MISSED';
      console.log(`  ${name.padEnd(22)} ${type.extension.padEnd(8)} ${similarity.toFixed(3).padStart(10)} ${`${ms.toFixed(0)} ms`.padStart(9)}${verdict}`);
    } catch (err) {
      missed++;
      console.log(`  ${name.padEnd(22)} ${type.extension.padEnd(8)} ${'failed'.padStart(10)}  ${(err as Error).message}`);
    }
  }
  fs.rmSync(tmp, { recursive: true, force: true });
  if (missed) process.exitCode = 1;
}

await main();
