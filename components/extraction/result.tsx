'use client';

import { useEffect, useMemo, useRef, useState } from 'react';
import { toast } from 'sonner';
import type { PassageSpan } from '../citations/boxes';
import { PassageText } from '../citations/passage-text';
import type { HighlightTerms } from '../search/highlight';
import { Button, Card, cx } from '../ui';
import { spanOnPage, type MarkdownPage } from './markdown-pages';
import { PageNav, type Paging } from './page-nav';
import { StructureView } from './structure';

/** "report.pdf" → "report.md". */
function markdownFilename(filename: string | undefined, fallback: string): string {
  const base = filename ? filename.replace(/\.[^.]+$/, '') : fallback;
  return `${base || fallback}.md`;
}

type View = 'rendered' | 'raw' | 'structure';

const VIEW_NAMES: Record<View, string> = { rendered: 'Formatted', raw: 'Raw Markdown', structure: 'Structure' };

/**
 * The extracted text, one page at a time, formatted or raw, with copy and download. `citedPage`
 * (a page a search result came from) opens at that page, marked as such; `highlight` marks the
 * searched words in the formatted text; `span` (the passage a search result was taken from, as
 * offsets into the Markdown) is highlighted, and brought into sight when `showPassage` is set.
 * With `structure` (the extraction and its file) a third view shows the document's structure:
 * its blocks by kind and page, tables with their merged cells.
 */
export function Result({
  markdown,
  pages,
  paging,
  filename,
  fallbackName,
  citedPage,
  highlight,
  span,
  showPassage,
  structure,
}: {
  markdown: string;
  pages: MarkdownPage[];
  paging: Paging;
  filename?: string;
  fallbackName: string;
  citedPage?: number;
  highlight?: HighlightTerms;
  span?: PassageSpan;
  showPassage?: boolean;
  structure?: { extractionId: string; fileId: string };
}) {
  const { index, citedIndex } = paging;
  const [view, setView] = useState<View>('rendered');
  const contentRef = useRef<HTMLDivElement>(null);
  const current = pages[index];
  const paged = pages.length > 1;
  const passage = useMemo(() => spanOnPage(current, span), [current, span]);

  const goTo = (next: number) => {
    paging.goTo(next);
    contentRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

  // Arriving from a search result (or a changed #page-N): bring the cited page into sight, or the
  // passage itself the first time it is shown.
  useEffect(() => {
    if (!showPassage && citedIndex >= 0) contentRef.current?.scrollIntoView({ block: 'start' });
  }, [citedIndex, showPassage]);
  const passageSeen = useRef(false);
  const hasPassage = passage !== undefined;
  useEffect(() => {
    if (!showPassage || !hasPassage || passageSeen.current) return;
    passageSeen.current = true;
    document.getElementById('cited-passage')?.scrollIntoView({ block: 'start' });
  }, [showPassage, hasPassage]);

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
          {(structure ? (['rendered', 'raw', 'structure'] as const) : (['rendered', 'raw'] as const)).map((v) => (
            <button
              key={v}
              type="button"
              aria-pressed={view === v}
              onClick={() => setView(v)}
              className={cx('rounded px-3 py-1.5 text-sm font-medium', view === v ? 'bg-indigo-600 text-white' : 'text-slate-700 hover:bg-slate-100')}
            >
              {VIEW_NAMES[v]}
            </button>
          ))}
        </div>
        {paged && view !== 'structure' && (
          <PageNav index={index} pages={pages} onChange={goTo} citedIndex={citedIndex} label="Pages" />
        )}
      </div>
      {view === 'structure' && structure ? (
        <StructureView extractionId={structure.extractionId} fileId={structure.fileId} />
      ) : (
        <>
          <div ref={contentRef} className="scroll-mt-4">
            <CitedPageNote
              citedPage={citedPage}
              found={citedIndex >= 0}
              onCitedPage={onCitedPage}
              marking={Boolean(highlight) && view === 'rendered'}
              passageShown={passage !== undefined}
              onGo={() => goTo(citedIndex)}
            />
          </div>
          <div
            id={current.number !== null ? `page-${current.number}` : undefined}
            className={cx('scroll-mt-4', onCitedPage && 'rounded-md border-l-4 border-amber-500 pl-3')}
            aria-label={paged ? `Page ${pageLabel}${onCitedPage ? ', found by your search' : ''}` : 'Document text'}
            role="region"
          >
            {current.text === '' ? (
              <p className="py-6 text-center text-sm text-slate-600">{paged ? 'No text was found on this page.' : 'No text was found in this document.'}</p>
            ) : (
              <PassageText text={current.text} passage={passage} raw={view === 'raw'} highlight={highlight} />
            )}
          </div>
          {paged && (
            <div className="mt-4 flex justify-end border-t border-slate-100 pt-3">
              <PageNav index={index} pages={pages} onChange={goTo} citedIndex={citedIndex} compact label="Pages (bottom)" />
            </div>
          )}
        </>
      )}
    </Card>
  );
}

/** Which page a search result came from: said on that page, with a way back to it from the others. */
function CitedPageNote({
  citedPage,
  found,
  onCitedPage,
  marking,
  passageShown,
  onGo,
}: {
  citedPage?: number;
  found: boolean;
  onCitedPage: boolean;
  marking: boolean;
  passageShown: boolean;
  onGo: () => void;
}) {
  const box = 'mb-3 rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950';
  const marks = `${passageShown ? ' The passage is highlighted.' : ''}${marking ? ' The words you searched for are marked.' : ''}`;
  if (citedPage === undefined) {
    return passageShown ? (
      <p className={box} data-testid="cited-passage-note">
        Your search found the highlighted passage.{marking ? ' The words you searched for are marked.' : ''}
      </p>
    ) : null;
  }
  if (!found) return <p className={box}>Page {citedPage} was asked for, but this text has no page {citedPage}.</p>;
  if (onCitedPage) {
    return (
      <p className={box} data-testid="cited-page">
        <strong>Page {citedPage}</strong> holds the passage your search found.{marks}
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
