import { Readable } from 'node:stream';
import { extensionOf, typeByExtension, typeByMime } from '@/lib/files/types';
import { BlockedAddressError, guardedFetch, parseFetchableUrl, readBody, responseSize, responseVersion, type GuardedRequest, type GuardedResponse } from '@/lib/sources/http';
import { ItemError, knownFields, type FetchResult, type Fingerprint, type ItemRef, type SourceCallContext, type StoredItem } from '@/lib/sources/types';
import type { WebConfig } from './config';
import { headerDirectives, readPage } from './links';
import { politeTurn, robotsRules, robotsVerdict, type RobotsRules } from './robots';
import { filenameFor, lastSegmentName, normaliseUrl, reachOf, withinReach, type Reach } from './urls';

/*
 * Fetching one crawled item. An HTML page is read whole (it is small, and its links and canonical
 * are needed before deciding what it is); any other document Quarry can extract is streamed
 * through to the engine. What cannot be indexed (a stylesheet, an archive) is skipped.
 */

const MAX_PAGE_BYTES = 10 * 1024 * 1024;
const MAX_DOCUMENT_BYTES = 512 * 1024 * 1024;
const HTML_TYPES = new Set(['text/html', 'application/xhtml+xml']);
/** Content types servers send for formats the file registry knows under another name. */
const MIME_ALIASES: Record<string, string> = { 'text/xml': 'application/xml', 'application/x-pdf': 'application/pdf', 'text/x-markdown': 'text/markdown' };
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);
const ACCEPT = 'text/html,application/xhtml+xml;q=0.9,*/*;q=0.8';
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export async function fetchPage(config: WebConfig, item: ItemRef, previous: StoredItem | null, ctx: SourceCallContext): Promise<FetchResult> {
  const { url, rules, refusal } = await admission(item, ctx);
  if (refusal) return { kind: 'skipped', reason: refusal };
  const reach = reachOf(config);
  const headers: Record<string, string> = { accept: ACCEPT };
  if (previous?.fingerprint.etag) headers['if-none-match'] = previous.fingerprint.etag;
  if (previous?.fingerprint.last_modified) headers['if-modified-since'] = previous.fingerprint.last_modified;
  await politeTurn(url, rules, ctx);
  const res = await request(url.href, { headers, maxBytes: MAX_DOCUMENT_BYTES, followRedirects: false }, ctx);
  const self = normaliseUrl(url.href)!;

  const moved = movedElsewhere(res, self, item, reach);
  const ok = res.status >= 200 && res.status < 300;
  if (moved || !ok) res.body.destroy();
  if (moved) return moved;
  if (res.status === 404 || res.status === 410) return { kind: 'gone' };
  if (res.status === 304 && previous) {
    return {
      kind: 'unchanged',
      fingerprint: { ...previous.fingerprint, ...knownFields(responseVersion(res)) },
      links: await followable(previous.links, self, item, config, reach, ctx),
    };
  }
  if (!ok) throw new ItemError(`HTTP ${res.status} from ${res.url}`);

  const robotsTag = headerDirectives(res.headers['x-robots-tag']);
  if (robotsTag.has('noindex') || robotsTag.has('none')) {
    res.body.destroy();
    return { kind: 'skipped', reason: 'the page asks not to be indexed (noindex)' };
  }
  const declared = mimeOf(res.headers['content-type']);
  const nameType = typeByExtension(extensionOf(lastSegmentName(res.url)));
  const mime = UNTYPED.has(declared) ? (nameType?.mime_type ?? declared) : (MIME_ALIASES[declared] ?? declared);

  if (HTML_TYPES.has(mime)) {
    const bytes = await readBody(res.body, MAX_PAGE_BYTES, res.url);
    const page = readPage(bytes.toString('utf8'), res.url);
    if (page.canonical && page.canonical !== self && withinReach(page.canonical, reach)) {
      return { kind: 'alias', canonical: { key: page.canonical, url: page.canonical, depth: item.depth ?? 0 } };
    }
    // A skipped item carries no links, so a noindex page's links are not followed either.
    if (page.noindex) return { kind: 'skipped', reason: 'the page asks not to be indexed (noindex)' };
    const nofollow = page.nofollow || robotsTag.has('nofollow') || robotsTag.has('none');
    return {
      kind: 'content',
      body: Readable.from([bytes], { objectMode: false }),
      contentType: res.headers['content-type'] ?? null,
      filename: filenameFor(res.url, typeByMime('text/html')!),
      fingerprint: { ...responseVersion(res), size: bytes.length },
      links: nofollow ? [] : await followable(page.links, self, item, config, reach, ctx),
    };
  }

  const type = typeByMime(mime, nameType);
  if (!type) {
    res.body.destroy();
    return { kind: 'skipped', reason: `not a document Quarry can index (${declared || 'no content type'})` };
  }
  return {
    kind: 'content',
    body: res.body,
    contentType: res.headers['content-type'] ?? null,
    filename: filenameFor(res.url, type),
    fingerprint: { ...responseVersion(res), size: responseSize(res) },
    links: [],
  };
}

/**
 * HEAD, or a GET whose body is dropped when the server does not answer HEAD. An item robots.txt
 * keeps out, or one that now redirects, gets an empty fingerprint: it matches no stored version,
 * so the engine fetches it, and fetch says what became of it.
 */
export async function fingerprintPage(item: ItemRef, ctx: SourceCallContext): Promise<Fingerprint | null> {
  const { url, rules, refusal } = await admission(item, ctx);
  if (refusal) return {};
  await politeTurn(url, rules, ctx);
  let res = await request(url.href, { method: 'HEAD', headers: { accept: ACCEPT } }, ctx);
  if (res.status === 405 || res.status === 501) {
    res.body.destroy();
    await politeTurn(url, rules, ctx);
    res = await request(url.href, { headers: { accept: ACCEPT } }, ctx);
  }
  res.body.destroy();
  if (res.redirects.length > 0 && normaliseUrl(res.url) !== normaliseUrl(url.href)) return {};
  if (res.status === 404 || res.status === 410) return null;
  if (res.status < 200 || res.status >= 300) throw new ItemError(`HTTP ${res.status} from ${res.url}`);
  return { ...responseVersion(res), size: responseSize(res) };
}

/** The item's URL and its origin's robots.txt rules, with the reason they keep it out, if they do. */
async function admission(item: ItemRef, ctx: SourceCallContext): Promise<{ url: URL; rules: RobotsRules; refusal: string | null }> {
  const url = parseFetchableUrl(item.url);
  const rules = await robotsRules(url, ctx);
  return { url, rules, refusal: robotsVerdict(rules, url.href) };
}

async function request(url: string, opts: Omit<GuardedRequest, 'allowPrivate'>, ctx: SourceCallContext): Promise<GuardedResponse> {
  try {
    return await guardedFetch(url, { ...opts, allowPrivate: ctx.allowPrivate, signal: ctx.signal });
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new ItemError(err.message, 'SOURCE_ADDRESS_BLOCKED');
    throw err;
  }
}

/**
 * For a redirect (not followed: its target is an item of its own, fetched once even when several
 * pages redirect to it): an alias to the target when it is within reach, else a skip.
 */
function movedElsewhere(res: GuardedResponse, self: string, item: ItemRef, reach: Reach): FetchResult | null {
  const location = res.headers.location;
  if (!REDIRECTS.has(res.status) || !location) return null;
  const target = normaliseUrl(location, res.url);
  if (!target) return { kind: 'skipped', reason: `redirects to an address that is not a web page (${location.slice(0, 200)})` };
  if (target === self) return { kind: 'skipped', reason: 'redirects to itself' };
  if (!withinReach(target, reach)) return { kind: 'skipped', reason: `redirects outside the crawl to ${target}` };
  return { kind: 'alias', canonical: { key: target, url: target, depth: item.depth ?? 0 } };
}

/**
 * The links a crawl follows from an item: within reach, not the item itself, allowed by
 * robots.txt, and only while the next depth is within max_depth.
 */
async function followable(links: string[], self: string, item: ItemRef, config: WebConfig, reach: Reach, ctx: SourceCallContext): Promise<ItemRef[]> {
  const depth = (item.depth ?? 0) + 1;
  if (depth > config.max_depth) return [];
  const out: ItemRef[] = [];
  const seen = new Set<string>([self]);
  for (const link of links) {
    const key = normaliseUrl(link);
    if (!key || seen.has(key) || !withinReach(key, reach)) continue;
    seen.add(key);
    if (robotsVerdict(await robotsRules(new URL(key), ctx), key) !== null) continue;
    out.push({ key, url: key, depth });
  }
  return out;
}

function mimeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0].trim().toLowerCase();
}
