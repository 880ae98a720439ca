// Walking every page of a list. Lists take `limit` (1–100) and `offset` and answer
// {items, total, limit, offset}; the helpers below advance `offset` until `total` is reached.
import type { ListItem, ListPath, ListPathParams, ListQuery } from './types.js';

export interface Page<T> {
  items: T[];
  total: number;
  limit: number;
  offset: number;
}

export type PaginateOptions<P extends ListPath> = {
  /** Filters and sorting of the list (everything but limit/offset). */
  query?: ListQuery<P>;
  /** Items per request, 1–100 (default 100). */
  pageSize?: number;
  /** Skip this many items first (default 0). */
  offset?: number;
  signal?: AbortSignal;
} & (ListPathParams<P> extends undefined ? { path?: undefined } : { path: NonNullable<ListPathParams<P>> });

/** Reads one page of `path` at `offset` (the client supplies it). */
export type PageReader = (path: string, params: { path?: Record<string, unknown>; query: Record<string, unknown> }, signal?: AbortSignal) => Promise<Page<unknown>>;

/** Every page of the list, in order. */
export async function* pagesOf<P extends ListPath>(read: PageReader, listPath: P, options: PaginateOptions<P>): AsyncGenerator<Page<ListItem<P>>> {
  const limit = Math.min(100, Math.max(1, options.pageSize ?? 100));
  let offset = options.offset ?? 0;
  for (;;) {
    options.signal?.throwIfAborted();
    const page = (await read(listPath, { path: options.path, query: { ...(options.query ?? {}), limit, offset } }, options.signal)) as Page<ListItem<P>>;
    yield page;
    offset += page.items.length;
    if (page.items.length === 0 || offset >= page.total) return;
  }
}

/**
 * Every item of the list. Offsets shift when rows are added or removed meanwhile; an item seen on
 * an earlier page (same `id`) is not yielded twice.
 */
export async function* itemsOf<P extends ListPath>(read: PageReader, listPath: P, options: PaginateOptions<P>): AsyncGenerator<ListItem<P>> {
  const seen = new Set<unknown>();
  for await (const page of pagesOf(read, listPath, options)) {
    for (const item of page.items) {
      const id = (item as { id?: unknown }).id;
      if (id !== undefined) {
        if (seen.has(id)) continue;
        seen.add(id);
      }
      yield item;
    }
  }
}
