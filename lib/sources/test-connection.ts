import { getConfig } from '@/lib/config';
import type { ServiceContext } from '@/lib/context';
import { isApiError } from '@/lib/errors';
import { BlockedAddressError } from '@/lib/webhooks/ssrf';
import { sourceTypeOf } from './registry';
import { checkSourceSettings } from './service';
import { ItemError, SourceError, type ItemRef, type SourceCallContext } from './types';

/*
 * "Test connection": lists the first items a source would sync, without storing anything. For a
 * crawl (or a single URL) the listing is only where it starts, so the first item is fetched too
 * and the links it holds are shown: the address, the credentials and the reach are all tried.
 */

const SHOWN = 10;
const TIME_LIMIT_MS = 20_000;

export interface SourceTestResult {
  ok: boolean;
  items: { key: string; url: string; size: number | null }[];
  more: boolean;
  error: { code: string; message: string } | null;
}

function failure(err: unknown): { code: string; message: string } | null {
  if (err instanceof SourceError) return { code: err.code, message: err.message };
  if (err instanceof ItemError) return { code: err.code, message: err.message };
  if (err instanceof BlockedAddressError) return { code: 'SOURCE_ADDRESS_BLOCKED', message: err.message };
  if (isApiError(err)) return { code: err.code, message: err.message };
  if ((err as Error)?.name === 'AbortError') return { code: 'SOURCE_UNREACHABLE', message: `The source did not answer within ${TIME_LIMIT_MS / 1000} s` };
  return null;
}

export async function testSource(
  _ctx: ServiceContext,
  input: { type: string; config: Record<string, unknown>; credentials?: Record<string, unknown> },
): Promise<SourceTestResult> {
  const type = sourceTypeOf(input.type);
  const { config, credentials } = await checkSourceSettings(type, input.config, input.credentials);
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(), TIME_LIMIT_MS);
  const call: SourceCallContext = { allowPrivate: getConfig().sources.allowPrivate, session: new Map(), signal: controller.signal };
  const found: ItemRef[] = [];
  let more = false;
  try {
    for await (const item of type.list(config, credentials, call)) {
      if (found.length >= SHOWN) {
        more = true;
        break;
      }
      found.push(item);
    }
    if (found.length === 0) return { ok: true, items: [], more: false, error: null };
    if (!found[0].listed && found.length < SHOWN) {
      // Nothing but a start: fetch it to prove it answers, and show what it leads to.
      const result = await type.fetch(config, credentials, found[0], null, call);
      if (result.kind === 'content') result.body.destroy();
      if (result.kind === 'gone') return { ok: false, items: [], more: false, error: { code: 'SOURCE_NOT_FOUND', message: `${found[0].url} was not found (404)` } };
      if (result.kind === 'skipped') return { ok: false, items: [], more: false, error: { code: 'SOURCE_ITEM_SKIPPED', message: `${found[0].url}: ${result.reason}` } };
      const links = result.kind === 'alias' ? [result.canonical] : (result.links ?? []);
      for (const link of links) {
        if (found.some((f) => f.key === link.key)) continue;
        if (found.length >= SHOWN) {
          more = true;
          break;
        }
        found.push(link);
      }
    }
    return { ok: true, items: found.map((i) => ({ key: i.key, url: i.url, size: i.listed?.size ?? null })), more, error: null };
  } catch (err) {
    const error = failure(err);
    if (!error) throw err;
    return { ok: false, items: found.map((i) => ({ key: i.key, url: i.url, size: i.listed?.size ?? null })), more: false, error };
  } finally {
    clearTimeout(timer);
    for (const value of call.session.values()) (value as { destroy?: () => void })?.destroy?.();
  }
}
