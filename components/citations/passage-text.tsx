'use client';

import { useMemo } from 'react';
import { Markdown } from '../markdown';
import type { HighlightTerms } from '../search/highlight';
import { cutPassage } from './passage';

const PASSAGE_BOX = 'my-2 scroll-mt-4 rounded-md bg-amber-50 px-3 py-1 ring-2 ring-amber-500';

/**
 * A page's Markdown, formatted or raw, with the passage a search result was taken from
 * highlighted (widened to whole paragraphs, lists or tables in the formatted view, exact in the
 * raw one) and announced to screen readers as such.
 */
export function PassageText({ text, passage, raw, highlight }: { text: string; passage?: { from: number; to: number }; raw: boolean; highlight?: HighlightTerms }) {
  const parts = useMemo(() => (raw ? undefined : cutPassage(text, passage)), [raw, text, passage]);

  if (raw) {
    const span = passage && passage.to > passage.from ? passage : undefined;
    return (
      <pre tabIndex={0} aria-label="Raw Markdown" className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800">
        {span ? (
          <>
            {text.slice(0, span.from)}
            <span id="cited-passage" data-testid="cited-passage" className="scroll-mt-4 bg-amber-100 outline outline-1 outline-amber-500">
              <span className="sr-only">Start of the passage your search found: </span>
              {text.slice(span.from, span.to)}
              <span className="sr-only"> (end of the passage)</span>
            </span>
            {text.slice(span.to)}
          </>
        ) : (
          text
        )}
      </pre>
    );
  }

  if (!parts) return <Markdown highlight={highlight}>{text}</Markdown>;
  return (
    <>
      {parts.before && <Markdown highlight={highlight}>{parts.before}</Markdown>}
      <section id="cited-passage" data-testid="cited-passage" aria-label="Passage found by your search" className={PASSAGE_BOX}>
        <Markdown highlight={highlight}>{parts.passage}</Markdown>
      </section>
      {parts.after && <Markdown highlight={highlight}>{parts.after}</Markdown>}
    </>
  );
}
