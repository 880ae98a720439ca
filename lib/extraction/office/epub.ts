import { ExtractionError, pageMarker, throwIfAborted, type ExtractInput, type ExtractResult } from '../types';
import { compactMetadata, corrupt, finishMarkdown, isoDate, readInputFile, refuseTooManyPages } from './common';
import { convertHtml } from './html';
import { childElements, firstChild, readXmlPart, textOf } from './xml';
import { OfficeZip, resolvePartPath } from './zip';

/*
 * EPUB → Markdown: the spine's documents in reading order, each converted through the HTML path
 * (so chapters get the same cleaning and tables as HTML pages). Each spine document with text is
 * a section starting with `<!-- page N -->` (N counts those sections; the book's own page numbers
 * are not known), so passages can be cited by chapter. Documents without text (a cover image)
 * add nothing. Metadata from the package document: title, author (creators), created_date,
 * language, publisher. Entries are read through the guarded zip reader; a book whose content
 * documents are encrypted (DRM; font obfuscation alone is fine) is ENCRYPTED_DOCUMENT.
 */

const HTML_TYPES = new Set(['application/xhtml+xml', 'text/html']);

export async function extractEpub(input: ExtractInput): Promise<ExtractResult> {
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

  const sections: string[] = [];
  for (const [i, item] of spine.entries()) {
    throwIfAborted(input.signal);
    const html = zip.text(item.href);
    if (html === undefined) continue;
    const { markdown } = await convertHtml(html);
    if (markdown.trim()) sections.push(`${pageMarker(sections.length + 1)}\n\n${markdown.trim()}`);
    input.onProgress(i + 1, spine.length);
  }
  return { markdown: finishMarkdown(sections.join('\n\n')), totalPages: Math.max(sections.length, 1), metadata };
}
