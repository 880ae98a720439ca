import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';

/*
 * The data files pdf.js fetches while drawing a PDF page in the console (components/citations):
 * character maps for Chinese, Japanese and Korean text, the standard fonts documents name without
 * embedding them, and the decoders for JPEG 2000 and JBIG2 scans. They ship with the installed
 * pdfjs-dist and are served from it as they are: nothing is fetched from elsewhere.
 */

const FOLDERS = new Set(['cmaps', 'standard_fonts', 'wasm', 'iccs']);
const TYPES: Record<string, string> = {
  '.bcmap': 'application/octet-stream',
  '.pfb': 'application/octet-stream',
  '.icc': 'application/vnd.iccprofile',
  '.ttf': 'font/ttf',
  '.wasm': 'application/wasm',
  '.js': 'text/javascript; charset=utf-8',
};

let packageDir: Promise<string> | undefined;

function pdfjsDir(): Promise<string> {
  packageDir ??= Promise.resolve().then(() => {
    const require = createRequire(path.join(process.cwd(), 'package.json'));
    return path.dirname(require.resolve('pdfjs-dist/package.json'));
  });
  return packageDir;
}

const notFound = () => new Response('Not found', { status: 404, headers: { 'content-type': 'text/plain; charset=utf-8' } });

export async function GET(_request: Request, { params }: { params: Promise<{ folder: string; file: string }> }) {
  const { folder, file } = await params;
  const type = TYPES[path.extname(file).toLowerCase()];
  // Only names the package holds: a bare file name in one of its data folders, never a path.
  if (!FOLDERS.has(folder) || !type || !/^[A-Za-z0-9][A-Za-z0-9._-]*$/.test(file)) return notFound();
  try {
    const bytes = await fs.readFile(path.join(await pdfjsDir(), folder, file));
    return new Response(new Uint8Array(bytes), {
      headers: { 'content-type': type, 'cache-control': 'public, max-age=86400', 'x-content-type-options': 'nosniff' },
    });
  } catch {
    return notFound();
  }
}
