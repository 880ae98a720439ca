/**
 * PDFs for tests, written by the PDF writer in lib/extraction/pdf/run/writer.ts: a long born-digital
 * report of any number of pages.
 */
import { buildPdf, paragraph, type PdfPageSpec, type PdfText } from '@/lib/extraction/pdf/run/writer';

export * from '@/lib/extraction/pdf/run/writer';

const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ' +
  'Ut enim ad minim veniam, quis nostrud exercitation ullamco laboris nisi ut aliquip ex ea commodo consequat. ' +
  'Duis aute irure dolor in reprehenderit in voluptate velit esse cillum dolore eu fugiat nulla pariatur.';

/**
 * A born-digital report of `pageCount` letter pages: a heading and four paragraphs per page,
 * every paragraph ending with a sentence naming its page ("End of paragraph 3 on page 12.").
 */
export function buildTextDocument(pageCount: number): Uint8Array {
  const pages: PdfPageSpec[] = [];
  for (let p = 1; p <= pageCount; p++) {
    const texts: PdfText[] = [{ x: 72, y: 720, text: `Section ${p}: Quarterly results`, size: 16, font: 'bold' }];
    let y = 690;
    for (let k = 1; k <= 4; k++) {
      const para = paragraph(`${LOREM} End of paragraph ${k} on page ${p}.`, { x: 72, y, width: 468, size: 10 });
      texts.push(...para.texts);
      y = para.y;
    }
    texts.push({ x: 300, y: 40, text: String(p), size: 9 });
    pages.push({ texts });
  }
  return buildPdf(pages, { title: 'Generated report', author: 'Quarry tests', creationDate: "D:20230101120000+01'00'" });
}
