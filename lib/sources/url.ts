import { z } from 'zod';
import { extensionOf, typeByExtension, typeByMime } from '@/lib/files/types';
import { BlockedAddressError, checkSourceAddress, guardedFetch, responseSize, responseVersion, type GuardedResponse } from './http';
import { ItemError, knownFields, type FetchResult, type Fingerprint, type ItemRef, type SourceCallContext, type SourceType } from './types';
import { filenameFor, lastSegmentName, normaliseUrl } from './web/urls';

/*
 * One URL (a PDF, a page), fetched again on each sync with If-None-Match / If-Modified-Since, so
 * an unchanged document costs one request that returns no body. Redirects are followed to the
 * document (it keeps the URL it was given); no links are followed and robots.txt, which speaks
 * to crawlers, is not consulted for an address a person chose.
 */

const MAX_BYTES = 512 * 1024 * 1024;
const UNTYPED = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'application/unknown']);

export const urlConfig = z.object({
  url: z
    .url({ protocol: /^https?$/, error: 'url must be an http or https URL' })
    .max(2048, 'url must be at most 2048 characters')
    .meta({ description: 'The document or page', example: 'https://example.com/handbook.pdf' }),
});
export type UrlConfig = z.infer<typeof urlConfig>;

function keyOf(config: UrlConfig): string {
  return normaliseUrl(config.url) ?? config.url;
}

async function request(url: string, method: 'GET' | 'HEAD', headers: Record<string, string>, ctx: SourceCallContext): Promise<GuardedResponse> {
  try {
    return await guardedFetch(url, { method, headers, allowPrivate: ctx.allowPrivate, maxBytes: MAX_BYTES, signal: ctx.signal });
  } catch (err) {
    if (err instanceof BlockedAddressError) throw new ItemError(err.message, 'SOURCE_ADDRESS_BLOCKED');
    throw err;
  }
}

/** The answer's version and (when not compressed) its size. */
function fingerprintOf(res: GuardedResponse): Fingerprint {
  return { ...responseVersion(res), size: responseSize(res) };
}

/** The file type the answer holds, by its Content-Type, or by the URL's extension when it has none. */
function documentType(res: GuardedResponse) {
  const declared = (res.headers['content-type'] ?? '').split(';')[0].trim().toLowerCase();
  const byName = typeByExtension(extensionOf(lastSegmentName(res.url)));
  if (UNTYPED.has(declared)) return { declared, type: byName };
  return { declared, type: typeByMime(declared, byName) ?? (declared === 'application/xhtml+xml' ? typeByMime('text/html') : undefined) };
}

export const urlSource: SourceType<UrlConfig, null> = {
  type: 'url',
  label: 'Single URL',
  configSchema: urlConfig,
  async validate(config, ctx) {
    await checkSourceAddress(config.url, 'url', ctx.allowPrivate);
  },
  async *list(config) {
    const key = keyOf(config);
    yield { key, url: key } satisfies ItemRef;
  },
  async fetch(_config, _credentials, item, previous, ctx): Promise<FetchResult> {
    const headers: Record<string, string> = {};
    if (previous?.fingerprint.etag) headers['if-none-match'] = previous.fingerprint.etag;
    if (previous?.fingerprint.last_modified) headers['if-modified-since'] = previous.fingerprint.last_modified;
    const res = await request(item.url, 'GET', headers, ctx);
    const ok = res.status >= 200 && res.status < 300;
    if (!ok) res.body.destroy();
    if (res.status === 304 && previous) return { kind: 'unchanged', fingerprint: { ...previous.fingerprint, ...knownFields(responseVersion(res)) } };
    if (res.status === 404 || res.status === 410) return { kind: 'gone' };
    if (!ok) throw new ItemError(`HTTP ${res.status} from ${res.url}`);
    const { declared, type } = documentType(res);
    if (!type) {
      res.body.destroy();
      throw new ItemError(`${res.url} is not a document Quarry can index (${declared || 'no content type'})`, 'UNSUPPORTED_FORMAT');
    }
    return { kind: 'content', body: res.body, contentType: res.headers['content-type'] ?? null, filename: filenameFor(res.url, type), fingerprint: fingerprintOf(res) };
  },
  async fingerprint(_config, _credentials, item, ctx) {
    let res = await request(item.url, 'HEAD', {}, ctx);
    if (res.status === 405 || res.status === 501) {
      res.body.destroy();
      res = await request(item.url, 'GET', {}, ctx);
    }
    res.body.destroy();
    if (res.status === 404 || res.status === 410) return null;
    if (res.status < 200 || res.status >= 300) throw new ItemError(`HTTP ${res.status} from ${res.url}`);
    return fingerprintOf(res);
  },
};
