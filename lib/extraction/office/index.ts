/**
 * Extractors for every non-PDF, non-image format: DOCX, XLSX, PPTX, CSV, HTML, TXT and MD.
 * Each reads the stored file, honours `signal` between units and reports progress, and fails with
 * an ExtractionError: CORRUPT_DOCUMENT for damaged or hostile files (zip bombs, malformed zip or
 * XML, invalid UTF-8), ENCRYPTED_DOCUMENT, TOO_MANY_PAGES, CANCELLED. Empty documents complete
 * with empty Markdown.
 */
export { extractDocx } from './docx';
export { extractXlsx } from './xlsx';
export { extractPptx } from './pptx';
export { extractCsv } from './csv';
export { extractHtml } from './html';
export { extractText } from './text';
