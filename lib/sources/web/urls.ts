import { extensionOf, typeByExtension, type FileTypeEntry } from '@/lib/files/types';
import type { WebConfig } from './config';

/*
 * URLs as a crawl compares them. An item's key is its normalised URL: scheme and host in lower
 * case, no default port, no fragment, '/' for an empty path, the query as the page wrote it.
 * WHATWG URL parsing does all but the fragment, and also resolves dot segments and percent-encodes
 * what must be, so two spellings of one address end up equal.
 */

/** The normalised form of an http(s) URL (resolved against `base`), or null for anything else. */
export function normaliseUrl(href: string, base?: string | URL): string | null {
  let url: URL;
  try {
    url = new URL(href.trim(), base);
  } catch {
    return null;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
  if (url.username || url.password) return null;
  url.hash = '';
  return url.href;
}

/** Where a crawl may go: one host and port, paths under one prefix. */
export interface Reach {
  hostname: string;
  port: string;
  prefix: string;
}

function effectivePort(url: URL): string {
  return url.port || (url.protocol === 'https:' ? '443' : '80');
}

/** The directory of a URL's path: /docs/guide/intro.html → /docs/guide/, /docs → /. */
export function directoryOf(url: URL): string {
  return url.pathname.slice(0, url.pathname.lastIndexOf('/') + 1) || '/';
}

/** The start URL (or the sitemap's, without one) decides the host and port, and the default prefix. */
export function reachOf(config: Pick<WebConfig, 'start_url' | 'sitemap_url' | 'path_prefix'>): Reach {
  const anchor = new URL((config.start_url ?? config.sitemap_url)!);
  return { hostname: anchor.hostname, port: effectivePort(anchor), prefix: config.path_prefix ?? directoryOf(anchor) };
}

/**
 * True when the (normalised) URL is on the reach's host and port and its path is under the
 * prefix. The prefix's own directory without its slash (/docs for /docs/) counts as under it.
 */
export function withinReach(href: string, reach: Reach): boolean {
  let url: URL;
  try {
    url = new URL(href);
  } catch {
    return false;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false;
  if (url.hostname !== reach.hostname || effectivePort(url) !== reach.port) return false;
  return url.pathname.startsWith(reach.prefix) || (reach.prefix.endsWith('/') && `${url.pathname}/` === reach.prefix);
}

/** The URL's last path segment, decoded, as a safe file name ('index' for a directory). */
export function lastSegmentName(href: string): string {
  const path = new URL(href).pathname;
  const raw = path.slice(path.lastIndexOf('/') + 1);
  let name: string;
  try {
    name = decodeURIComponent(raw);
  } catch {
    name = raw;
  }
  // eslint-disable-next-line no-control-regex
  name = name.replace(/[/\\\u0000-\u001f\u007f]/g, '').trim();
  if (name === '' || name === '.' || name === '..') return 'index';
  return name.slice(0, 200);
}

/**
 * A file name for the item: its last segment, with the type's extension added when the segment
 * does not already carry an extension of that type (Quarry recognises text formats, HTML among
 * them, by their extension).
 */
export function filenameFor(href: string, type: Pick<FileTypeEntry, 'extension' | 'mime_type'>): string {
  const name = lastSegmentName(href);
  const own = typeByExtension(extensionOf(name));
  return own?.mime_type === type.mime_type ? name : `${name}${type.extension}`;
}
