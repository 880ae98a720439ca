import { DOCUMENT_VERSION, type Section } from '@/lib/document/types';
import { ExtractionError, throwIfAborted, type ExtractedDocument, type ExtractInput } from '../types';
import { compactMetadata, corrupt, isoDate, readInputFile, refuseTooManyPages } from './common';
import { htmlDocument } from './html';
import { childElements, firstChild, readXmlPart, textOf } from './xml';
import { OfficeZip, resolvePartPath } from './zip';

/*
 * EPUB → the document model: the spine's documents in reading order, each read through the HTML
 * path (so chapters get the same cleaning and tables as HTML pages). Each spine document with
 * content is a chapter section numbered as a page (N counts those sections; the book's own page
 * numbers are not known), so the Markdown starts it with `<!-- page N -->` and passages can be
 * cited by chapter. Documents without content (an empty cover page) add nothing. Metadata from
 * the package document: title, author (creators), created_date, language, publisher. Entries are
 * read through the guarded zip reader; a book whose content documents are encrypted (DRM; font
 * obfuscation alone is fine) is ENCRYPTED_DOCUMENT.
 */

const HTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);

export async function readEpub(input: ExtractInput): Promise<ExtractedDocument> {
  throwIfAborted(input.signal);
  const zip = OfficeZip.open(await readInputFile(input), 'EPUB');
  const rootfile = childElements(firstChild(readXmlPart(zip, 'META-INF/container.xml'), 'rootfiles') ?? { name: '', attrs: {}, children: [] }, 'rootfile')[0];
  const opfPath = rootfile?.attrs['full-path'] ?? zip.names().find((n) => n.toLowerCase().endsWith('.opf'));
  const opf = opfPath ? readXmlPart(zip, opfPath) : undefined;
  if (!opfPath || !opf) throw corrupt('The EPUB file has no package document (META-INF/container.xml → .opf)');

  const manifest = new Map<string, { href: string; type: string }>();
  for (const item of childElements(firstChild(opf, 'manifest') ?? opf, 'item')) {
    if (item.attrs.id && item.attrs.href) {
      const href = decodeURIComponent(item.attrs.href.split('#')[0]);
      manifest.set(item.attrs.id, { href: resolvePartPath(opfPath, href), type: item.attrs['media-type'] ?? '' });
    }
  }
  const spine = childElements(firstChild(opf, 'spine') ?? opf, 'itemref')
    .map((ref) => manifest.get(ref.attrs.idref ?? ''))
    .filter((item): item is { href: string; type: string } => !!item && (HTML_TYPES.has(item.type) || /\.x?html?$/i.test(item.href)));
  refuseTooManyPages(spine.length, input.maxPages, 'chapters');

  const encryption = zip.text('META-INF/encryption.xml') ?? '';
  const encrypted = [...encryption.matchAll(/<(?:\w+:)?CipherReference[^>]*URI="([^"]+)"/g)].map((m) => decodeURIComponent(m[1]));
  if (spine.some((item) => encrypted.includes(item.href))) {
    throw new ExtractionError('ENCRYPTED_DOCUMENT', 'The EPUB file is encrypted (DRM-protected)');
  }

  const metadataEl = firstChild(opf, 'metadata');
  const dc = (name: string) => childElements(metadataEl ?? opf, name).map((el) => textOf(el).replace(/\s+/g, ' ').trim()).filter(Boolean);
  const metadata = compactMetadata({
    title: dc('title')[0],
    author: dc('creator').join(', ') || undefined,
    created_date: isoDate(dc('date')[0]),
    language: dc('language')[0],
    publisher: dc('publisher')[0],
  });

  const sections: Section[] = [];
  for (const [i, item] of spine.entries()) {
    throwIfAborted(input.signal);
    const html = zip.text(item.href);
    if (html === undefined) continue;
    const { blocks } = await htmlDocument(html);
    if (blocks.length) sections.push({ type: 'section', kind: 'chapter', page: sections.length + 1, content: blocks });
    input.onProgress(i + 1, spine.length);
  }
  return { document: { version: DOCUMENT_VERSION, metadata, blocks: sections }, totalPages: Math.max(sections.length, 1) };
}
