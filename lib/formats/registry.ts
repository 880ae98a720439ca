/**
 * Every format Quarry accepts, one row each: its MIME type and extensions, how its content is
 * recognised, its size limit, what GET /v1/files/types says of it, and which extractor reads it.
 * Uploads (lib/files), extraction (lib/extraction) and the file types endpoint all derive their
 * lists from these rows; lib/extraction/extractors.ts maps each extractor name to its reader, and
 * the compiler refuses a name without one.
 *
 * Adding a format: a row here, and a reader module registered under the row's extractor name.
 */

/** How a type is recognised when its content has no signature of its own. */
export type Recognition =
  /** By its signature (magic bytes), whatever the name says. */
  | 'signature'
  /** By extension; the content must be UTF-8 text without NUL bytes. */
  | 'text'
  /** By extension (.eml); the content must look like a message (any charset, even UTF-16). */
  | 'email';

export const EXTRACTOR_NAMES = [
  'pdf', 'image', 'docx', 'xlsx', 'pptx', 'odf', 'epub', 'rtf', 'doc', 'libreoffice', 'eml', 'msg',
  'csv', 'tsv', 'rst', 'org', 'xml', 'json', 'html', 'text',
] as const;
export type ExtractorName = (typeof EXTRACTOR_NAMES)[number];

export interface FormatRow {
  mime: string;
  /** Extensions with the dot, in the order GET /v1/files/types lists them. */
  extensions: readonly string[];
  description: string;
  maxMb: number;
  recognition: Recognition;
  /** Zip and OLE compound files are told apart by the entries they hold (lib/files/containers.ts). */
  container?: 'zip' | 'cfb';
  /** OOXML: the package folder of its main part ("word/"). */
  ooxmlFolder?: string;
  /** OLE compound files: whether a directory entry name marks this format. */
  cfbEntry?: (name: string) => boolean;
  extractor: ExtractorName;
  /** Legacy binaries without a maintained JavaScript reader: what LibreOffice converts them to. */
  libreoffice?: { target: 'xlsx' | 'pptx'; debianPackage: string };
}

const OOXML = 'application/vnd.openxmlformats-officedocument';
const ODF = 'application/vnd.oasis.opendocument';

type Options = Partial<Pick<FormatRow, 'recognition' | 'container' | 'ooxmlFolder' | 'cfbEntry' | 'libreoffice'>>;

function row(extensions: string | string[], mime: string, description: string, maxMb: number, extractor: ExtractorName, options: Options = {}): FormatRow {
  return { extensions: typeof extensions === 'string' ? [extensions] : extensions, mime, description, maxMb, extractor, recognition: 'signature', ...options };
}

const zip = (ooxmlFolder?: string): Options => ({ container: 'zip', ...(ooxmlFolder ? { ooxmlFolder } : {}) });
const cfb = (cfbEntry: (name: string) => boolean, libreoffice?: FormatRow['libreoffice']): Options => ({ container: 'cfb', cfbEntry, ...(libreoffice ? { libreoffice } : {}) });
const TEXT: Options = { recognition: 'text' };

export const FORMATS: readonly FormatRow[] = [
  row('.pdf', 'application/pdf', 'PDF document', 100, 'pdf'),
  row('.docx', `${OOXML}.wordprocessingml.document`, 'Microsoft Word document', 100, 'docx', zip('word/')),
  row('.xlsx', `${OOXML}.spreadsheetml.sheet`, 'Microsoft Excel workbook', 100, 'xlsx', zip('xl/')),
  row('.pptx', `${OOXML}.presentationml.presentation`, 'Microsoft PowerPoint presentation', 100, 'pptx', zip('ppt/')),
  row('.odt', `${ODF}.text`, 'OpenDocument text', 100, 'odf', zip()),
  row('.ods', `${ODF}.spreadsheet`, 'OpenDocument spreadsheet', 100, 'odf', zip()),
  row('.odp', `${ODF}.presentation`, 'OpenDocument presentation', 100, 'odf', zip()),
  row('.epub', 'application/epub+zip', 'EPUB e-book', 100, 'epub', zip()),
  row('.doc', 'application/msword', 'Microsoft Word 97-2003 document', 100, 'doc', cfb((n) => n === 'WordDocument')),
  row('.xls', 'application/vnd.ms-excel', 'Microsoft Excel 97-2003 workbook (read with LibreOffice)', 100, 'libreoffice',
    cfb((n) => n === 'Workbook' || n === 'Book', { target: 'xlsx', debianPackage: 'libreoffice-calc' })),
  row('.ppt', 'application/vnd.ms-powerpoint', 'Microsoft PowerPoint 97-2003 presentation (read with LibreOffice)', 100, 'libreoffice',
    cfb((n) => n === 'PowerPoint Document', { target: 'pptx', debianPackage: 'libreoffice-impress' })),
  row('.msg', 'application/vnd.ms-outlook', 'Outlook message', 100, 'msg', cfb((n) => n === '__properties_version1.0' || n.startsWith('__substg1.0_'))),
  row('.rtf', 'application/rtf', 'Rich Text Format document', 50, 'rtf'),
  row('.eml', 'message/rfc822', 'Email message (MIME)', 50, 'eml', { recognition: 'email' }),
  row('.png', 'image/png', 'PNG image', 20, 'image'),
  row(['.jpg', '.jpeg'], 'image/jpeg', 'JPEG image', 20, 'image'),
  row(['.tiff', '.tif'], 'image/tiff', 'TIFF image', 20, 'image'),
  row('.webp', 'image/webp', 'WebP image', 20, 'image'),
  row('.bmp', 'image/bmp', 'BMP image', 20, 'image'),
  row('.gif', 'image/gif', 'GIF image', 20, 'image'),
  row('.heic', 'image/heic', 'HEIC photo', 20, 'image'),
  row('.heif', 'image/heif', 'HEIF image', 20, 'image'),
  row('.txt', 'text/plain', 'Plain text (UTF-8)', 20, 'text', TEXT),
  row('.md', 'text/markdown', 'Markdown (UTF-8)', 20, 'text', TEXT),
  row('.rst', 'text/x-rst', 'reStructuredText (UTF-8)', 20, 'rst', TEXT),
  row('.org', 'text/x-org', 'Org mode text (UTF-8)', 20, 'org', TEXT),
  row(['.html', '.htm'], 'text/html', 'HTML page (UTF-8)', 20, 'html', TEXT),
  row('.xml', 'application/xml', 'XML document (UTF-8)', 20, 'xml', TEXT),
  row('.json', 'application/json', 'JSON document (UTF-8)', 20, 'json', TEXT),
  row('.csv', 'text/csv', 'Comma-separated values (UTF-8)', 20, 'csv', TEXT),
  row('.tsv', 'text/tab-separated-values', 'Tab-separated values (UTF-8)', 20, 'tsv', TEXT),
];

const byMime = new Map(FORMATS.map((f) => [f.mime, f]));

/** The row of a stored MIME type. */
export function formatOf(mime: string): FormatRow | undefined {
  return byMime.get(mime);
}
