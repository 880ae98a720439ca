/**
 * The WebAssembly build of PDFium (`@embedpdf/pdfium`), loaded once per thread, and the raw
 * exports Quarry's readers call (pdfium.ts for text, pdfium-graphics.ts for paths and images).
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

/** The raw exports of the WebAssembly module that this reader calls. */
export interface Exports {
  memory: WebAssembly.Memory;
  malloc(size: number): number;
  free(ptr: number): void;
  FPDF_LoadMemDocument(data: number, size: number, password: number): number;
  FPDF_CloseDocument(doc: number): void;
  FPDF_GetLastError(): number;
  FPDF_GetPageCount(doc: number): number;
  FPDF_LoadPage(doc: number, index: number): number;
  FPDF_ClosePage(page: number): void;
  FPDFPage_GetRotation(page: number): number;
  FPDFPage_GetMediaBox(page: number, l: number, b: number, r: number, t: number): number;
  FPDFPage_GetCropBox(page: number, l: number, b: number, r: number, t: number): number;
  FPDFPage_CountObjects(page: number): number;
  FPDFPage_GetObject(page: number, index: number): number;
  FPDFPageObj_GetType(obj: number): number;
  FPDFPageObj_GetMatrix(obj: number, matrix: number): number;
  FPDFPageObj_GetStrokeWidth(obj: number, width: number): number;
  FPDFPageObj_GetFillColor(obj: number, r: number, g: number, b: number, a: number): number;
  FPDFPageObj_GetStrokeColor(obj: number, r: number, g: number, b: number, a: number): number;
  FPDFPath_GetDrawMode(path: number, fillMode: number, stroke: number): number;
  FPDFPath_CountSegments(path: number): number;
  FPDFPath_GetPathSegment(path: number, index: number): number;
  FPDFPathSegment_GetPoint(segment: number, x: number, y: number): number;
  FPDFPathSegment_GetType(segment: number): number;
  FPDFPathSegment_GetClose(segment: number): number;
  FPDFFormObj_CountObjects(form: number): number;
  FPDFFormObj_GetObject(form: number, index: number): number;
  FPDFText_LoadPage(page: number): number;
  FPDFText_ClosePage(textPage: number): void;
  FPDFText_CountChars(textPage: number): number;
  FPDFText_GetUnicode(textPage: number, index: number): number;
  FPDFText_IsGenerated(textPage: number, index: number): number;
  FPDFText_HasUnicodeMapError(textPage: number, index: number): number;
  FPDFText_GetTextObject(textPage: number, index: number): number;
  FPDFText_GetFontSize(textPage: number, index: number): number;
  FPDFText_GetCharOrigin(textPage: number, index: number, x: number, y: number): number;
  FPDFText_GetMatrix(textPage: number, index: number, matrix: number): number;
  FPDFText_GetLooseCharBox(textPage: number, index: number, rect: number): number;
  FPDFText_GetCharBox(textPage: number, index: number, left: number, right: number, bottom: number, top: number): number;
  FPDFTextObj_GetFont(textObject: number): number;
  FPDFFont_GetBaseFontName(font: number, buffer: number, length: number): number;
  FPDFFont_GetFlags(font: number): number;
}

interface PdfiumModule {
  pdfium: { wasmExports: Exports };
  PDFiumExt_Init(): void;
}

let loaded: Promise<Exports> | null = null;

/** Loads and starts PDFium once per thread. */
export function loadPdfium(): Promise<Exports> {
  loaded ??= (async () => {
    const require = createRequire(pathToFileURL(path.join(process.cwd(), 'package.json')).href);
    const wasmPath = require.resolve('@embedpdf/pdfium/pdfium.wasm');
    const wasmBinary = await fs.promises.readFile(wasmPath);
    const { init } = (await import('@embedpdf/pdfium')) as unknown as { init(o: { wasmBinary: ArrayBuffer }): Promise<PdfiumModule> };
    const mod = await init({ wasmBinary: wasmBinary.buffer.slice(wasmBinary.byteOffset, wasmBinary.byteOffset + wasmBinary.byteLength) as ArrayBuffer });
    mod.PDFiumExt_Init();
    return mod.pdfium.wasmExports;
  })();
  loaded.catch(() => {
    loaded = null;
  });
  return loaded;
}

/**
 * Drops this thread's instance after a trap, which leaves its state unknown: the next document
 * gets a fresh one.
 */
export function discardPdfium(): void {
  loaded = null;
}
