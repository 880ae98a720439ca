import http from 'node:http';
import https from 'node:https';
import { pipeline, Transform, type Readable, type TransformCallback } from 'node:stream';
import zlib from 'node:zlib';
import { parseIp } from '@/lib/auth/ip';
import { isLocalName, isPublicAddress, normaliseHostname, pinnedLookup, resolveTarget, systemLookup, type LookupFunction, type ResolvedTarget } from '@/lib/webhooks/ssrf';
import { ItemError, SourceError, type Fingerprint } from './types';

export { BlockedAddressError } from '@/lib/webhooks/ssrf';

/*
 * Outbound GET and HEAD for sources (crawled pages, sitemaps, robots.txt, single URLs). Every hop
 * (the first URL and each redirect) is resolved and checked by the private-address guard, and the
 * connection goes to the checked address, so neither a redirect nor a DNS answer that changes after
 * the check (rebinding) can reach an address the guard refused. Bodies are streamed, never buffered.
 */

export const USER_AGENT = 'Quarry/1.0 (+https://github.com/quarry; document sync)';
export const DEFAULT_TIMEOUT_MS = 30_000;
export const DEFAULT_MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
/** Sent to the first origin only: a redirect to another origin must not carry them. */
const ORIGIN_BOUND_HEADERS = ['authorization', 'cookie', 'proxy-authorization'];

export interface GuardedResponse {
  status: number;
  /** The final URL, after redirects. */
  url: string;
  /** As the server sent them, names in lower case. content-encoding and content-length describe the bytes on the wire, not the decoded body. */
  headers: Record<string, string>;
  /** The decoded body (empty for HEAD, 204 and 304). Read it or destroy it: the socket stays open until then. */
  body: Readable;
  /** Each URL a redirect led to, in order (the last one is `url`). */
  redirects: string[];
}

export interface GuardedRequest {
  method?: 'GET' | 'HEAD';
  headers?: Record<string, string>;
  /** Private, loopback and link-local addresses may be reached. */
  allowPrivate: boolean;
  /** Time allowed until the response headers, and the longest pause within the body (default 30 s). */
  timeoutMs?: number;
  maxRedirects?: number;
  /** Decoded body bytes allowed; beyond them the body stream errors with an ItemError. */
  maxBytes?: number;
  /**
   * false: a redirect is answered as it is (its status and Location, no body) instead of followed,
   * for a caller that treats the target as an item of its own (a crawl). Default true.
   */
  followRedirects?: boolean;
  signal?: AbortSignal;
}

/** Test seam: how host names are resolved (the system resolver by default). */
let lookupOverride: LookupFunction | undefined;
export function setSourceLookup(lookup: LookupFunction | undefined): void {
  lookupOverride = lookup;
}

export function sourceLookup(): LookupFunction {
  return lookupOverride ?? systemLookup;
}

/** The URL, when it is one a source may fetch: http or https, without credentials. Throws ItemError otherwise. */
export function parseFetchableUrl(input: string | URL): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new ItemError(`${String(input).slice(0, 200)} is not a valid URL`, 'SOURCE_URL_INVALID');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new ItemError(`${url.href.slice(0, 200)} is not an http or https URL`, 'SOURCE_URL_INVALID');
  }
  if (url.username || url.password) {
    throw new ItemError(`${url.host}: URLs with a user name or password are not fetched`, 'SOURCE_URL_INVALID');
  }
  return url;
}

/** Resolves and checks one hop's host (its refusals speak of sources). */
export async function resolveHop(url: URL, allowPrivate: boolean): Promise<ResolvedTarget> {
  return resolveTarget(url.hostname, { allowPrivate, lookup: sourceLookup(), subject: 'sources' });
}

/** How long saving a source waits for its host's name to resolve before accepting it unchecked. */
const SAVE_LOOKUP_TIMEOUT_MS = 3000;

/**
 * The check made when a source is saved: an address that is not public, a local name, or a name
 * resolving to a private address now is refused (SourceError SOURCE_ADDRESS_BLOCKED naming
 * `field`), unless private addresses are allowed. A name that does not resolve (yet) is accepted:
 * every request resolves and checks again.
 */
export async function checkSourceAddress(href: string, field: string, allowPrivate: boolean): Promise<void> {
  if (allowPrivate) return;
  let url: URL;
  try {
    url = parseFetchableUrl(href);
  } catch (err) {
    throw new SourceError(`${field}: ${(err as Error).message}`, 'SOURCE_URL_INVALID');
  }
  const host = normaliseHostname(url.hostname);
  const blocked = (why: string) => new SourceError(`${field}: ${why}; sources may not reach private, loopback, link-local or metadata addresses`, 'SOURCE_ADDRESS_BLOCKED');
  if (parseIp(host)) {
    if (!isPublicAddress(host)) throw blocked(`${host} is not a public address`);
    return;
  }
  if (isLocalName(host)) throw blocked(`${host} is a local host name`);
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), SAVE_LOOKUP_TIMEOUT_MS)));
  const addresses = await Promise.race([sourceLookup()(host).catch(() => null), timeout]).finally(() => clearTimeout(timer));
  const inside = addresses?.find((a) => !isPublicAddress(a.address));
  if (inside) throw blocked(`${host} resolves to ${inside.address}, which is not a public address`);
}

export async function guardedFetch(url: string, req: GuardedRequest): Promise<GuardedResponse> {
  const method = req.method ?? 'GET';
  const timeoutMs = req.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const maxRedirects = req.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const headers: Record<string, string> = {
    'user-agent': USER_AGENT,
    accept: '*/*',
    // HEAD asks for the identity encoding so that its Content-Length is the size a GET's decoded body has.
    'accept-encoding': method === 'HEAD' ? 'identity' : 'gzip, deflate, br',
  };
  for (const [name, value] of Object.entries(req.headers ?? {})) headers[name.toLowerCase()] = value;

  const first = parseFetchableUrl(url);
  let current = first;
  const redirects: string[] = [];
  for (;;) {
    req.signal?.throwIfAborted();
    const target = await resolveHop(current, req.allowPrivate);
    const res = await requestOnce(current, target, method, headers, timeoutMs, req.signal);
    const status = res.statusCode ?? 0;
    const location = res.headers.location;
    if (!REDIRECT_STATUSES.has(status) || !location || req.followRedirects === false) {
      return { status, url: current.href, headers: flattenHeaders(res.headers), body: bodyOf(res, { method, status, url: current.href, timeoutMs, maxBytes: req.maxBytes, signal: req.signal }), redirects };
    }
    res.destroy();
    if (redirects.length >= maxRedirects) throw new ItemError(`Too many redirects from ${first.href} (more than ${maxRedirects})`);
    let next: URL;
    try {
      next = new URL(location, current);
    } catch {
      throw new ItemError(`${current.href} redirects to an invalid URL (${location.slice(0, 200)})`);
    }
    next = parseFetchableUrl(next);
    if (next.origin !== current.origin) for (const name of ORIGIN_BOUND_HEADERS) delete headers[name];
    redirects.push(next.href);
    current = next;
  }
}

function requestOnce(
  url: URL,
  target: ResolvedTarget,
  method: string,
  headers: Record<string, string>,
  timeoutMs: number,
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    // Connect to the checked address only.
    const req = client.request(url, { method, headers, agent: false, lookup: pinnedLookup(target) as never });
    const onAbort = () => req.destroy(signal!.reason as Error);
    const settle = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onAbort);
    };
    const timer = setTimeout(() => req.destroy(new ItemError(`No response from ${url.href} within ${duration(timeoutMs)}`, 'SOURCE_TIMEOUT')), timeoutMs);
    signal?.addEventListener('abort', onAbort, { once: true });
    req.on('response', (res) => {
      settle();
      resolve(res);
    });
    req.on('error', (err) => {
      settle();
      reject(asItemError(err, url.href, signal));
    });
    req.end();
  });
}

/** The response's body, decoded, limited in size and in the pauses it may take. */
function bodyOf(
  res: http.IncomingMessage,
  opts: { method: string; status: number; url: string; timeoutMs: number; maxBytes?: number; signal?: AbortSignal },
): Readable {
  const body = new BodyStream(opts.url, opts.maxBytes, opts.signal);
  // An error while nobody reads yet (a stall before the caller starts) must not crash the process;
  // readers still see it (pipeline and async iteration report a stream's error).
  body.on('error', () => {});
  const empty = opts.method === 'HEAD' || opts.status === 204 || opts.status === 304;
  const decoders: Transform[] = [];
  if (!empty) {
    const encodings = (res.headers['content-encoding'] ?? '').split(',').map((e) => e.trim().toLowerCase()).filter((e) => e && e !== 'identity');
    // Encodings are listed in the order they were applied, so they are undone from the last.
    for (const encoding of encodings.reverse()) {
      const decoder = decoderFor(encoding);
      if (!decoder) {
        res.destroy();
        body.destroy(new ItemError(`${opts.url} is sent in an encoding Quarry cannot decode (${encoding})`));
        return body;
      }
      decoders.push(decoder);
    }
  }
  res.socket?.setTimeout(opts.timeoutMs, () => res.destroy(new ItemError(`The response from ${opts.url} stalled: nothing arrived for ${duration(opts.timeoutMs)}`, 'SOURCE_TIMEOUT')));
  const onAbort = () => res.destroy(opts.signal!.reason as Error);
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  body.once('close', () => opts.signal?.removeEventListener('abort', onAbort));
  pipeline([res, ...decoders, body], () => {});
  return body;
}

function decoderFor(encoding: string): Transform | null {
  if (encoding === 'gzip' || encoding === 'x-gzip') return zlib.createGunzip();
  if (encoding === 'deflate') return zlib.createInflate();
  if (encoding === 'br') return zlib.createBrotliDecompress();
  return null;
}

/** The last stage of a body: counts decoded bytes and turns whatever went wrong into an ItemError. */
class BodyStream extends Transform {
  private bytes = 0;

  constructor(
    private readonly url: string,
    private readonly maxBytes: number | undefined,
    private readonly signal: AbortSignal | undefined,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.maxBytes !== undefined && this.bytes > this.maxBytes) {
      callback(new ItemError(`${this.url} is larger than ${formatBytes(this.maxBytes)}`, 'SOURCE_ITEM_TOO_LARGE'));
      return;
    }
    callback(null, chunk);
  }

  override _destroy(err: Error | null, callback: (error?: Error | null) => void): void {
    callback(err ? asItemError(err, this.url, this.signal) : null);
  }
}

/** A plain ItemError for a network failure; ItemErrors and the caller's own abort reason pass unchanged. */
function asItemError(err: Error, url: string, signal: AbortSignal | undefined): Error {
  if (err instanceof ItemError) return err;
  if (signal?.aborted && (err === signal.reason || err.name === 'AbortError')) return err;
  const code = (err as NodeJS.ErrnoException).code;
  return new ItemError(`${code ? `${code}: ` : ''}${err.message} (${url})`.slice(0, 500));
}

function flattenHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value !== undefined) out[name] = Array.isArray(value) ? value.join(', ') : value;
  }
  return out;
}

function duration(ms: number): string {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${(ms / 1000).toFixed(1)} s`;
}

export function formatBytes(bytes: number): string {
  if (bytes >= 1024 * 1024 && bytes % (1024 * 1024) === 0) return `${bytes / (1024 * 1024)} MB`;
  if (bytes >= 1024 && bytes % 1024 === 0) return `${bytes / 1024} KB`;
  return `${bytes} bytes`;
}

/** Reads a body into one buffer, failing with an ItemError beyond `limit` bytes. */
export async function readBody(body: Readable, limit: number, url: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > limit) {
      body.destroy();
      throw new ItemError(`${url} is larger than ${formatBytes(limit)}`, 'SOURCE_ITEM_TOO_LARGE');
    }
    chunks.push(chunk);
  }
  return Buffer.concat(chunks);
}

/** What an HTTP answer says of its body's version: its ETag and Last-Modified. */
export function responseVersion(res: GuardedResponse): Pick<Fingerprint, 'etag' | 'last_modified'> {
  return { etag: res.headers.etag ?? null, last_modified: res.headers['last-modified'] ?? null };
}

/** The Content-Length, when it is the size of the decoded body (no content-encoding was applied). */
export function responseSize(res: GuardedResponse): number | null {
  const encoding = (res.headers['content-encoding'] ?? 'identity').trim().toLowerCase();
  const length = Number(res.headers['content-length']);
  return encoding === 'identity' && res.headers['content-length'] !== undefined && Number.isSafeInteger(length) && length >= 0 ? length : null;
}
