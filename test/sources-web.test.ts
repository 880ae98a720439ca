import type { Readable } from 'node:stream';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { setSourceLookup } from '@/lib/sources/http';
import { ItemError, SourceError, type FetchResult, type ItemRef, type SourceCallContext, type StoredItem } from '@/lib/sources/types';
import { webSource, type WebConfig } from '@/lib/sources/web';
import { directoryOf, filenameFor, normaliseUrl } from '@/lib/sources/web/urls';
import { manualPdf, startSite, type Site } from '@/test/support/site-server';

/* The web source against a real site on loopback, driven the way the sync engine drives it. */

let site: Site;
beforeAll(async () => {
  site = await startSite();
});
afterAll(async () => {
  await site.close();
});
afterEach(() => setSourceLookup(undefined));

const ctxOf = (): SourceCallContext => ({ allowPrivate: true, session: new Map() });
const configOf = (input: Record<string, unknown>): WebConfig => webSource.configSchema.parse(input);
const path = (key: string) => key.slice(site.url.length);

async function bytesOf(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

type Outcome = { kind: FetchResult['kind'] | 'failed'; depth: number; detail?: string; bytes?: Buffer; filename?: string; links?: string[] };

/**
 * What the engine does, in small: a work list that starts from list() and grows by each fetch's
 * links and aliases (items already on it are not added again), at most maxItems items, processed
 * in order (so by depth). Returns each item's outcome and what a sync would store for the next one.
 */
async function crawl(config: WebConfig, previous = new Map<string, StoredItem>(), ctx = ctxOf()) {
  const max = webSource.maxItems!(config);
  const queue: ItemRef[] = [];
  const listed = new Set<string>();
  const add = (ref: ItemRef) => {
    if (listed.has(ref.key) || listed.size >= max) return;
    listed.add(ref.key);
    queue.push(ref);
  };
  for await (const ref of webSource.list(config, null, ctx)) add(ref);
  const outcomes = new Map<string, Outcome>();
  const stored = new Map<string, StoredItem>();
  for (let item = queue.shift(); item; item = queue.shift()) {
    const depth = item.depth ?? 0;
    let result: FetchResult;
    try {
      result = await webSource.fetch(config, null, item, previous.get(item.key) ?? null, ctx);
    } catch (err) {
      outcomes.set(path(item.key), { kind: 'failed', depth, detail: (err as Error).message });
      continue;
    }
    if (result.kind === 'content' || result.kind === 'unchanged') {
      const links = result.links ?? [];
      links.forEach(add);
      const bytes = result.kind === 'content' ? await bytesOf(result.body) : undefined;
      const filename = result.kind === 'content' ? result.filename : undefined;
      outcomes.set(path(item.key), { kind: result.kind, depth, bytes, filename, links: links.map((l) => path(l.key)) });
      stored.set(item.key, { fingerprint: result.fingerprint, links: links.map((l) => l.key) });
    } else if (result.kind === 'alias') {
      add(result.canonical);
      outcomes.set(path(item.key), { kind: 'alias', depth, detail: path(result.canonical.key) });
    } else {
      outcomes.set(path(item.key), { kind: result.kind, depth, detail: result.kind === 'skipped' ? result.reason : undefined });
    }
  }
  return { outcomes, stored, ctx };
}

const kinds = (outcomes: Map<string, Outcome>) => Object.fromEntries([...outcomes].map(([p, o]) => [p, o.kind]));

describe('the web config', () => {
  it('applies defaults and keeps a ZodObject the engine can extend', () => {
    expect(configOf({ start_url: `${site.url}/docs/` })).toEqual({ start_url: `${site.url}/docs/`, max_depth: 2, max_pages: 100 });
    const extended = (webSource.configSchema as unknown as z.ZodObject).extend({ keep_deleted: z.boolean().default(false) });
    expect(extended.parse({ sitemap_url: 'https://h/sitemap.xml' })).toMatchObject({ keep_deleted: false, max_depth: 2 });
    expect(extended.safeParse({}).success).toBe(false);
  });

  it.each([
    [{}, 'start_url', 'start_url or sitemap_url is required'],
    [{ start_url: 'ftp://h/x' }, 'start_url', 'start_url must be an http or https URL'],
    [{ sitemap_url: 'not a url' }, 'sitemap_url', 'sitemap_url must be an http or https URL'],
    [{ start_url: 'https://h/', path_prefix: 'docs/' }, 'path_prefix', "path_prefix must start with '/'"],
    [{ start_url: 'https://h/', max_depth: 11 }, 'max_depth', 'max_depth must be a whole number from 0 to 10'],
    [{ start_url: 'https://h/', max_depth: 1.5 }, 'max_depth', 'max_depth must be a whole number from 0 to 10'],
    [{ start_url: 'https://h/', max_pages: 0 }, 'max_pages', 'max_pages must be a whole number from 1 to 10000'],
  ])('refuses %j with a message naming %s', (input, field, message) => {
    const result = webSource.configSchema.safeParse(input);
    expect(result.success).toBe(false);
    const issue = result.error!.issues[0];
    expect(issue.path).toEqual([field]);
    expect(issue.message).toContain(message);
  });

  it('describes its fields for the OpenAPI document', () => {
    const schema = z.toJSONSchema(webSource.configSchema, { io: 'input' }) as { properties: Record<string, { description?: string }> };
    for (const field of ['start_url', 'sitemap_url', 'path_prefix', 'max_depth', 'max_pages']) expect(schema.properties[field].description).toBeTruthy();
  });
});

describe('URLs', () => {
  it('normalises keys: case of scheme and host, default port, fragment, empty path; the query stays', () => {
    expect(normaliseUrl('HTTP://Example.COM:80/a/b.html#part')).toBe('http://example.com/a/b.html');
    expect(normaliseUrl('https://example.com:443')).toBe('https://example.com/');
    expect(normaliseUrl('https://example.com:8443/x?b=2&a=1')).toBe('https://example.com:8443/x?b=2&a=1');
    expect(normaliseUrl('../up.html', 'https://h/docs/deep/page.html')).toBe('https://h/docs/up.html');
    for (const href of ['mailto:a@b.c', 'javascript:void(0)', 'tel:+1555', 'data:text/plain,x', 'https://u:p@h/']) expect(normaliseUrl(href, 'https://h/')).toBeNull();
  });

  it('takes the default prefix from the directory of the start URL', () => {
    expect(directoryOf(new URL('https://h/docs/guide/intro.html'))).toBe('/docs/guide/');
    expect(directoryOf(new URL('https://h/docs/'))).toBe('/docs/');
    expect(directoryOf(new URL('https://h/sitemap.xml'))).toBe('/');
  });

  it('names files after the last segment, with the extension of their type', () => {
    const html = { extension: '.html', mime_type: 'text/html' };
    const pdf = { extension: '.pdf', mime_type: 'application/pdf' };
    expect(filenameFor('https://h/docs/', html)).toBe('index.html');
    expect(filenameFor('https://h/docs/intro.htm', html)).toBe('intro.htm');
    expect(filenameFor('https://h/page.php?id=3', html)).toBe('page.php.html');
    expect(filenameFor('https://h/files/r%C3%A9sum%C3%A9', pdf)).toBe('résumé.pdf');
    expect(filenameFor('https://h/a%2Fb%00c.pdf', pdf)).toBe('abc.pdf');
  });
});

describe('validate', () => {
  it('refuses a loopback or private start or sitemap URL unless private addresses are allowed', async () => {
    const config = configOf({ start_url: `${site.url}/docs/` });
    const err = await webSource.validate!(config, { allowPrivate: false }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SourceError);
    expect((err as SourceError).code).toBe('SOURCE_ADDRESS_BLOCKED');
    expect((err as Error).message).toMatch(/^start_url: 127\.0\.0\.1 is not a public address/);
    await expect(webSource.validate!(config, { allowPrivate: true })).resolves.toBeUndefined();

    setSourceLookup(async () => [{ address: '10.0.0.1', family: 4 }]);
    await expect(webSource.validate!(configOf({ sitemap_url: 'https://docs.example.com/sitemap.xml' }), { allowPrivate: false })).rejects.toThrow(/^sitemap_url: docs\.example\.com resolves to 10\.0\.0\.1/);
    setSourceLookup(async () => [{ address: '93.184.216.34', family: 4 }]);
    await expect(webSource.validate!(configOf({ sitemap_url: 'https://docs.example.com/sitemap.xml' }), { allowPrivate: false })).resolves.toBeUndefined();
    // A name that does not resolve yet is accepted: every request checks again.
    setSourceLookup(async () => {
      throw Object.assign(new Error('not found'), { code: 'ENOTFOUND' });
    });
    await expect(webSource.validate!(configOf({ start_url: 'https://later.example.com/docs/' }), { allowPrivate: false })).resolves.toBeUndefined();
    // Local names are refused without asking.
    await expect(webSource.validate!(configOf({ start_url: 'http://intranet.local/docs/' }), { allowPrivate: false })).rejects.toThrow(/intranet\.local is a local host name/);
  });
});

describe('a crawl', () => {
  it('from /docs/ at max_depth 2 reaches exactly the pages within reach', async () => {
    const { outcomes } = await crawl(configOf({ start_url: `${site.url}/docs/` }));
    expect(kinds(outcomes)).toEqual({
      '/docs/': 'content',
      '/docs/intro.html': 'content',
      '/docs/guide.html': 'content',
      '/docs/manual.pdf': 'content',
      '/docs/old.html': 'alias',
      '/docs/moved': 'alias',
      '/docs/missing.html': 'gone',
      '/docs/alias.html': 'alias',
      '/docs/noindex.html': 'skipped',
      '/docs/style.css': 'skipped',
      '/docs/deep/level2.html': 'content',
      '/docs/appendix.html': 'content',
    });
    const start = outcomes.get('/docs/')!;
    expect(start.filename).toBe('index.html');
    expect(start.bytes!.toString()).toContain('orchard cooperative');
    // Left out: another host, nofollow, outside the prefix, robots.txt, mailto:, javascript:, fragments of itself.
    expect(start.links).toEqual([
      '/docs/intro.html',
      '/docs/guide.html',
      '/docs/manual.pdf',
      '/docs/old.html',
      '/docs/moved',
      '/docs/missing.html',
      '/docs/alias.html',
      '/docs/noindex.html',
      '/docs/style.css',
    ]);
    expect(outcomes.get('/docs/old.html')!.detail).toBe('/docs/guide.html');
    expect(outcomes.get('/docs/moved')!.detail).toBe('/docs/intro.html');
    expect(outcomes.get('/docs/alias.html')!.detail).toBe('/docs/intro.html');
    expect(outcomes.get('/docs/noindex.html')!.detail).toBe('the page asks not to be indexed (noindex)');
    expect(outcomes.get('/docs/style.css')!.detail).toBe('not a document Quarry can index (text/css)');
    expect(outcomes.get('/docs/intro.html')).toMatchObject({ depth: 1, filename: 'intro.html', links: ['/docs/deep/level2.html'] });
    // At max_depth a page's links are not followed.
    expect(outcomes.get('/docs/deep/level2.html')).toMatchObject({ depth: 2, links: [] });
    const pdf = outcomes.get('/docs/manual.pdf')!;
    expect(pdf.filename).toBe('manual.pdf');
    expect(pdf.bytes!.equals(Buffer.from(manualPdf()))).toBe(true);
    // Nothing outside reach was asked for; every request says who is asking.
    expect(site.requests.some((r) => r.path.startsWith('/docs/private/') || r.path.startsWith('/blog/'))).toBe(false);
    expect(site.requests.every((r) => String(r.headers['user-agent']).startsWith('Quarry/'))).toBe(true);
  });

  it('asks for robots.txt once per sync', async () => {
    const before = site.requests.filter((r) => r.path === '/robots.txt').length;
    await crawl(configOf({ start_url: `${site.url}/docs/`, max_depth: 1 }));
    expect(site.requests.filter((r) => r.path === '/robots.txt').length - before).toBe(1);
  });

  it('goes one level deeper with max_depth 3, and no further', async () => {
    const { outcomes } = await crawl(configOf({ start_url: `${site.url}/docs/`, max_depth: 3 }));
    expect(outcomes.get('/docs/deep/level3.html')).toMatchObject({ kind: 'content', depth: 3, links: [] });
    expect(outcomes.has('/docs/deep/level4.html')).toBe(false);
    const shallow = await crawl(configOf({ start_url: `${site.url}/docs/`, max_depth: 0 }));
    expect(kinds(shallow.outcomes)).toEqual({ '/docs/': 'content' });
  });

  it('stops at max_pages', async () => {
    const { outcomes } = await crawl(configOf({ start_url: `${site.url}/docs/`, max_pages: 3 }));
    expect([...outcomes.keys()]).toEqual(['/docs/', '/docs/intro.html', '/docs/guide.html']);
  });

  it('a second pass gets "unchanged" for pages with validators and still reaches pages linked only from them', async () => {
    const config = configOf({ start_url: `${site.url}/docs/` });
    const first = await crawl(config);
    expect(first.stored.get(`${site.url}/docs/guide.html`)!.fingerprint).toMatchObject({ etag: '"guide-v1"', last_modified: 'Tue, 02 Jan 2024 10:00:00 GMT' });
    const mark = site.requests.length;
    const second = await crawl(config, first.stored);
    expect(second.outcomes.get('/docs/guide.html')).toMatchObject({ kind: 'unchanged', links: ['/docs/appendix.html'] });
    expect(second.outcomes.get('/docs/manual.pdf')!.kind).toBe('unchanged');
    expect(second.outcomes.get('/docs/appendix.html')!.kind).toBe('content');
    expect(second.stored.get(`${site.url}/docs/guide.html`)!.fingerprint.size).toBe(first.stored.get(`${site.url}/docs/guide.html`)!.fingerprint.size);
    const guide = site.requests.slice(mark).find((r) => r.path === '/docs/guide.html')!;
    expect(guide.headers['if-none-match']).toBe('"guide-v1"');
    expect(guide.headers['if-modified-since']).toBe('Tue, 02 Jan 2024 10:00:00 GMT');
  });

  it('lists the pages of a sitemap within reach, and of a sitemap index', async () => {
    const list = async (input: Record<string, unknown>) => {
      const keys: string[] = [];
      for await (const ref of webSource.list(configOf(input), null, ctxOf())) {
        expect(ref.depth).toBe(0);
        expect(ref.url).toBe(ref.key);
        keys.push(path(ref.key));
      }
      return keys;
    };
    expect(await list({ sitemap_url: `${site.url}/sitemap.xml` })).toEqual(['/docs/intro.html', '/docs/guide.html', '/docs/manual.pdf']);
    expect(await list({ start_url: `${site.url}/docs/`, sitemap_url: `${site.url}/sitemap.xml` })).toEqual(['/docs/', '/docs/intro.html', '/docs/guide.html', '/docs/manual.pdf']);
    expect(await list({ sitemap_url: `${site.url}/sitemap-index.xml` })).toEqual(['/docs/intro.html', '/docs/guide.html', '/docs/manual.pdf', '/blog/x.html']);
    expect(await list({ sitemap_url: `${site.url}/sitemap-index.xml`, path_prefix: '/docs/' })).toEqual(['/docs/intro.html', '/docs/guide.html', '/docs/manual.pdf']);
  });

  it('fails the listing when a sitemap cannot be read', async () => {
    const list = async (input: Record<string, unknown>, ctx = ctxOf()) => {
      for await (const ref of webSource.list(configOf(input), null, ctx)) void ref;
    };
    await expect(list({ sitemap_url: `${site.url}/no-sitemap.xml` })).rejects.toThrow(new SourceError(`The sitemap ${site.url}/no-sitemap.xml could not be read (HTTP 404)`));
    await expect(list({ sitemap_url: `${site.url}/docs/` })).rejects.toMatchObject({ name: 'SourceError', code: 'SOURCE_SITEMAP_INVALID' });
    await expect(list({ sitemap_url: `${site.url}/sitemap.xml` }, { allowPrivate: false, session: new Map() })).rejects.toMatchObject({ name: 'SourceError', code: 'SOURCE_ADDRESS_BLOCKED' });
  });

  it('a start URL that cannot be reached is listed all the same; fetch reports it', async () => {
    const config = configOf({ start_url: 'http://127.0.0.1:9/docs/' });
    const items: ItemRef[] = [];
    for await (const ref of webSource.list(config, null, ctxOf())) items.push(ref);
    expect(items).toEqual([{ key: 'http://127.0.0.1:9/docs/', url: 'http://127.0.0.1:9/docs/', depth: 0 }]);
  });
});

describe('fetch and fingerprint of one item', () => {
  let own: Site;
  beforeAll(async () => {
    own = await startSite();
  });
  afterAll(async () => {
    await own.close();
  });
  const item = (p: string, depth = 1): ItemRef => ({ key: `${own.url}${p}`, url: `${own.url}${p}`, depth });
  const config = () => configOf({ start_url: `${own.url}/docs/` });
  const fetchOne = (p: string, ctx = ctxOf()) => webSource.fetch(config(), null, item(p), null, ctx);

  it('skips a robots-disallowed page without asking for it', async () => {
    await expect(fetchOne('/docs/private/secret.html')).resolves.toEqual({ kind: 'skipped', reason: 'disallowed by robots.txt' });
    expect(own.requests.some((r) => r.path === '/docs/private/secret.html')).toBe(false);
    await expect(webSource.fingerprint(config(), null, item('/docs/private/secret.html'), ctxOf())).resolves.toEqual({});
  });

  it('skips everything on an origin whose robots.txt answers 503, and allows everything when it is missing', async () => {
    own.setPage('/robots.txt', { status: 503, body: 'busy', contentType: 'text/plain' });
    try {
      await expect(fetchOne('/docs/intro.html')).resolves.toEqual({ kind: 'skipped', reason: 'robots.txt could not be read (HTTP 503)' });
      own.removePage('/robots.txt');
      await expect(fetchOne('/docs/private/secret.html')).resolves.toMatchObject({ kind: 'content', filename: 'secret.html' });
    } finally {
      own.setPage('/robots.txt', { body: 'User-agent: *\nDisallow: /docs/private/\n', contentType: 'text/plain' });
    }
  });

  it('honours Crawl-delay between requests to the origin', async () => {
    own.setPage('/robots.txt', { body: 'User-agent: quarry\nCrawl-delay: 1\nDisallow: /docs/private/\n', contentType: 'text/plain' });
    try {
      const ctx = ctxOf();
      const mark = own.requests.length;
      await fetchOne('/docs/intro.html', ctx);
      await fetchOne('/docs/guide.html', ctx);
      const times = own.requests.slice(mark).map((r) => r.at);
      expect(own.requests.slice(mark).map((r) => r.path)).toEqual(['/robots.txt', '/docs/intro.html', '/docs/guide.html']);
      expect(times[1] - times[0]).toBeGreaterThanOrEqual(950);
      expect(times[2] - times[1]).toBeGreaterThanOrEqual(950);
    } finally {
      own.setPage('/robots.txt', { body: 'User-agent: *\nDisallow: /docs/private/\n', contentType: 'text/plain' });
    }
  });

  it('skips a redirect that leaves the crawl and fails on a server error', async () => {
    own.setPage('/docs/out', { status: 302, location: '/blog/x.html', body: '' });
    own.setPage('/docs/broken.html', { status: 500, body: 'oops', contentType: 'text/plain' });
    await expect(fetchOne('/docs/out')).resolves.toEqual({ kind: 'skipped', reason: `redirects outside the crawl to ${own.url}/blog/x.html` });
    const err = await fetchOne('/docs/broken.html').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ItemError);
    expect((err as Error).message).toBe(`HTTP 500 from ${own.url}/docs/broken.html`);
  });

  it('honours X-Robots-Tag for Quarry, not for other robots', async () => {
    own.setPage('/docs/tagged.pdf', { body: manualPdf(), contentType: 'application/pdf', headers: { 'x-robots-tag': 'noindex' } });
    own.setPage('/docs/other.pdf', { body: manualPdf(), contentType: 'application/octet-stream', headers: { 'x-robots-tag': 'googlebot: noindex' } });
    await expect(fetchOne('/docs/tagged.pdf')).resolves.toEqual({ kind: 'skipped', reason: 'the page asks not to be indexed (noindex)' });
    // An untyped body is judged by its extension.
    const other = await fetchOne('/docs/other.pdf');
    expect(other).toMatchObject({ kind: 'content', filename: 'other.pdf' });
    if (other.kind === 'content') other.body.destroy();
  });

  it('refuses loopback without allowPrivate as an item failure', async () => {
    const noPrivate = () => ({ allowPrivate: false, session: new Map() });
    for (const call of [() => webSource.fetch(config(), null, item('/docs/intro.html'), null, noPrivate()), () => webSource.fingerprint(config(), null, item('/docs/intro.html'), noPrivate())]) {
      const err = await call().catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ItemError);
      expect(err).toMatchObject({ code: 'SOURCE_ADDRESS_BLOCKED', message: expect.stringMatching(/^127\.0\.0\.1 resolves to 127\.0\.0\.1, which is not a public address/) });
    }
  });

  it('fingerprints with HEAD, falling back to GET, and says null for a gone page', async () => {
    const mark = own.requests.length;
    await expect(webSource.fingerprint(config(), null, item('/docs/guide.html'), ctxOf())).resolves.toEqual({
      etag: '"guide-v1"',
      last_modified: 'Tue, 02 Jan 2024 10:00:00 GMT',
      size: expect.any(Number),
    });
    expect(own.requests.slice(mark).filter((r) => r.path === '/docs/guide.html').map((r) => r.method)).toEqual(['HEAD']);
    await expect(webSource.fingerprint(config(), null, item('/docs/missing.html'), ctxOf())).resolves.toBeNull();

    own.setPage('/docs/get-only.html', { body: '<p>Only GET here.</p>', contentType: 'text/html', etag: '"g1"', methods: ['GET'] });
    await expect(webSource.fingerprint(config(), null, item('/docs/get-only.html'), ctxOf())).resolves.toEqual({ etag: '"g1"', last_modified: null, size: 21 });
    expect(own.requests.filter((r) => r.path === '/docs/get-only.html').map((r) => r.method)).toEqual(['HEAD', 'GET']);
  });

  it('hands back the stored links of an unchanged page, one level deeper and filtered again', async () => {
    const previous: StoredItem = {
      fingerprint: { etag: '"guide-v1"', size: 10 },
      links: [`${own.url}/docs/appendix.html`, `${own.url}/docs/private/secret.html`, `${own.url}/blog/x.html`, `${own.url}/docs/guide.html`],
    };
    const result = await webSource.fetch(config(), null, item('/docs/guide.html', 1), previous, ctxOf());
    expect(result).toEqual({
      kind: 'unchanged',
      fingerprint: { etag: '"guide-v1"', size: 10, last_modified: 'Tue, 02 Jan 2024 10:00:00 GMT' },
      links: [{ key: `${own.url}/docs/appendix.html`, url: `${own.url}/docs/appendix.html`, depth: 2 }],
    });
    const atMax = await webSource.fetch(config(), null, item('/docs/guide.html', 2), previous, ctxOf());
    expect(atMax).toMatchObject({ kind: 'unchanged', links: [] });
  });
});
