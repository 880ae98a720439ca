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

/** The extracted text of a document, opened at a page, with the searched words to mark. */
export function extractionHref(extractionId: string, page?: number | null, query?: string): string {
  const params = new URLSearchParams();
  if (typeof page === 'number' && Number.isInteger(page) && page > 0) params.set('page', String(page));
  if (query) params.set('q', query);
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
