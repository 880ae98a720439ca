import fs from 'node:fs';
import path from 'node:path';

/** The shared fixtures folder beside the project (real documents from other projects' test suites). */
export const FIXTURES_DIR = path.resolve(process.env.QUARRY_FIXTURES_DIR ?? path.join(import.meta.dirname, '..', '..', '..', 'shared', 'fixtures'));

export function fixture(relative: string): Buffer {
  return fs.readFileSync(path.join(FIXTURES_DIR, relative));
}

/** A multipart form with a `file` part and optional text fields. */
export function formWith(filename: string, bytes: Uint8Array, fields: Record<string, string> = {}): FormData {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)]), filename);
  for (const [k, v] of Object.entries(fields)) form.set(k, v);
  return form;
}
