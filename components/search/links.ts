/* Addresses the console builds or lets through for search results and the Markdown they show. */

const SAFE_PROTOCOLS = new Set(['http:', 'https:', 'mailto:']);

/**
 * The address of a link in a document when it is a web or email address, else '' (shown as plain
 * text). Relative addresses are dropped too: inside the console they would lead to its own pages.
 */
export function safeUrl(value: string): string {
  try {
    const url = new URL(value);
    return SAFE_PROTOCOLS.has(url.protocol) ? url.href : '';
  } catch {
    return '';
  }
}

const isOffset = (n: unknown): n is number => typeof n === 'number' && Number.isInteger(n) && n >= 0;

/**
 * The extracted text of a document, opened at a page, with the searched words to mark and the
 * passage to highlight: `from`/`to` are its span of the Markdown (the chunk's `char_start` and
 * `char_end`); the page shows where that span sits on the original document.
 */
export function extractionHref(extractionId: string, page?: number | null, query?: string, span?: { from?: unknown; to?: unknown }): string {
  const params = new URLSearchParams();
  if (typeof page === 'number' && Number.isInteger(page) && page > 0) params.set('page', String(page));
  if (query) params.set('q', query);
  if (span && isOffset(span.from) && isOffset(span.to) && span.to > span.from) {
    params.set('from', String(span.from));
    params.set('to', String(span.to));
  }
  const search = params.toString();
  return `/extractions/${encodeURIComponent(extractionId)}${search ? `?${search}` : ''}`;
}

/** The page asked for by `?page=3` or `#page-3`, if any. */
export function requestedPage(search: string | null | undefined, hash: string | null | undefined): number | undefined {
  const fromSearch = Number(new URLSearchParams(search ?? '').get('page'));
  if (Number.isInteger(fromSearch) && fromSearch > 0) return fromSearch;
  const fromHash = /^#?page-(\d+)$/.exec(hash ?? '');
  return fromHash ? Number(fromHash[1]) : undefined;
}
