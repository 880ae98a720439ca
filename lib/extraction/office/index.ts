/**
 * Extractors for every non-PDF, non-image format: DOCX, XLSX, PPTX, ODT/ODS/ODP, EPUB, RTF,
 * email (EML, MSG), Office 97-2003 (DOC natively, XLS/PPT through LibreOffice), CSV, TSV, HTML,
 * XML, JSON, TXT, MD, RST and Org.
 * Each reads the stored file, honours `signal` between units and reports progress, and fails with
 * an ExtractionError: CORRUPT_DOCUMENT for damaged or hostile files (zip bombs, malformed zip or
 * XML, invalid UTF-8), ENCRYPTED_DOCUMENT, TOO_MANY_PAGES, CANCELLED. Empty documents complete
 * with empty Markdown.
 */
export { extractDocx } from './docx';
export { extractXlsx } from './xlsx';
export { extractPptx } from './pptx';
export { extractCsv, extractTsv } from './csv';
export { extractHtml } from './html';
export { extractText } from './text';
export { extractOdf } from './odf';
export { extractRst, extractOrg, extractXml, extractJson } from './text-formats';
export { extractEml, extractMsg } from './email';
export { extractEpub } from './epub';
export { extractRtf } from './rtf';
export { extractDoc, extractWithLibreOffice } from './legacy';
