/**
 * Reading runs of pages: each page's text layer read (PDFium, or pdf.js for the pages PDFium hands
 * back and without it; read/page-sources.ts) and put through PAGE_STAGES (stages.ts). The
 * extraction's own thread and its page threads (thread-job.ts) both read pages here.
 */
import { ExtractionError, throwIfAborted, type ExtractInput } from '@/lib/extraction/types';
import type { PageGraphics } from '../read/graphics';
import { pdfiumImages, pdfiumSource, pdfjsSource, type LoadedPage, type PageSource } from '../read/page-sources';
import type { PdfiumDocument } from '../read/pdfium';
import { abortable, type PdfDocument, type Pdfjs } from '../read/pdfjs';
import type { Probe } from '../read/probe';
import type { FontFlags } from '../read/runs';
import { pageWork, runPageStages } from '../stages';
import type { PageRange } from './threads';
import type { PageText } from './types';

/**
 * Reads the text layers of the pages `next` hands out, a run of pages at a time until it returns
 * null. `onPage` runs after each page, in order within a run, and may change the page (OCR). A page
 * whose layout cannot be read is kept empty with its failure.
 */
export async function extractRange(
  pdfjs: Pdfjs,
  /** The document in pdf.js, opened on first use (with PDFium, only if a page is handed back). */
  doc: () => Promise<PdfDocument>,
  next: () => PageRange | null,
  input: ExtractInput,
  wantOcr: boolean,
  probe: Probe | null,
  pdfium: PdfiumDocument | null,
  onPage: (text: PageText) => Promise<void> | void,
): Promise<PageText[]> {
  const { signal } = input;
  /** Bold/monospace of each pdf.js font id (ids are per document), null when unknown. */
  const fonts = new Map<string, FontFlags | null>();
  // Parsing runs behind pdf.js's message channel: asking for the next pages' text while this
  // page is laid out keeps the thread busy instead of idle between pages.
  const ahead = new Map<number, Promise<LoadedPage>>();
  const fetchPage = (m: number): Promise<LoadedPage> => {
    let pending = ahead.get(m);
    if (!pending) {
      pending = doc().then((d) => d.getPage(m)).then(async (page) => ({ page, content: await page.getTextContent({ disableNormalization: true }) }));
      pending.catch(() => undefined);
      ahead.set(m, pending);
    }
    return pending;
  };
  const texts: PageText[] = [];
  for (let range = next(); range; range = next()) {
    const { from, to } = range;
    for (let n = from; n <= to; n++) {
      throwIfAborted(signal);
      // With PDFium pdf.js reads only the pages handed back to it, so nothing is read ahead.
      if (!pdfium) for (let m = n; m <= Math.min(to, n + LOOKAHEAD); m++) fetchPage(m);
      let text: PageText;
      try {
        const viaPdfium = pdfium ? pdfiumSource(pdfium, n, input) : null;
        if (viaPdfium) {
          text = await readPage(pdfjs, viaPdfium, n, input, wantOcr, () => pdfiumImages(pdfium!, n, probe));
        } else {
          const { page, content } = await abortable(fetchPage(n), signal);
          try {
            const source = await pdfjsSource(pdfjs, page, content, input, fonts);
            text = await readPage(pdfjs, source, n, input, wantOcr, async () => (await probe?.images(n)) ?? null);
          } finally {
            page.cleanup();
          }
        }
      } catch (err) {
        if (err instanceof ExtractionError) throw err;
        if (signal.aborted) throwIfAborted(signal);
        text = { page: n, blocks: [], usable: false, needOcr: false, failure: (err as Error)?.message ?? String(err) };
      }
      ahead.delete(n);
      await onPage(text);
      texts.push(text);
    }
  }
  return texts;
}

const LOOKAHEAD = 4;

/** Page `n` from its text layer through PAGE_STAGES. */
async function readPage(
  pdfjs: Pdfjs,
  source: PageSource,
  n: number,
  input: ExtractInput,
  wantOcr: boolean,
  /** What images the page paints (to tell scans from blank pages), null when unknown. */
  images: () => Promise<PageGraphics | null>,
): Promise<PageText> {
  const work = pageWork(source, input, wantOcr, pdfjs.normalizeUnicode, images);
  await runPageStages(work);
  return { page: n, blocks: work.blocks, usable: work.usable, needOcr: work.needOcr };
}
