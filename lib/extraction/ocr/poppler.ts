/**
 * Page rendering with poppler (`pdftoppm`, with `pdfinfo` and `pdfimages` for the page size and
 * the resolution of its scan), used when the programs are installed.
 */
import fs from 'node:fs';
import path from 'node:path';
import { checkPixelBudget, extractionLimits } from '../limits';
import { runProgram } from '../programs';
import { ExtractionError } from '../types';
import { stderrTail } from './common';
import { imageSizes } from './dimensions';
import { chooseRender, DEFAULT_RENDER_DPI, renderFailed, type PageImage, type RenderChoice, type RenderedPage } from './render-dpi';

let popplerProbe: Promise<boolean> | null = null;

/**
 * Whether pdftoppm, pdfimages and pdfinfo run (checked once per process; again when the task's
 * limits stopped the check, which then rejects).
 */
export function popplerAvailable(): Promise<boolean> {
  const probe = (popplerProbe ??= Promise.all(
    ['pdftoppm', 'pdfimages', 'pdfinfo'].map((tool) =>
      runProgram(tool, ['-v'], { maxStdout: 1 << 16 }).then(
        (r) => r.code === 0,
        (err: unknown) => {
          if (err instanceof ExtractionError) throw err;
          return false;
        },
      ),
    ),
  ).then((ok) => ok.every(Boolean)));
  probe.catch(() => {
    if (popplerProbe === probe) popplerProbe = null;
  });
  return probe;
}

/** Parses `pdfimages -list` output into the images of `page`. */
export function parsePdfimagesList(output: string, page: number): PageImage[] {
  const images: PageImage[] = [];
  for (const line of output.split('\n')) {
    const f = line.trim().split(/\s+/);
    // page num type width height color comp bpc enc interp object ID x-ppi y-ppi size ratio
    if (f.length < 14 || !/^\d+$/.test(f[0]) || Number(f[0]) !== page) continue;
    if (f[2] !== 'image' && f[2] !== 'stencil') continue;
    const width = Number(f[3]);
    const height = Number(f[4]);
    const xppi = Number(f[12]);
    const yppi = Number(f[13]);
    if (!(width > 0 && height > 0 && xppi > 0 && yppi > 0)) continue;
    images.push({ width, height, ppi: Math.max(xppi, yppi), area: (width / xppi) * 72 * ((height / yppi) * 72) });
  }
  return images;
}

/** Page size in points from `pdfinfo -f N -l N` ("Page    1 size: 595.2 x 841.9 pts"). */
export function parsePdfinfoPageSize(output: string, page: number): { width: number; height: number } | null {
  const re = /^Page\s+(\d+)\s+size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/gm;
  for (let m = re.exec(output); m; m = re.exec(output)) {
    if (Number(m[1]) === page) return { width: Number(m[2]), height: Number(m[3]) };
  }
  const single = /^Page size:\s+([\d.]+)\s+x\s+([\d.]+)\s+pts/m.exec(output);
  return single ? { width: Number(single[1]), height: Number(single[2]) } : null;
}

/** The render dpi for a page, from poppler's view of its images. */
export async function popplerPageDpi(pdfPath: string, page: number, signal: AbortSignal): Promise<number> {
  return (await popplerPageRender(pdfPath, page, signal)).dpi;
}

/** popplerPageDpi, with the scan's own resolution when the choice is finer than it. */
export async function popplerPageRender(pdfPath: string, page: number, signal: AbortSignal): Promise<RenderChoice> {
  const range = ['-f', String(page), '-l', String(page)];
  const [info, list] = await Promise.all([
    runProgram('pdfinfo', [...range, pdfPath], { signal, maxStdout: 1 << 20 }),
    runProgram('pdfimages', ['-list', ...range, pdfPath], { signal, maxStdout: 16 << 20 }),
  ]);
  const size = info.code === 0 ? parsePdfinfoPageSize(info.stdout.toString('utf8'), page) : null;
  if (!size) return { dpi: DEFAULT_RENDER_DPI };
  const images = list.code === 0 ? parsePdfimagesList(list.stdout.toString('utf8'), page) : [];
  return chooseRender(images, size.width, size.height, extractionLimits().maxImagePixels);
}

/** Refuses a rendered page over the pixel budget before OCR decodes it. */
function checkRenderedPage(file: string, page: number): void {
  const [size] = imageSizes(fs.readFileSync(file), 'png');
  try {
    checkPixelBudget(`Page ${page} rendered for OCR`, size.width, size.height);
  } catch (err) {
    fs.rmSync(file, { force: true });
    throw err;
  }
}

/**
 * Renders with pdftoppm (grey, PNG) into `tmpDir`. The crop box is rendered, the size pdfinfo
 * reports and the dpi is chosen for: by default pdftoppm draws the media box, which a PDF can
 * make any size behind a small crop box.
 */
export async function renderPdfPageWithPoppler(
  pdfPath: string,
  page: number,
  tmpDir: string,
  signal: AbortSignal,
  dpi?: number,
): Promise<RenderedPage> {
  const choice = dpi ? { dpi } : await popplerPageRender(pdfPath, page, signal);
  const resolution = choice.dpi;
  const base = path.join(tmpDir, `ocr-page-${page}-${process.hrtime.bigint()}`);
  const result = await runProgram(
    'pdftoppm',
    ['-f', String(page), '-l', String(page), '-r', String(resolution), '-cropbox', '-gray', '-png', '-singlefile', pdfPath, base],
    { signal, maxStdout: 1 << 20 },
  );
  const file = `${base}.png`;
  if (result.code !== 0 || !fs.existsSync(file)) {
    fs.rmSync(file, { force: true });
    // Messages reach API clients: no server paths in them.
    throw renderFailed(page, stderrTail(result.stderr).split(pdfPath).join('<document>').split(base).join('<output>'));
  }
  checkRenderedPage(file, page);
  return choice.scanDpi ? { path: file, dpi: resolution, scanDpi: choice.scanDpi } : { path: file, dpi: resolution };
}
