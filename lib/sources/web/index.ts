import { checkSourceAddress } from '@/lib/sources/http';
import type { ItemRef, SourceType } from '@/lib/sources/types';
import { webConfigSchema, type WebConfig } from './config';
import { fetchPage, fingerprintPage } from './fetch';
import { sitemapLocations } from './sitemap';
import { normaliseUrl, reachOf, withinReach } from './urls';

export { webConfigSchema, type WebConfig } from './config';

/*
 * A website, crawled: from a start page (and/or the pages of a sitemap), following <a href>
 * links on the same host and port under a path prefix, up to max_depth links away and max_pages
 * pages. The engine drives the crawl: list() gives where it starts, fetch() returns each page's
 * links (ItemRefs one level deeper, already filtered by reach, depth and robots.txt), and the
 * engine queues those it has not seen. An item's key and url are its normalised URL.
 */
export const webSource: SourceType<WebConfig, null> = {
  type: 'web',
  label: 'Website',
  configSchema: webConfigSchema,

  async validate(config, { allowPrivate }) {
    for (const field of ['start_url', 'sitemap_url'] as const) {
      const value = config[field];
      if (value) await checkSourceAddress(value, field, allowPrivate);
    }
  },

  async *list(config, _credentials, ctx): AsyncGenerator<ItemRef> {
    const reach = reachOf(config);
    const seen = new Set<string>();
    // The start page is listed even when it cannot be reached: fetch reports that as its failure.
    if (config.start_url) {
      const key = normaliseUrl(config.start_url)!;
      seen.add(key);
      yield { key, url: key, depth: 0 };
    }
    if (!config.sitemap_url) return;
    for await (const loc of sitemapLocations(config.sitemap_url, ctx)) {
      const key = normaliseUrl(loc, config.sitemap_url);
      if (!key || seen.has(key) || !withinReach(key, reach)) continue;
      seen.add(key);
      yield { key, url: key, depth: 0 };
    }
  },

  fetch: (config, _credentials, item, previous, ctx) => fetchPage(config, item, previous, ctx),

  fingerprint: (_config, _credentials, item, ctx) => fingerprintPage(item, ctx),

  maxItems: (config) => config.max_pages,
};
