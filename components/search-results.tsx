'use client';

import Link from 'next/link';
import { useState } from 'react';
import type { SearchChunk } from './api-types';
import { Markdown } from './markdown';
import type { HighlightTerms } from './search/highlight';
import { extractionHref } from './search/links';
import { previewMarkdown } from './search/preview';
import { PassageOrigin } from './sources/origin';

/* Search results: passages with score bars, their Markdown with the query's words marked, and links to where they come from. */

/** How a result set was asked for, so its scores can be explained and its passages opened. */
export interface SearchRun {
  kbId: string;
  query: string;
  mode: 'semantic' | 'hybrid';
  vectorWeight: number;
  keywordWeight: number;
}

const fmt = (n: number) => n.toFixed(2);

/** The score as a bar; for hybrid searches the meaning and keyword parts are shown side by side. */
export function ScoreBar({ chunk, run }: { chunk: SearchChunk; run: SearchRun }) {
  const hybrid = run.mode === 'hybrid' && chunk.vector_score !== undefined && chunk.keyword_score !== undefined;
  const vectorPart = hybrid ? run.vectorWeight * chunk.vector_score! : chunk.score;
  const keywordPart = hybrid ? run.keywordWeight * chunk.keyword_score! : 0;
  const pct = (n: number) => `${Math.max(0, Math.min(100, n * 100))}%`;
  return (
    <div className="min-w-0 flex-1">
      <div aria-hidden="true" className="flex h-2.5 w-full overflow-hidden rounded-full bg-slate-200">
        <div className="h-full bg-indigo-600" style={{ width: pct(vectorPart) }} />
        {hybrid && <div className="h-full bg-amber-500" style={{ width: pct(keywordPart) }} />}
      </div>
      <p className="mt-1 flex flex-wrap gap-x-3 text-xs text-slate-600">
        <span className="font-medium text-slate-800">Score {fmt(chunk.score)}</span>
        {hybrid && (
          <>
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-full bg-indigo-600" />
              meaning {fmt(vectorPart)} (match {fmt(chunk.vector_score!)})
            </span>
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-full bg-amber-500" />
              keywords {fmt(keywordPart)} (match {fmt(chunk.keyword_score!)})
            </span>
          </>
        )}
      </p>
    </div>
  );
}

/** The cited page of a passage, when its document has pages. */
export function pageOf(metadata: Record<string, unknown>): number | null {
  const page = metadata.page;
  return typeof page === 'number' && Number.isInteger(page) && page > 0 ? page : null;
}

/** Where a passage sits, for people: "Page 3 · Section: Scope › Terms · Passage 2". */
export function placeOf(metadata: Record<string, unknown>): string {
  const parts: string[] = [];
  const page = pageOf(metadata);
  if (page !== null) parts.push(`Page ${page}`);
  if (typeof metadata.section === 'string' && metadata.section.trim()) parts.push(`Section: ${metadata.section.split(' > ').join(' › ')}`);
  if (typeof metadata.chunk_index === 'number') parts.push(`Passage ${metadata.chunk_index + 1}`);
  return parts.join(' · ');
}

/** Links to the passage's page in the extracted text and to its file. */
function SourceLinks({ chunk, run }: { chunk: SearchChunk; run: SearchRun }) {
  const page = pageOf(chunk.metadata);
  return (
    <p className="mt-3 flex flex-wrap gap-x-4 gap-y-2 text-sm">
      <Link href={extractionHref(chunk.extraction_id, page, run.query, { from: chunk.metadata.char_start, to: chunk.metadata.char_end })} className="font-medium text-indigo-700 hover:underline">
        {page !== null ? `Open at page ${page}` : 'Open the document'}
        <span className="sr-only"> of {chunk.document_title}</span>
        <span aria-hidden="true"> →</span>
      </Link>
      <Link href={`/files/${chunk.file_id}`} className="text-indigo-700 hover:underline">
        About the file<span className="sr-only"> of {chunk.document_title}</span>
      </Link>
    </p>
  );
}

const LONG = 700;

/** One passage: where it comes from, how well it matches, its text, and links to read it in place. */
export function ResultCard({ chunk, rank, run, terms }: { chunk: SearchChunk; rank: number; run: SearchRun; terms: HighlightTerms }) {
  const [expanded, setExpanded] = useState(false);
  const preview = previewMarkdown(chunk.content, LONG);
  const place = placeOf(chunk.metadata);
  return (
    <article aria-labelledby={`result-${chunk.id}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="search-result">
      <h3 id={`result-${chunk.id}`} className="min-w-0 font-semibold break-words">
        <span className="sr-only">Result {rank}: </span>
        {chunk.document_title}
      </h3>
      {place && <p className="mt-0.5 text-sm break-words text-slate-600" data-testid="result-place">{place}</p>}
      <PassageOrigin item={chunk.source_item} version={chunk.source_item ? chunk.file_version : undefined} chunkId={chunk.id} documentId={chunk.document_id} />
      <div className="mt-3 flex items-center gap-3">
        <span aria-hidden="true" className="text-sm font-semibold text-slate-600 tabular-nums">
          #{rank}
        </span>
        <ScoreBar chunk={chunk} run={run} />
      </div>
      <Markdown passage highlight={terms} className="mt-3 text-sm text-slate-800 [&>:first-child]:mt-0">
        {expanded || !preview.cut ? chunk.content : preview.text}
      </Markdown>
      {preview.cut && (
        <button type="button" aria-expanded={expanded} className="mt-2 text-sm font-medium text-indigo-700 hover:underline" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : 'Show the whole passage'}
        </button>
      )}
      <SourceLinks chunk={chunk} run={run} />
    </article>
  );
}
