import { Parser } from 'htmlparser2';
import { normaliseUrl } from './urls';

/*
 * What a crawl needs from an HTML page: where it links, which URL it names as canonical, and
 * whether it asks robots not to index it or not to follow its links. Only <a href> links count:
 * stylesheets, scripts and images are not documents to index.
 */

export interface PageFacts {
  /** Normalised absolute http(s) URLs, in document order, without duplicates. */
  links: string[];
  /** The normalised canonical URL, when the page names one. */
  canonical: string | null;
  noindex: boolean;
  nofollow: boolean;
}

/** The meta names a page addresses robots by: all of them, or Quarry by name. */
const ROBOTS_META_NAMES = new Set(['robots', 'quarry']);

export function readPage(html: string, pageUrl: string): PageFacts {
  const hrefs: string[] = [];
  let baseHref: string | null = null;
  let canonicalHref: string | null = null;
  const directives = new Set<string>();
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (name === 'a' || name === 'area') {
          if (attribs.href === undefined || relTokens(attribs.rel).has('nofollow')) return;
          hrefs.push(attribs.href);
        } else if (name === 'base') {
          // Only the first <base href> counts, and it applies to links before it too.
          if (baseHref === null && attribs.href !== undefined) baseHref = attribs.href;
        } else if (name === 'link') {
          if (canonicalHref === null && attribs.href !== undefined && relTokens(attribs.rel).has('canonical')) canonicalHref = attribs.href;
        } else if (name === 'meta') {
          if (ROBOTS_META_NAMES.has((attribs.name ?? '').trim().toLowerCase())) {
            for (const directive of robotsDirectives(attribs.content ?? '')) directives.add(directive);
          }
        }
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();

  const base = (baseHref !== null && normaliseUrl(baseHref, pageUrl)) || pageUrl;
  const links: string[] = [];
  const seen = new Set<string>();
  for (const href of hrefs) {
    // javascript:, mailto:, tel:, data: and the like normalise to null.
    const url = normaliseUrl(href, base);
    if (url && !seen.has(url)) {
      seen.add(url);
      links.push(url);
    }
  }
  return {
    links,
    canonical: canonicalHref !== null ? normaliseUrl(canonicalHref, base) : null,
    noindex: directives.has('noindex') || directives.has('none'),
    nofollow: directives.has('nofollow') || directives.has('none'),
  };
}

function relTokens(rel: string | undefined): Set<string> {
  return new Set((rel ?? '').toLowerCase().split(/\s+/).filter(Boolean));
}

/** "noindex, nofollow" → noindex, nofollow. */
export function robotsDirectives(content: string): string[] {
  return content
    .toLowerCase()
    .split(',')
    .map((d) => d.trim())
    .filter(Boolean);
}

/**
 * The directives of X-Robots-Tag meant for every robot or for Quarry ("noindex", "quarry:
 * nofollow"); those after another robot's name ("googlebot: noindex, nofollow") are ignored.
 */
export function headerDirectives(header: string | undefined): Set<string> {
  const out = new Set<string>();
  let agent: string | null = null;
  for (const part of (header ?? '').split(',')) {
    let directive = part.trim().toLowerCase();
    const named = /^([a-z0-9_-]+)\s*:\s*(.*)$/.exec(directive);
    // "unavailable_after: <date>" and "max-snippet: 20" have a colon too, but name no robot.
    if (named && named[1] !== 'unavailable_after' && !named[1].startsWith('max-')) {
      agent = named[1];
      directive = named[2].trim();
    }
    if (directive && (agent === null || agent === 'quarry')) out.add(directive);
  }
  return out;
}
