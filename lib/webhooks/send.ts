import http from 'node:http';
import https from 'node:https';
import { BlockedAddressError, pinnedLookup, resolveTarget, type LookupFunction } from './ssrf';

export const DELIVERY_TIMEOUT_MS = 30_000;
export const RESPONSE_EXCERPT_BYTES = 1024;

export interface SendResult {
  /** HTTP status, or null when no response arrived. */
  status: number | null;
  ok: boolean;
  /** At most 1 KB of the response body (UTF-8, possibly cut mid-character). */
  excerpt: string | null;
  error: string | null;
  durationMs: number;
}

export interface SendOptions {
  url: string;
  body: string;
  headers: Record<string, string>;
  /** Private and loopback targets allowed (development only). */
  allowPrivate: boolean;
  timeoutMs?: number;
  lookup?: LookupFunction;
}

/**
 * POSTs one delivery. Success is a 2xx within the time limit; redirects are not followed (a 3xx is
 * a failure). The address is resolved and checked first and the connection is pinned to it.
 */
export async function sendWebhook(opts: SendOptions): Promise<SendResult> {
  const started = Date.now();
  const timeoutMs = opts.timeoutMs ?? DELIVERY_TIMEOUT_MS;
  const done = (partial: Omit<SendResult, 'durationMs' | 'ok'>): SendResult => ({
    ...partial,
    ok: partial.status !== null && partial.status >= 200 && partial.status < 300,
    durationMs: Date.now() - started,
  });
  let url: URL;
  try {
    url = new URL(opts.url);
  } catch {
    return done({ status: null, excerpt: null, error: 'The webhook URL is not valid' });
  }
  let target;
  try {
    target = await resolveTarget(url.hostname, { allowPrivate: opts.allowPrivate, lookup: opts.lookup });
  } catch (err) {
    if (err instanceof BlockedAddressError) return done({ status: null, excerpt: null, error: err.message });
    throw err;
  }
  const client = url.protocol === 'https:' ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    let headersStatus: number | null = null;
    const finish = (result: Omit<SendResult, 'durationMs' | 'ok'>) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(done(result));
    };
    const req = client.request(
      url,
      {
        method: 'POST',
        headers: { ...opts.headers, 'content-length': String(Buffer.byteLength(opts.body)) },
        // Connect to the checked address only; TLS still verifies the certificate against the host name.
        lookup: pinnedLookup(target) as never,
        agent: false,
      },
      (res) => {
        headersStatus = res.statusCode ?? null;
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < RESPONSE_EXCERPT_BYTES) chunks.push(chunk.subarray(0, RESPONSE_EXCERPT_BYTES - size));
          size += chunk.length;
          if (size >= RESPONSE_EXCERPT_BYTES) res.destroy();
        });
        const end = () => {
          const status = res.statusCode ?? null;
          const excerpt = Buffer.concat(chunks).toString('utf8');
          const error =
            status !== null && status >= 300 && status < 400
              ? `Redirect (${status}) not followed${res.headers.location ? ` to ${String(res.headers.location).slice(0, 200)}` : ''}`
              : status !== null && (status < 200 || status >= 300)
                ? `HTTP ${status}`
                : null;
          finish({ status, excerpt, error });
        };
        res.on('end', end);
        res.on('close', end);
        res.on('error', end);
      },
    );
    const timer = setTimeout(() => {
      req.destroy();
      // A status that arrived in time counts, even when the body kept coming.
      if (headersStatus !== null) finish({ status: headersStatus, excerpt: null, error: headersStatus >= 200 && headersStatus < 300 ? null : `HTTP ${headersStatus}` });
      else finish({ status: null, excerpt: null, error: `No response within ${Math.round(timeoutMs / 1000)} s` });
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => finish({ status: null, excerpt: null, error: `${err.code ?? 'ERROR'}: ${err.message}`.slice(0, 500) }));
    req.end(opts.body);
  });
}
