import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Readable } from 'node:stream';
import zlib from 'node:zlib';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { BlockedAddressError, guardedFetch, resolveHop, setSourceLookup, USER_AGENT } from '@/lib/sources/http';
import { ItemError } from '@/lib/sources/types';

/* Guarded outbound GET and HEAD for sources, against a real server on loopback. */

const LOREM = 'Heliotrope sheds stand at the edge of the valley. '.repeat(40);

let server: http.Server;
let base: string;
let port: number;
const seen: { path: string; headers: http.IncomingHttpHeaders; method: string }[] = [];

function handle(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  seen.push({ path: url.pathname, headers: req.headers, method: req.method ?? '' });
  const p = url.pathname;
  const redirect = /^\/redirect\/(\d+)$/.exec(p);
  if (redirect) {
    const n = Number(redirect[1]);
    if (n === 0) return res.end('landed');
    res.writeHead(302, { location: `/redirect/${n - 1}` });
    return res.end();
  }
  const status = /^\/status\/(\d+)$/.exec(p);
  if (status) {
    res.writeHead(Number(status[1]), { 'content-type': 'text/plain' });
    return res.end(`status ${status[1]}`);
  }
  switch (p) {
    case '/hello':
      res.writeHead(200, { 'content-type': 'text/plain', etag: '"v1"' });
      return res.end(req.method === 'HEAD' ? undefined : 'hello');
    case '/text':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-length': String(LOREM.length) });
      return res.end(req.method === 'HEAD' ? undefined : LOREM);
    case '/gzip':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'gzip' });
      return res.end(zlib.gzipSync(LOREM));
    case '/deflate':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'deflate' });
      return res.end(zlib.deflateSync(LOREM));
    case '/br':
      res.writeHead(200, { 'content-type': 'text/plain', 'content-encoding': 'br' });
      return res.end(zlib.brotliCompressSync(LOREM));
    case '/zstd':
      res.writeHead(200, { 'content-encoding': 'zstd' });
      return res.end('not really zstd');
    case '/bomb':
      // 200 KB of zeros, a few hundred bytes on the wire.
      res.writeHead(200, { 'content-encoding': 'gzip' });
      return res.end(zlib.gzipSync(Buffer.alloc(200 * 1024)));
    case '/relative':
      res.writeHead(301, { location: 'hello?from=relative' });
      return res.end();
    case '/see-other':
      res.writeHead(303, { location: '/hello' });
      return res.end();
    case '/to-other-host':
      res.writeHead(307, { location: `http://other.test:${port}/hello` });
      return res.end();
    case '/to-nowhere':
      res.writeHead(302, { location: 'http://nowhere.test/page' });
      return res.end();
    case '/to-ftp':
      res.writeHead(302, { location: 'ftp://files.example.com/x' });
      return res.end();
    case '/hang':
      return; // never answers
    case '/stall':
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.write('the first part, then nothing');
      return; // the rest never comes
  }
  res.writeHead(404);
  res.end('not found');
}

beforeAll(async () => {
  server = http.createServer(handle);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
  base = `http://127.0.0.1:${port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});
afterEach(() => {
  setSourceLookup(undefined);
  seen.length = 0;
});

async function text(body: Readable): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/** A resolver that knows only the names given (as the test's DNS). */
function lookupOf(names: Record<string, string>, calls: string[] = []) {
  return async (host: string) => {
    calls.push(host);
    const address = names[host];
    if (!address) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return [{ address, family: address.includes(':') ? 6 : 4 }];
  };
}

describe('the private-address guard', () => {
  it('refuses loopback without allowPrivate, before any request', async () => {
    await expect(guardedFetch(`${base}/hello`, { allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
    expect(seen).toHaveLength(0);
  });

  it('refuses a name that resolves to a private address, and says so for sources', async () => {
    setSourceLookup(lookupOf({ 'intranet.example.com': '10.0.0.1' }));
    const err = await guardedFetch('http://intranet.example.com/', { allowPrivate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as Error).message).toContain('10.0.0.1');
    expect((err as Error).message).toContain('sources may not reach');
    expect((err as Error).message).not.toContain('webhooks');
  });

  it('refuses a name of the site that resolves to loopback', async () => {
    setSourceLookup(lookupOf({ 'site.example': '127.0.0.1' }));
    await expect(guardedFetch(`http://site.example:${port}/hello`, { allowPrivate: false })).rejects.toBeInstanceOf(BlockedAddressError);
    expect(seen).toHaveLength(0);
  });

  it('checks each hop: the function every hop goes through refuses private and metadata addresses', async () => {
    setSourceLookup(lookupOf({ 'public.example': '93.184.216.34', 'rebound.example': '10.0.0.1' }));
    await expect(resolveHop(new URL('http://public.example/'), false)).resolves.toEqual({ address: '93.184.216.34', family: 4 });
    await expect(resolveHop(new URL('http://rebound.example/'), false)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(resolveHop(new URL('http://169.254.169.254/latest/meta-data/'), false)).rejects.toBeInstanceOf(BlockedAddressError);
    await expect(resolveHop(new URL('http://[::1]/'), false)).rejects.toBeInstanceOf(BlockedAddressError);
  });

  it('resolves every redirect target through the guard and connects to the address it checked', async () => {
    // other.test exists only in the test's resolver: the connection can only have used the checked address.
    const calls: string[] = [];
    setSourceLookup(lookupOf({ 'other.test': '127.0.0.1' }, calls));
    const res = await guardedFetch(`${base}/to-other-host`, { allowPrivate: true, headers: { Authorization: 'Bearer secret' } });
    expect(res.status).toBe(200);
    expect(await text(res.body)).toBe('hello');
    expect(res.url).toBe(`http://other.test:${port}/hello`);
    expect(res.redirects).toEqual([`http://other.test:${port}/hello`]);
    expect(calls).toEqual(['other.test']);
    // Credentials for the first origin are not carried to another.
    expect(seen[0].headers.authorization).toBe('Bearer secret');
    expect(seen[1].headers.authorization).toBeUndefined();
    expect(seen[1].headers.host).toBe(`other.test:${port}`);
  });

  it('a redirect to a name the guard cannot resolve is refused, not followed', async () => {
    setSourceLookup(lookupOf({}));
    const err = await guardedFetch(`${base}/to-nowhere`, { allowPrivate: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(BlockedAddressError);
    expect((err as Error).message).toContain('nowhere.test does not resolve');
  });

  it('takes only http and https URLs without credentials, at every hop', async () => {
    await expect(guardedFetch('ftp://files.example.com/x', { allowPrivate: true })).rejects.toThrow(/not an http or https URL/);
    await expect(guardedFetch(`http://user:pw@127.0.0.1:${port}/hello`, { allowPrivate: true })).rejects.toThrow(/user name or password/);
    await expect(guardedFetch('not a url', { allowPrivate: true })).rejects.toBeInstanceOf(ItemError);
    await expect(guardedFetch(`${base}/to-ftp`, { allowPrivate: true })).rejects.toThrow(/ftp:\/\/files\.example\.com\/x is not an http or https URL/);
  });
});

describe('guardedFetch', () => {
  it('sends the user agent and the caller’s headers, and returns the response headers in lower case', async () => {
    const res = await guardedFetch(`${base}/hello`, { allowPrivate: true, headers: { 'If-None-Match': '"v0"' } });
    expect(res.status).toBe(200);
    expect(res.headers.etag).toBe('"v1"');
    expect(res.headers['content-type']).toBe('text/plain');
    expect(res.redirects).toEqual([]);
    expect(await text(res.body)).toBe('hello');
    expect(seen[0].headers['user-agent']).toBe(USER_AGENT);
    expect(seen[0].headers['if-none-match']).toBe('"v0"');
    expect(seen[0].headers['accept-encoding']).toContain('gzip');
  });

  it('returns any status for the caller to judge', async () => {
    const res = await guardedFetch(`${base}/status/503`, { allowPrivate: true });
    expect(res.status).toBe(503);
    expect(await text(res.body)).toBe('status 503');
  });

  it('follows redirects, resolving relative locations, up to maxRedirects', async () => {
    const res = await guardedFetch(`${base}/redirect/3`, { allowPrivate: true });
    expect(res.url).toBe(`${base}/redirect/0`);
    expect(res.redirects).toEqual([`${base}/redirect/2`, `${base}/redirect/1`, `${base}/redirect/0`]);
    expect(await text(res.body)).toBe('landed');

    const relative = await guardedFetch(`${base}/relative`, { allowPrivate: true });
    expect(relative.url).toBe(`${base}/hello?from=relative`);
    relative.body.destroy();

    const seeOther = await guardedFetch(`${base}/see-other`, { allowPrivate: true });
    expect(seeOther.status).toBe(200);
    seeOther.body.destroy();

    await expect(guardedFetch(`${base}/redirect/2`, { allowPrivate: true, maxRedirects: 2 })).resolves.toMatchObject({ status: 200 });
    const err = await guardedFetch(`${base}/redirect/3`, { allowPrivate: true, maxRedirects: 2 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as Error).message).toBe(`Too many redirects from ${base}/redirect/3 (more than 2)`);
    await expect(guardedFetch(`${base}/redirect/6`, { allowPrivate: true })).rejects.toThrow(/more than 5/);

    // Not followed when asked: the redirect itself is the answer, nothing more is requested.
    const asIs = await guardedFetch(`${base}/redirect/2`, { allowPrivate: true, followRedirects: false });
    expect(asIs).toMatchObject({ status: 302, url: `${base}/redirect/2`, redirects: [] });
    expect(asIs.headers.location).toMatch(/\/redirect\/1$/);
    asIs.body.destroy();
  });

  it('answers HEAD with the headers and an empty body, asking for the identity encoding', async () => {
    const res = await guardedFetch(`${base}/text`, { method: 'HEAD', allowPrivate: true });
    expect(res.status).toBe(200);
    expect(res.headers['content-length']).toBe(String(LOREM.length));
    expect(await text(res.body)).toBe('');
    expect(seen[0].method).toBe('HEAD');
    expect(seen[0].headers['accept-encoding']).toBe('identity');
  });

  it.each(['gzip', 'deflate', 'br'])('decodes a %s body', async (encoding) => {
    const res = await guardedFetch(`${base}/${encoding}`, { allowPrivate: true });
    expect(res.headers['content-encoding']).toBe(encoding);
    expect(await text(res.body)).toBe(LOREM);
  });

  it('fails a body in an encoding it cannot decode', async () => {
    const res = await guardedFetch(`${base}/zstd`, { allowPrivate: true });
    await expect(text(res.body)).rejects.toThrow(/encoding Quarry cannot decode \(zstd\)/);
  });

  it('errors the body stream once maxBytes is exceeded, counting decoded bytes', async () => {
    const small = await guardedFetch(`${base}/text`, { allowPrivate: true, maxBytes: 100 });
    const err = await text(small.body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as ItemError).code).toBe('SOURCE_ITEM_TOO_LARGE');
    expect((err as Error).message).toBe(`${base}/text is larger than 100 bytes`);

    await expect(text((await guardedFetch(`${base}/text`, { allowPrivate: true, maxBytes: LOREM.length })).body)).resolves.toBe(LOREM);

    // A few hundred bytes on the wire, 200 KB decoded.
    const bomb = await guardedFetch(`${base}/bomb`, { allowPrivate: true, maxBytes: 100 * 1024 });
    await expect(text(bomb.body)).rejects.toThrow('is larger than 100 KB');
  });

  it('gives up on a server that does not answer within timeoutMs', async () => {
    const started = Date.now();
    const err = await guardedFetch(`${base}/hang`, { allowPrivate: true, timeoutMs: 300 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as Error).message).toBe(`No response from ${base}/hang within 0.3 s`);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('errors the body when it stalls for longer than timeoutMs', async () => {
    const res = await guardedFetch(`${base}/stall`, { allowPrivate: true, timeoutMs: 300 });
    expect(res.status).toBe(200);
    const err = await text(res.body).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as Error).message).toMatch(/stalled: nothing arrived for 0\.3 s/);
  });

  it('reports a refused connection as an ItemError', async () => {
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const closedPort = (probe.address() as AddressInfo).port;
    await new Promise<void>((resolve) => probe.close(() => resolve()));
    const err = await guardedFetch(`http://127.0.0.1:${closedPort}/`, { allowPrivate: true }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as Error).message).toMatch(/^ECONNREFUSED: /);
  });

  it('stops when the caller aborts', async () => {
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 50);
    const err = await guardedFetch(`${base}/hang`, { allowPrivate: true, signal: controller.signal }).catch((e: unknown) => e);
    expect((err as Error).name).toBe('AbortError');
  });
});
