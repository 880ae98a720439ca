import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { buildPdf, paragraph, type PdfText } from '@/lib/extraction/pdf/run/writer';

/*
 * A small website on 127.0.0.1 for crawl tests (the web source's, the sync engine's, the
 * dashboard's). Every page has a few sentences of real text with a distinctive word, so a search
 * test can find what the crawl indexed. What each page is there to test:
 *
 *   /docs/                 the start page: links to everything below, and to what a crawl must leave out
 *   /docs/intro.html       depth 1 ("heliotrope"); links deeper, /docs/deep/level2.html → level3 → level4
 *   /docs/guide.html       has an ETag and a Last-Modified, answers 304 to a matching conditional GET ("marzipan");
 *                          the only page linking /docs/appendix.html ("quince"), to test links of an unchanged page
 *   /docs/old.html         301 to /docs/guide.html
 *   /docs/moved            302 to /docs/intro.html
 *   /docs/missing.html     linked, but 404
 *   /docs/alias.html       its canonical link names /docs/intro.html
 *   /docs/noindex.html     <meta name="robots" content="noindex">
 *   /docs/nofollow.html    exists, but only linked with rel="nofollow"
 *   /docs/manual.pdf       a one-page PDF with text ("tamarind")
 *   /docs/style.css        a stylesheet linked with <a>: not a document
 *   /docs/private/secret.html  disallowed by robots.txt
 *   /blog/x.html           outside the /docs/ prefix
 *   /robots.txt            disallows /docs/private/, names the sitemap
 *   /sitemap.xml           intro, guide, manual.pdf and a page on another host
 *   /sitemap-index.xml     a sitemap index naming /sitemap.xml and /sitemap-blog.xml
 *   /sitemap-blog.xml      /blog/x.html (outside /docs/)
 *
 * Conditional requests: a page with an etag answers 304 to If-None-Match naming it; one with
 * lastModified answers 304 to an If-Modified-Since at or after it. HEAD gets the headers only.
 */

export interface SitePage {
  body: string | Uint8Array;
  contentType?: string;
  etag?: string;
  status?: number;
  /** An HTTP date. */
  lastModified?: string;
  /** For a redirect (with status 301, 302, …). */
  location?: string;
  headers?: Record<string, string>;
  /** The methods the page answers; others get 405 (default: all). */
  methods?: string[];
}

export interface SiteRequest {
  method: string;
  /** The request target, query included. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** When it arrived (Date.now()). */
  at: number;
}

export interface Site {
  /** The origin, without a trailing slash: http://127.0.0.1:PORT */
  url: string;
  requests: SiteRequest[];
  setPage(path: string, page: SitePage): void;
  removePage(path: string): void;
  close(): Promise<void>;
}

const HTML = 'text/html; charset=utf-8';
const GUIDE_MODIFIED = 'Tue, 02 Jan 2024 10:00:00 GMT';

function page(title: string, paragraphs: string[], extra = '', head = ''): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>${title}</title>${head}</head>
<body>
<h1>${title}</h1>
${paragraphs.map((p) => `<p>${p}</p>`).join('\n')}
${extra}
</body>
</html>
`;
}

/** A one-page PDF with a heading and two paragraphs, written by the test PDF writer. */
export function manualPdf(): Uint8Array {
  const texts: PdfText[] = [{ x: 72, y: 720, text: 'Quarry field manual', size: 16, font: 'bold' }];
  let y = 690;
  for (const text of [
    'The tamarind procedure describes how a crawler visits a documentation site and keeps its copy current.',
    'Each page is fetched once per sync, and a page that has not changed is answered with a short reply instead of its full text.',
  ]) {
    const para = paragraph(text, { x: 72, y, width: 468, size: 11 });
    texts.push(...para.texts);
    y = para.y;
  }
  return buildPdf([{ texts }], { title: 'Quarry field manual', author: 'Quarry tests' });
}

function defaultPages(origin: string): Map<string, SitePage> {
  const pages = new Map<string, SitePage>();
  const html = (path: string, body: string, more: Partial<SitePage> = {}) => pages.set(path, { body, contentType: HTML, ...more });

  html(
    '/docs/',
    page(
      'Quarry documentation',
      [
        'Welcome to the documentation of the orchard cooperative. These pages explain how the cooperative records its harvest and shares it with members.',
        'Start with the introduction, then read the guide. The field manual is available as a PDF for printing.',
      ],
      `<ul>
<li><a href="intro.html">Introduction</a></li>
<li><a href="/docs/guide.html">Guide</a></li>
<li><a href="manual.pdf">Field manual (PDF)</a></li>
<li><a href="https://elsewhere.example/page.html">A page on another site</a></li>
<li><a href="nofollow.html" rel="nofollow">Not to be followed</a></li>
<li><a href="/blog/x.html">The blog, outside the documentation</a></li>
<li><a href="private/secret.html">Private notes</a></li>
<li><a href="mailto:orchard@example.com">Write to us</a></li>
<li><a href="javascript:void(0)">A script link</a></li>
<li><a href="#contents">Back to the contents</a></li>
<li><a href="intro.html#history">The history section of the introduction</a></li>
<li><a href="old.html">The old guide address</a></li>
<li><a href="moved">A moved page</a></li>
<li><a href="missing.html">A page that no longer exists</a></li>
<li><a href="alias.html">A copy of the introduction</a></li>
<li><a href="noindex.html">A page that asks not to be indexed</a></li>
<li><a href="style.css">The stylesheet</a></li>
</ul>`,
      '<link rel="stylesheet" href="style.css">',
    ),
  );
  html(
    '/docs/intro.html',
    page(
      'Introduction',
      [
        'The cooperative was founded by growers who painted their sheds heliotrope so that visitors could find them.',
        'Every autumn the members weigh their apples and pears and write the totals in a shared ledger.',
      ],
      '<h2 id="history">History</h2><p>The heliotrope sheds still stand at the edge of the valley.</p><p><a href="deep/level2.html">Go deeper</a></p>',
    ),
  );
  html('/docs/deep/level2.html', page('Level two', ['The second level describes the cellar, where crates of russet apples rest through the winter.'], '<a href="level3.html">Deeper still</a>'));
  html('/docs/deep/level3.html', page('Level three', ['The third level describes the press, which turns windfalls into a cloudy juice called verjuice.'], '<a href="level4.html">The deepest page</a>'));
  html('/docs/deep/level4.html', page('Level four', ['The fourth level is so deep that a shallow crawl never reaches it; it mentions the obsidian key to the cellar.']));
  html(
    '/docs/guide.html',
    page(
      'Guide',
      [
        'The guide explains how to record a harvest. Weigh each crate, note the variety, and add a marzipan-coloured label to crates of late pears.',
        'The appendix lists every variety the cooperative grows.',
      ],
      '<p><a href="appendix.html">Appendix</a></p>',
    ),
    { etag: '"guide-v1"', lastModified: GUIDE_MODIFIED },
  );
  html('/docs/appendix.html', page('Appendix', ['The appendix lists the varieties: Cox, Bramley, Conference and the rare quince-scented Sheep’s Nose.']));
  pages.set('/docs/old.html', { status: 301, location: '/docs/guide.html', body: '' });
  pages.set('/docs/moved', { status: 302, location: `${origin}/docs/intro.html`, body: '' });
  html('/docs/alias.html', page('Introduction (copy)', ['This copy of the introduction exists for old bookmarks; heliotrope sheds and all.'], '', '<link rel="canonical" href="/docs/intro.html">'));
  html('/docs/noindex.html', page('Drafts', ['Draft notes about the saffron trial, not yet ready to be found.'], '<a href="appendix.html">Appendix</a>', '<meta name="robots" content="noindex">'));
  html('/docs/nofollow.html', page('Not followed', ['A page reached only through a nofollow link; it mentions the vermilion gate.']));
  html('/docs/private/secret.html', page('Secret', ['The combination of the cellar lock, which robots must never read: cobalt.']));
  html('/blog/x.html', page('Blog post', ['A blog post outside the documentation, about the juniper hedge.']));
  pages.set('/docs/manual.pdf', { body: manualPdf(), contentType: 'application/pdf', etag: '"manual-v1"' });
  pages.set('/docs/style.css', { body: 'body { font-family: serif; color: #333; }\n', contentType: 'text/css' });
  pages.set('/robots.txt', { body: `User-agent: *\nDisallow: /docs/private/\n\nSitemap: ${origin}/sitemap.xml\n`, contentType: 'text/plain' });
  const urlset = (locs: string[]) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((l) => `  <url><loc>${l}</loc></url>`).join('\n')}\n</urlset>\n`;
  pages.set('/sitemap.xml', {
    body: urlset([`${origin}/docs/intro.html`, `${origin}/docs/guide.html`, `${origin}/docs/manual.pdf`, 'https://elsewhere.example/sitemap-page.html']),
    contentType: 'application/xml',
  });
  pages.set('/sitemap-blog.xml', { body: urlset([`${origin}/blog/x.html`]), contentType: 'application/xml' });
  pages.set('/sitemap-index.xml', {
    body: `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n  <sitemap><loc>${origin}/sitemap.xml</loc></sitemap>\n  <sitemap><loc>${origin}/sitemap-blog.xml</loc></sitemap>\n</sitemapindex>\n`,
    contentType: 'application/xml',
  });
  return pages;
}

function notModified(req: http.IncomingMessage, p: SitePage): boolean {
  const inm = req.headers['if-none-match'];
  if (p.etag && inm) return inm.split(',').some((tag) => tag.trim() === p.etag || tag.trim() === '*');
  const ims = req.headers['if-modified-since'];
  if (p.lastModified && ims && !inm) return Date.parse(ims) >= Date.parse(p.lastModified);
  return false;
}

export async function startSite(): Promise<Site> {
  const requests: SiteRequest[] = [];
  let pages = new Map<string, SitePage>();
  const server = http.createServer((req, res) => {
    const target = req.url ?? '/';
    requests.push({ method: req.method ?? '', path: target, headers: req.headers, at: Date.now() });
    const p = pages.get(new URL(target, 'http://site').pathname);
    if (!p) {
      res.writeHead(404, { 'content-type': HTML });
      res.end(req.method === 'HEAD' ? undefined : page('Not found', ['There is no page at this address.']));
      return;
    }
    if (p.methods && !p.methods.includes(req.method ?? '')) {
      res.writeHead(405, { allow: p.methods.join(', ') });
      res.end();
      return;
    }
    const headers: Record<string, string> = { ...p.headers };
    if (p.contentType) headers['content-type'] = p.contentType;
    if (p.etag) headers.etag = p.etag;
    if (p.lastModified) headers['last-modified'] = p.lastModified;
    if (p.location) headers.location = p.location;
    if ((p.status ?? 200) === 200 && notModified(req, p)) {
      res.writeHead(304, headers);
      res.end();
      return;
    }
    const body = typeof p.body === 'string' ? Buffer.from(p.body) : Buffer.from(p.body);
    headers['content-length'] = String(body.length);
    res.writeHead(p.status ?? 200, headers);
    res.end(req.method === 'HEAD' ? undefined : body);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  pages = defaultPages(origin);
  return {
    url: origin,
    requests,
    setPage: (path, p) => pages.set(path, p),
    removePage: (path) => pages.delete(path),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
