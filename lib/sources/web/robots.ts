import type { Readable } from 'node:stream';
import robotsParser from 'robots-parser';
import { BlockedAddressError, guardedFetch } from '@/lib/sources/http';
import { ItemError, type SourceCallContext } from '@/lib/sources/types';

/*
 * robots.txt, read once per origin per sync and kept in the sync's session. As search engines do:
 * a robots.txt that does not exist (any 4xx) allows everything; one that cannot be read (5xx, no
 * answer) allows nothing, since the site may be saying "not now". Crawl-delay spaces this
 * process's requests to the origin.
 */

/** The product token robots.txt groups are matched against. */
export const ROBOTS_AGENT = 'Quarry';
/** Google reads the first 500 KiB of a robots.txt; the rest is ignored. */
const MAX_ROBOTS_BYTES = 500 * 1024;
const MAX_CRAWL_DELAY_MS = 10_000;
const ROBOTS_TIMEOUT_MS = 15_000;

type Robot = ReturnType<typeof robotsParser>;

export type RobotsRules =
  | { kind: 'parsed'; robot: Robot; delayMs: number }
  | { kind: 'open' }
  | { kind: 'closed'; reason: string };

type Ctx = Pick<SourceCallContext, 'allowPrivate' | 'session' | 'signal'>;

/** The rules for the URL's origin, fetched on first use in this sync. */
export function robotsRules(url: URL, ctx: Ctx): Promise<RobotsRules> {
  const key = `web:robots:${url.origin}`;
  let rules = ctx.session.get(key) as Promise<RobotsRules> | undefined;
  if (!rules) {
    // The promise is kept, not its result, so pages fetched at the same time share one request.
    rules = readRobots(url.origin, ctx);
    ctx.session.set(key, rules);
  }
  return rules;
}

async function readRobots(origin: string, ctx: Ctx): Promise<RobotsRules> {
  const robotsUrl = `${origin}/robots.txt`;
  let text: string;
  try {
    const res = await guardedFetch(robotsUrl, { allowPrivate: ctx.allowPrivate, signal: ctx.signal, timeoutMs: ROBOTS_TIMEOUT_MS, headers: { accept: 'text/plain, */*;q=0.5' } });
    if (res.status >= 400) {
      res.body.destroy();
      return res.status < 500 ? { kind: 'open' } : { kind: 'closed', reason: `robots.txt could not be read (HTTP ${res.status})` };
    }
    if (res.status < 200 || res.status >= 300) {
      res.body.destroy();
      return { kind: 'closed', reason: `robots.txt could not be read (HTTP ${res.status})` };
    }
    text = await readPrefix(res.body, MAX_ROBOTS_BYTES);
  } catch (err) {
    if (ctx.signal?.aborted) throw err;
    // The guard refusing the origin refuses its pages too: that is each item's failure, not a skip.
    if (err instanceof BlockedAddressError) throw new ItemError(err.message, 'SOURCE_ADDRESS_BLOCKED');
    return { kind: 'closed', reason: `robots.txt could not be read (${(err as Error).message})` };
  }
  const robot = robotsParser(robotsUrl, text);
  const delay = Number(robot.getCrawlDelay(ROBOTS_AGENT));
  const delayMs = Number.isFinite(delay) && delay > 0 ? Math.min(delay * 1000, MAX_CRAWL_DELAY_MS) : 0;
  // The robots.txt request itself is the first request of the spacing.
  if (delayMs > 0) ctx.session.set(`web:next:${origin}`, Date.now() + delayMs);
  return { kind: 'parsed', robot, delayMs };
}

/** Why the rules keep the URL out, or null when it may be fetched. */
export function robotsVerdict(rules: RobotsRules, href: string): string | null {
  if (rules.kind === 'closed') return rules.reason;
  if (rules.kind === 'open') return null;
  // undefined means the URL is not on the robots.txt's origin, which never happens here.
  return rules.robot.isAllowed(href, ROBOTS_AGENT) === false ? 'disallowed by robots.txt' : null;
}

/**
 * Waits until the origin's Crawl-delay has passed since the previous request to it. Each caller
 * books its slot before waiting, so concurrent fetches line up instead of all going at once.
 */
export async function politeTurn(url: URL, rules: RobotsRules, ctx: Ctx): Promise<void> {
  if (rules.kind !== 'parsed' || rules.delayMs === 0) return;
  const key = `web:next:${url.origin}`;
  const now = Date.now();
  const slot = Math.max(now, (ctx.session.get(key) as number | undefined) ?? 0);
  ctx.session.set(key, slot + rules.delayMs);
  if (slot > now) await sleep(slot - now, ctx.signal);
}

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    signal?.throwIfAborted();
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}

/** The first `limit` bytes of a body as UTF-8 (the rest is not read). */
async function readPrefix(body: Readable, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Buffer>) {
    chunks.push(chunk.subarray(0, limit - size));
    size += chunk.length;
    if (size >= limit) break;
  }
  body.destroy();
  return Buffer.concat(chunks).toString('utf8');
}
