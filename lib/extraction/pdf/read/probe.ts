/** A second pdf.js view of the document, opened on demand, that can tell scans from blank pages. */
import { ExtractionError, throwIfAborted } from '@/lib/extraction/types';
import { analyzeOperatorList, type PageGraphics } from './graphics';
import { abortable, openDocument, readPdfFile, type PdfDocument, type PdfLoadingTask, type Pdfjs } from './pdfjs';

/**
 * A second view of the document that keeps images (the main one skips them for speed), opened
 * from the file on first use, to tell scanned pages from blank ones.
 */
export class Probe {
  private task: PdfLoadingTask | null = null;
  private doc: Promise<PdfDocument> | null = null;

  constructor(
    private readonly pdfjs: Pdfjs,
    private readonly dir: string,
    private readonly file: string,
    private readonly signal: AbortSignal,
  ) {}

  private open(): Promise<PdfDocument> {
    this.doc ??= readPdfFile(this.file).then((bytes) => {
      this.task = openDocument(this.pdfjs, this.dir, bytes, { maxImageSize: -1 });
      return this.task.promise;
    });
    return this.doc;
  }

  /** Image statistics of page `n`, or null when they cannot be read. */
  async images(n: number): Promise<PageGraphics | null> {
    try {
      const doc = await abortable(this.open(), this.signal);
      const page = await abortable(doc.getPage(n), this.signal);
      try {
        const vp = page.getViewport({ scale: 1 });
        const opList = await abortable(page.getOperatorList({ annotationMode: this.pdfjs.AnnotationMode.DISABLE }), this.signal);
        return analyzeOperatorList(opList, this.pdfjs.OPS as unknown as Record<string, number>, {
          transform: vp.transform,
          width: vp.width,
          height: vp.height,
        });
      } finally {
        page.cleanup();
      }
    } catch (err) {
      throwIfAborted(this.signal);
      if (err instanceof ExtractionError) throw err;
      return null;
    }
  }

  async destroy(): Promise<void> {
    await this.doc?.catch(() => {});
    await this.task?.destroy().catch(() => {});
  }
}
