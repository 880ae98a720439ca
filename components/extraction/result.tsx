'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Markdown } from '../markdown';
import type { HighlightTerms } from '../search/highlight';
import { Button, Card, cx } from '../ui';
import { splitPages, type MarkdownPage } from './markdown-pages';

/** "report.pdf" → "report.md". */
function markdownFilename(filename: string | undefined, fallback: string): string {
  const base = filename ? filename.replace(/\.[^.]+$/, '') : fallback;
  return `${base || fallback}.md`;
}

type View = 'rendered' | 'raw';

/**
 * The extracted text, one page at a time, formatted or raw, with copy and download. `citedPage`
 * (a page a search result came from) opens at that page, marked as such; `highlight` marks the
 * searched words in the formatted text.
 */
export function Result({
  markdown,
  filename,
  fallbackName,
  citedPage,
  highlight,
}: {
  markdown: string;
  filename?: string;
  fallbackName: string;
  citedPage?: number;
  highlight?: HighlightTerms;
}) {
  const pages = useMemo(() => splitPages(markdown), [markdown]);
  const citedIndex = citedPage === undefined ? -1 : pages.findIndex((p) => p.number === citedPage);
  const [index, setIndex] = useState(Math.max(0, citedIndex));
  const [view, setView] = useState<View>('rendered');
  const contentRef = useRef<HTMLDivElement>(null);
  const current = pages[Math.min(index, pages.length - 1)];
  const paged = pages.length > 1;

  const goTo = (next: number) => {
    setIndex(Math.max(0, Math.min(pages.length - 1, next)));
    contentRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  // Arriving from a search result (or a changed #page-N): show the cited page and bring it into sight.
  useEffect(() => {
    if (citedIndex < 0) return;
    setIndex(citedIndex);
    contentRef.current?.scrollIntoView({ block: 'start' });
  }, [citedIndex]);

  const copy = async () => {
    try {
      await navigator.clipboard.writeText(markdown);
      toast.success('The text was copied', { description: 'Paste it wherever you need it.' });
    } catch {
      toast.error('The text could not be copied', { description: 'Your browser did not allow it. Use Download instead.' });
    }
  };

  const download = () => {
    const url = URL.createObjectURL(new Blob([markdown], { type: 'text/markdown;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = markdownFilename(filename, fallbackName);
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    toast.success('Download started');
  };

  const pageLabel = current.number ?? index + 1;
  const onCitedPage = citedIndex >= 0 && index === citedIndex;

  return (
    <Card
      title="Extracted text"
      actions={
        <>
          <Button variant="secondary" onClick={copy}>
            Copy text
          </Button>
          <Button variant="secondary" onClick={download}>
            Download .md
          </Button>
        </>
      }
    >
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3">
        <div role="group" aria-label="How to show the text" className="inline-flex rounded-md border border-slate-300 p-0.5">
          {(['rendered', 'raw'] as const).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={cx('rounded px-3 py-1.5 text-sm font-medium', view === v ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100')}
            >
              {v === 'rendered' ? 'Formatted' : 'Raw Markdown'}
            </button>
          ))}
        </div>
        {paged && (
          <PageNav index={index} pages={pages} onChange={goTo} citedIndex={citedIndex} />
        )}
      </div>
      <div ref={contentRef} className="scroll-mt-4">
        <CitedPageNote citedPage={citedPage} found={citedIndex >= 0} onCitedPage={onCitedPage} marking={Boolean(highlight) && view === 'rendered'} onGo={() => goTo(citedIndex)} />
      </div>
      <div
        id={current.number !== null ? `page-${current.number}` : undefined}
        className={cx('scroll-mt-4', onCitedPage && 'rounded-md border-l-4 border-amber-500 pl-3')}
        aria-label={paged ? `Page ${pageLabel}${onCitedPage ? ', found by your search' : ''}` : 'Document text'}
        role="region"
      >
        {current.text === '' ? (
          <p className="py-6 text-center text-sm text-slate-600">{paged ? 'No text was found on this page.' : 'No text was found in this document.'}</p>
        ) : view === 'rendered' ? (
          <Markdown highlight={highlight}>{current.text}</Markdown>
        ) : (
          <pre tabIndex={0} aria-label="Raw Markdown" className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800">
            {current.text}
          </pre>
        )}
      </div>
      {paged && (
        <div className="mt-4 flex justify-end border-t border-slate-100 pt-3">
          <PageNav index={index} pages={pages} onChange={goTo} citedIndex={citedIndex} compact />
        </div>
      )}
    </Card>
  );
}

/** Which page a search result came from: said on that page, with a way back to it from the others. */
function CitedPageNote({ citedPage, found, onCitedPage, marking, onGo }: { citedPage?: number; found: boolean; onCitedPage: boolean; marking: boolean; onGo: () => void }) {
  if (citedPage === undefined) return null;
  const box = 'mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950';
  if (!found) return <p className={box}>Page {citedPage} was asked for, but this text has no page {citedPage}.</p>;
  if (onCitedPage) {
    return (
      <p className={box} data-testid="cited-page">
        <strong>Page {citedPage}</strong> holds the passage your search found.{marking ? ' The words you searched for are marked.' : ''}
      </p>
    );
  }
  return (
    <p className={box}>
      The passage your search found is on page {citedPage}.{' '}
      <button type="button" onClick={onGo} className="font-medium text-indigo-800 underline">
        Go to page {citedPage}
      </button>
    </p>
  );
}

/** "Page N of M" with previous and next buttons (and a page picker unless compact). */
function PageNav({
  index,
  pages,
  onChange,
  citedIndex,
  compact,
}: {
  index: number;
  pages: MarkdownPage[];
  onChange: (index: number) => void;
  citedIndex: number;
  compact?: boolean;
}) {
  const label = (i: number) => pages[i].number ?? i + 1;
  return (
    <nav aria-label={compact ? 'Pages (bottom)' : 'Pages'} className="flex flex-wrap items-center gap-2 text-sm">
      <Button variant="secondary" className="py-1.5" disabled={index === 0} onClick={() => onChange(index - 1)}>
        <span aria-hidden="true">←</span> Previous<span className="sr-only"> page</span>
      </Button>
      {compact ? (
        <span className="text-slate-700">
          Page {label(index)} of {pages.length}
        </span>
      ) : (
        <label className="flex items-center gap-1 text-slate-700">
          <span>Page</span>
          <select
            value={index}
            onChange={(e) => onChange(Number(e.target.value))}
            className="rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
            aria-label={`Page ${label(index)} of ${pages.length}; choose a page`}
          >
            {pages.map((p, i) => (
              <option key={i} value={i}>
                {label(i)}
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
          Page {label(index)} of {pages.length}
        </span>
      )}
    </nav>
  );
}
