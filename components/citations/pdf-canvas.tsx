'use client';

import { useEffect, useRef, useState } from 'react';
import type { PDFDocumentProxy } from 'pdfjs-dist/legacy/build/pdf.mjs';

/**
 * One page of a PDF drawn into a canvas as wide as its box, drawn again when the box is resized.
 * The document is opened once per address; pdf.js itself is loaded only here, on demand.
 */
export function PdfCanvas({ url, pageNumber, label, onDrawn, onFailed }: { url: string; pageNumber: number; label: string; onDrawn: () => void; onFailed: () => void }) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  const [doc, setDoc] = useState<PDFDocumentProxy | null>(null);
  const [width, setWidth] = useState(0);
  const callbacks = useRef({ onDrawn, onFailed });
  callbacks.current = { onDrawn, onFailed };

  useEffect(() => {
    let cancelled = false;
    let opened: PDFDocumentProxy | null = null;
    import('./pdf-loader')
      .then(({ openPdf }) => openPdf(url))
      .then((pdf) => {
        opened = pdf;
        if (cancelled) void pdf.destroy();
        else setDoc(pdf);
      })
      .catch(() => {
        if (!cancelled) callbacks.current.onFailed();
      });
    return () => {
      cancelled = true;
      void opened?.destroy();
      setDoc(null);
    };
  }, [url]);

  // Redrawn when the box changes width by more than a little (a turned phone, a resized window).
  useEffect(() => {
    const canvas = canvasRef.current;
    const box = canvas?.parentElement;
    if (!box) return;
    const measure = () => setWidth((w) => (Math.abs(box.clientWidth - w) > 8 ? box.clientWidth : w));
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(box);
    return () => observer.disconnect();
  }, []);

  useEffect(() => {
    const canvas = canvasRef.current;
    if (!doc || !canvas || width <= 0) return;
    let stop: (() => void) | undefined;
    let cancelled = false;
    const number = Math.min(Math.max(1, pageNumber), doc.numPages);
    Promise.all([doc.getPage(number), import('./pdf-loader')])
      .then(([page, { drawPage }]) => {
        if (cancelled) return;
        const task = drawPage(page, canvas, width);
        stop = task.cancel;
        return task.done.then(() => {
          if (!cancelled) callbacks.current.onDrawn();
        });
      })
      .catch((err: unknown) => {
        // A drawing stopped because the page changed is not a failure.
        if (!cancelled && (err as { name?: string })?.name !== 'RenderingCancelledException') callbacks.current.onFailed();
      });
    return () => {
      cancelled = true;
      stop?.();
    };
  }, [doc, pageNumber, width]);

  return <canvas ref={canvasRef} role="img" aria-label={label} data-testid="original-canvas" data-page={pageNumber} className="block h-auto w-full" />;
}
