import type { MessagePort } from 'node:worker_threads';
import { ExtractionError } from '@/lib/extraction/types';
import { openPdfium, type PdfiumDocument } from '../read/pdfium';
import { loadPdfjs, openDocument, readPdfFile, toExtractionError, type PdfDocument, type PdfLoadingTask } from '../read/pdfjs';
import { Probe } from '../read/probe';
import { extractRange } from './pages';
import { PageClaims, PROGRESS_MS, type PdfRangeJob, type ThreadMessage } from './threads';

/** The thread side of startRangeJobs: reads the text layers of the pages it claims. */
export async function runPdfRangeJob(job: PdfRangeJob, port: MessagePort): Promise<void> {
  const send = (message: ThreadMessage) => port.postMessage(message);
  const controller = new AbortController();
  const input = { ...job.input, onProgress: () => {}, signal: controller.signal };
  let task: PdfLoadingTask | null = null;
  let opened: Promise<PdfDocument> | null = null;
  let probe: Probe | null = null;
  let pdfium: PdfiumDocument | null = null;
  try {
    const { pdfjs, dir } = await loadPdfjs();
    const bytes = await readPdfFile(input.path);
    // PDFium copies the bytes; pdf.js takes them, and opens the document only when it must read a
    // page (always without PDFium).
    pdfium = await openPdfium(bytes);
    const doc = () => {
      if (!opened) {
        task = openDocument(pdfjs, dir, bytes, { maxImageSize: 1 });
        opened = task.promise.catch((err: unknown) => {
          throw toExtractionError(err);
        });
      }
      return opened;
    };
    if (job.wantOcr && input.mode === 'normal') probe = new Probe(pdfjs, dir, input.path, controller.signal);
    if (!pdfium) await doc();
    // Pages finished without OCR to come, reported at most every PROGRESS_MS.
    let finished = 0;
    let reported = Date.now();
    const report = () => {
      if (finished > 0) send({ type: 'progress', pages: finished });
      finished = 0;
      reported = Date.now();
    };
    const claims = new PageClaims(job.claims.buffer, job.claims.numPages, job.claims.size);
    const pages = await extractRange(pdfjs, doc, () => claims.claim(), input, job.wantOcr, probe, pdfium, (t) => {
      if (!t.needOcr) finished++;
      if (Date.now() - reported >= PROGRESS_MS) report();
    });
    report();
    send({ type: 'done', pages });
  } catch (err) {
    const error = err instanceof ExtractionError ? err : new ExtractionError('INTERNAL_ERROR', `PDF extraction failed unexpectedly: ${(err as Error)?.message ?? String(err)}`);
    send({ type: 'error', code: error.code, message: error.message });
  } finally {
    pdfium?.close();
    await probe?.destroy();
    await (opened as Promise<PdfDocument> | null)?.catch(() => {});
    await (task as PdfLoadingTask | null)?.destroy().catch(() => {});
  }
}
