import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
import { Parser } from 'htmlparser2';
import { BlockedAddressError, guardedFetch } from '@/lib/sources/http';
import { ItemError, SourceError, type SourceCallContext } from '@/lib/sources/types';

/*
 * Sitemaps (sitemaps.org): a <urlset> of <url><loc>, or a <sitemapindex> of <sitemap><loc> whose
 * sitemaps are read in turn, one level deep. A sitemap that cannot be read fails the listing, and
 * so the sync: with part of the site missing from the list, the engine would otherwise take its
 * pages for deleted. Compressed (.xml.gz) sitemaps are not read.
 */

/** The protocol's own limit for one sitemap file. */
const MAX_SITEMAP_BYTES = 50 * 1024 * 1024;
/** Sitemaps read from one index. */
export const MAX_SITEMAPS = 50;

interface ParsedSitemap {
  kind: 'urlset' | 'sitemapindex';
  locs: string[];
}

/** Every page URL the sitemap (or the sitemaps of the index) lists, as written there. */
export async function* sitemapLocations(sitemapUrl: string, ctx: Pick<SourceCallContext, 'allowPrivate' | 'signal'>): AsyncGenerator<string> {
  const root = await readSitemap(sitemapUrl, ctx);
  if (root.kind === 'urlset') {
    yield* root.locs;
    return;
  }
  for (const child of root.locs.slice(0, MAX_SITEMAPS)) {
    if (!URL.canParse(child, sitemapUrl)) continue;
    const sitemap = await readSitemap(new URL(child, sitemapUrl).href, ctx);
    // An index within an index is beyond the one level followed.
    if (sitemap.kind === 'urlset') yield* sitemap.locs;
  }
}

async function readSitemap(url: string, ctx: Pick<SourceCallContext, 'allowPrivate' | 'signal'>): Promise<ParsedSitemap> {
  try {
    const res = await guardedFetch(url, {
      allowPrivate: ctx.allowPrivate,
      signal: ctx.signal,
      maxBytes: MAX_SITEMAP_BYTES,
      headers: { accept: 'application/xml, text/xml;q=0.9, */*;q=0.5' },
    });
    if (res.status < 200 || res.status >= 300) {
      res.body.destroy();
      throw new SourceError(`The sitemap ${url} could not be read (HTTP ${res.status})`);
    }
    const parsed = await parseSitemap(res.body);
    if (!parsed) throw new SourceError(`${url} is not a sitemap (its root element is neither <urlset> nor <sitemapindex>)`, 'SOURCE_SITEMAP_INVALID');
    return parsed;
  } catch (err) {
    if (err instanceof SourceError || ctx.signal?.aborted) throw err;
    if (err instanceof BlockedAddressError) throw new SourceError(`The sitemap ${url} may not be read: ${err.message}`, 'SOURCE_ADDRESS_BLOCKED');
    if (err instanceof ItemError) throw new SourceError(`The sitemap ${url} could not be read: ${err.message}`);
    throw err;
  }
}

/** Streams the XML through the parser, keeping only the <loc> texts; null when it is not a sitemap. */
async function parseSitemap(body: Readable): Promise<ParsedSitemap | null> {
  let kind: ParsedSitemap['kind'] | null = null;
  let rootSeen = false;
  const locs: string[] = [];
  const stack: string[] = [];
  let text = '';
  // Sitemaps may use a namespace prefix (<sm:url>); the local name is what matters.
  const local = (name: string) => name.slice(name.indexOf(':') + 1).toLowerCase();
  const parser = new Parser(
    {
      onopentag(name) {
        const tag = local(name);
        if (!rootSeen) {
          rootSeen = true;
          if (tag === 'urlset' || tag === 'sitemapindex') kind = tag;
        }
        stack.push(tag);
        if (tag === 'loc') text = '';
      },
      ontext(data) {
        if (stack.at(-1) === 'loc') text += data;
      },
      onclosetag(name) {
        const tag = local(name);
        stack.pop();
        const entry = kind === 'urlset' ? 'url' : 'sitemap';
        if (tag === 'loc' && stack.length === 2 && stack[1] === entry && text.trim()) locs.push(text.trim());
      },
    },
    { xmlMode: true, decodeEntities: true, recognizeCDATA: true },
  );
  const decoder = new StringDecoder('utf8');
  for await (const chunk of body as AsyncIterable<Buffer>) {
    parser.write(decoder.write(chunk));
    if (rootSeen && !kind) {
      body.destroy();
      return null;
    }
  }
  parser.end(decoder.end());
  return kind ? { kind, locs } : null;
}
