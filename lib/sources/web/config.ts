import { z } from 'zod';

/*
 * The web source's config. path_prefix has no zod default: its default depends on start_url and
 * sitemap_url, and is worked out where it is used (reachOf), so a config whose start URL is later
 * changed does not keep a prefix computed from the old one.
 */

function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === 'http:' || url.protocol === 'https:') && !url.username && !url.password;
  } catch {
    return false;
  }
}

const httpUrl = (field: string) =>
  z
    .string()
    .trim()
    .max(2048, `${field} must be at most 2048 characters`)
    .refine(isHttpUrl, `${field} must be an http or https URL (without a user name or password)`);

export const webConfigSchema = z
  .object({
    start_url: httpUrl('start_url')
      .optional()
      .meta({ description: 'The page the crawl starts from. At least one of start_url and sitemap_url is required.', example: 'https://docs.example.com/guide/' }),
    sitemap_url: httpUrl('sitemap_url')
      .optional()
      .meta({
        description: 'A sitemap (or sitemap index, one level deep) whose pages are crawled too, or instead of a start page. Pages outside the reach of the crawl are left out.',
        example: 'https://docs.example.com/sitemap.xml',
      }),
    path_prefix: z
      .string()
      .max(1024, 'path_prefix must be at most 1024 characters')
      .startsWith('/', "path_prefix must start with '/'")
      .optional()
      .meta({
        description:
          "Only pages whose path starts with this prefix are crawled (on the start URL's host and port). Default: the directory of start_url (or of sitemap_url without one), e.g. /docs/guide/ for https://h/docs/guide/intro.html.",
        example: '/guide/',
      }),
    max_depth: z
      .number({ error: 'max_depth must be a whole number from 0 to 10' })
      .int('max_depth must be a whole number from 0 to 10')
      .min(0, 'max_depth must be a whole number from 0 to 10')
      .max(10, 'max_depth must be a whole number from 0 to 10')
      .default(2)
      .meta({ description: 'How many links away from the start page (or a sitemap page) the crawl goes; 0 fetches only those pages.', example: 2 }),
    max_pages: z
      .number({ error: 'max_pages must be a whole number from 1 to 10000' })
      .int('max_pages must be a whole number from 1 to 10000')
      .min(1, 'max_pages must be a whole number from 1 to 10000')
      .max(10_000, 'max_pages must be a whole number from 1 to 10000')
      .default(100)
      .meta({ description: 'At most this many pages in one sync.', example: 100 }),
  })
  .superRefine((config, ctx) => {
    if (!config.start_url && !config.sitemap_url) {
      ctx.addIssue({ code: 'custom', path: ['start_url'], message: 'start_url or sitemap_url is required (give at least one)' });
    }
  });

export type WebConfig = z.infer<typeof webConfigSchema>;
