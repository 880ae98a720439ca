'use client';

import { useCallback, useEffect, useState } from 'react';
import { Button } from '../ui';
import type { MarkdownPage } from './markdown-pages';

/**
 * Which page of the document is shown, shared by the text and the original page beside it, so
 * turning a page on either side turns both. Arriving from a search result opens the cited page.
 */
export function usePaging(pages: MarkdownPage[], citedPage: number | undefined) {
  const citedIndex = citedPage === undefined ? -1 : pages.findIndex((p) => p.number === citedPage);
  // The page picked by hand; until then (and again whenever the cited page changes) the cited one.
  const [chosen, setChosen] = useState<number | null>(null);
  useEffect(() => setChosen(null), [citedIndex]);
  const goTo = useCallback((next: number) => setChosen(Math.max(0, Math.min(pages.length - 1, next))), [pages.length]);
  const index = chosen ?? Math.max(0, citedIndex);
  return { index: Math.max(0, Math.min(index, pages.length - 1)), citedIndex, goTo };
}

export type Paging = ReturnType<typeof usePaging>;

/** "Page N of M" with previous and next buttons (and a page picker unless compact). */
export function PageNav({
  index,
  pages,
  onChange,
  citedIndex,
  compact,
  label,
}: {
  index: number;
  pages: MarkdownPage[];
  onChange: (index: number) => void;
  citedIndex: number;
  compact?: boolean;
  label: string;
}) {
  const pageLabel = (i: number) => pages[i].number ?? i + 1;
  return (
    <nav aria-label={label} className="flex flex-wrap items-center gap-2 text-sm">
      <Button variant="secondary" className="py-1.5" disabled={index === 0} onClick={() => onChange(index - 1)}>
        <span aria-hidden="true">←</span> Previous<span className="sr-only"> page</span>
      </Button>
      {compact ? (
        <span className="text-slate-700">
          Page {pageLabel(index)} of {pages.length}
        </span>
      ) : (
        <label className="flex items-center gap-1 text-slate-700">
          <span>Page</span>
          <select
            value={index}
            onChange={(e) => onChange(Number(e.target.value))}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
            aria-label={`Page ${pageLabel(index)} of ${pages.length}; choose a page`}
          >
            {pages.map((p, i) => (
              <option key={i} value={i}>
                {pageLabel(i)}
                {i === citedIndex ? ' (found by your search)' : ''}
              </option>
            ))}
          </select>
          <span>of {pages.length}</span>
        </label>
      )}
      <Button variant="secondary" className="py-1.5" disabled={index === pages.length - 1} onClick={() => onChange(index + 1)}>
        Next<span className="sr-only"> page</span> <span aria-hidden="true">→</span>
      </Button>
      {!compact && (
        <span className="sr-only" aria-live="polite">
          Page {pageLabel(index)} of {pages.length}
        </span>
      )}
    </nav>
  );
}
