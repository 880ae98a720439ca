import fs from 'node:fs';
import path from 'node:path';
import { Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { UploadInspector } from './inspect';
import type { FileTypeEntry } from './types';

/**
 * The type an upload of this file would be stored as (the same inspection as POST /v1/files),
 * for scripts and tests that extract files from disk. Throws the upload's ApiError (415, 413).
 */
export async function detectFileOnDisk(file: string, filename = path.basename(file)): Promise<FileTypeEntry> {
  const inspector = new UploadInspector(filename);
  const sink = new Writable({ write: (_chunk, _enc, done) => done() });
  await pipeline(fs.createReadStream(file), inspector, sink);
  return inspector.type!;
}
