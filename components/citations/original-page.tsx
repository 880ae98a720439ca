'use client';

import { useEffect, useState, type ReactNode } from 'react';
import type { MarkdownPage } from '../extraction/markdown-pages';
import { PageNav, type Paging } from '../extraction/page-nav';
import { Card } from '../ui';
import type { CitationBox } from './boxes';
import type { OriginalKind } from './kinds';
import { PdfCanvas } from './pdf-canvas';

/*
 * The original page beside its text: a PDF page drawn with pdf.js, or the picture as uploaded,
 * with the passage a search result came from highlighted over it. The highlight boxes are
 * fractions of the page, so they scale with the page whatever its size on screen.
 */

/** The highlight rectangles over a page. */
function Highlights({ boxes }: { boxes: CitationBox[] }) {
  return boxes.map((b, i) => (
    <div
      key={i}
      data-testid="citation-box"
      aria-hidden="true"
      className="pointer-events-none absolute rounded-sm bg-yellow-300/45 mix-blend-multiply ring-2 ring-amber-500"
      style={{ left: `${b.x0 * 100}%`, top: `${b.y0 * 100}%`, width: `${(b.x1 - b.x0) * 100}%`, height: `${(b.y1 - b.y0) * 100}%` }}
    />
  ));
}

export function OriginalPage({
  kind,
  fileId,
  filename,
  pages,
  paging,
  boxes,
  citedPage,
  positionsKnown,
}: {
  kind: OriginalKind;
  fileId: string;
  filename?: string;
  pages: MarkdownPage[];
  paging: Paging;
  /** The passage's boxes, on every page. */
  boxes: CitationBox[];
  citedPage?: number;
  /** False when a passage was asked for but the document has no positions to place it by. */
  positionsKnown: boolean;
}) {
  const url = `/v1/files/${encodeURIComponent(fileId)}/download`;
  const pageNumber = pages[paging.index]?.number ?? 1;
  const onPage = boxes.filter((b) => b.page === pageNumber);
  const [drawn, setDrawn] = useState(false);
  const [failed, setFailed] = useState(false);
  const paged = kind === 'pdf' && pages.length > 1;
  const what = kind === 'pdf' ? `Page ${pageNumber} of the original document` : 'The original picture';

  useEffect(() => {
    setDrawn(false);
    setFailed(false);
  }, [pageNumber, fileId]);

  let caption: ReactNode = null;
  if (onPage.length > 0) caption = 'Highlighted: the passage found by your search.';
  else if (!positionsKnown) caption = 'Where the passage sits on the page is not known for this document; it is highlighted in the text.';
  else if (boxes.length > 0) caption = `The passage your search found is on page ${boxes[0]!.page}.`;
  else if (citedPage !== undefined && citedPage !== pageNumber) caption = `The passage your search found is on page ${citedPage}.`;

  return (
    <Card title={kind === 'pdf' ? 'Original page' : 'Original picture'}>
      {kind === 'unshown-image' ? (
        <p className="text-sm text-slate-700">
          Web browsers cannot show pictures in this format, so only the text read from it is shown.{' '}
          <a href={url} download={filename} className="font-medium text-indigo-700 underline">
            Download the original
          </a>
        </p>
      ) : (
        <>
          {paged && (
            <div className="mb-3">
              <PageNav index={paging.index} pages={pages} onChange={paging.goTo} citedIndex={paging.citedIndex} compact label="Pages of the original" />
            </div>
          )}
          <figure className="m-0">
            <div className="relative overflow-hidden rounded border border-slate-300 bg-white" data-testid="original-page">
              {kind === 'pdf' ? (
                <PdfCanvas url={url} pageNumber={pageNumber} label={what} onDrawn={() => setDrawn(true)} onFailed={() => setFailed(true)} />
              ) : (
                // eslint-disable-next-line @next/next/no-img-element -- the file itself, from this site, at its own size
                <img src={url} alt={what} className="block h-auto w-full" onLoad={() => setDrawn(true)} onError={() => setFailed(true)} data-testid="original-image" />
              )}
              {drawn && <Highlights boxes={onPage} />}
            </div>
            <figcaption className="mt-2 text-sm text-slate-700" aria-live="polite">
              {failed ? (
                <>
                  The original could not be shown here; the text beside it is complete.{' '}
                  <a href={url} download={filename} className="font-medium text-indigo-700 underline">
                    Download the original
                  </a>
                </>
              ) : drawn ? (
                caption
              ) : kind === 'pdf' ? (
                'Drawing the page…'
              ) : (
                'Loading the picture…'
              )}
            </figcaption>
          </figure>
        </>
      )}
    </Card>
  );
}
