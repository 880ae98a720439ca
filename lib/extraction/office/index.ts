/**
 * Extractors for every non-PDF, non-image format: DOCX, XLSX, PPTX, ODT/ODS/ODP, EPUB, RTF,
 * email (EML, MSG), Office 97-2003 (DOC natively, XLS/PPT through LibreOffice), CSV, TSV, HTML,
 * XML, JSON, TXT, MD, RST and Org.
 * Each reads the stored file, honours `signal` between units and reports progress, and fails with
 * an ExtractionError: CORRUPT_DOCUMENT for damaged or hostile files (zip bombs, malformed zip or
 * XML, invalid UTF-8), ENCRYPTED_DOCUMENT, TOO_MANY_PAGES, CANCELLED. Empty documents complete
 * with empty Markdown.
 */
export { readDocx } from './docx';
export { readXlsx } from './xlsx';
export { readPptx } from './pptx';
export { readCsv, readTsv } from './csv';
export { readHtml } from './html';
export { readText } from './text';
export { readOdf } from './odf';
export { readRst } from './rst';
export { readOrg } from './org';
export { readXml, readJson } from './text-formats';
export { readEml, readMsg } from './email';
export { readEpub } from './epub';
export { readRtf } from './rtf';
export { readDoc, readWithLibreOffice } from './legacy';
