'use client';

import { useState, type ReactNode } from 'react';
import type { SearchChunk } from './api-types';
import { Badge } from './ui';

/* Search results: passages with score bars and the query's words highlighted. */

/** How a result set was asked for, so its scores can be explained. */
export interface SearchRun {
  query: string;
  mode: 'semantic' | 'hybrid';
  vectorWeight: number;
  keywordWeight: number;
}

const NO_SPACES = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}\p{Script=Thai}]/u;

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The words of a query (letters and digits), longest first; single Latin letters are left out. */
export function queryWords(query: string): string[] {
  const words = query
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w.length >= 2 || /[^\u0000-\u007f]/.test(w));
  return [...new Set(words)].sort((a, b) => b.length - a.length);
}

/**
 * Text with the words wrapped in <mark>, case-insensitively. Words match at the start of a word
 * ("swim" marks "swimming", "to" does not mark "cartoon"), except in scripts written without
 * spaces (Chinese, Japanese, Korean, Thai), where they match anywhere.
 */
export function Highlighted({ text, words }: { text: string; words: string[] }): ReactNode {
  if (words.length === 0) return text;
  const alternatives = words.map((w) => (NO_SPACES.test(w) ? escapeRegExp(w) : `(?<![\\p{L}\\p{N}])${escapeRegExp(w)}`));
  const pattern = new RegExp(`(${alternatives.join('|')})`, 'giu');
  return text.split(pattern).map((part, i) =>
    i % 2 === 1 ? (
      <mark key={i} className="rounded-sm bg-yellow-200 px-0.5 text-inherit">
        {part}
      </mark>
    ) : (
      part
    ),
  );
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
              meaning {fmt(vectorPart)} <span className="text-slate-500">(match {fmt(chunk.vector_score!)})</span>
            </span>
            <span>
              <span aria-hidden="true" className="mr-1 inline-block h-2 w-2 rounded-full bg-amber-500" />
              keywords {fmt(keywordPart)} <span className="text-slate-500">(match {fmt(chunk.keyword_score!)})</span>
            </span>
          </>
        )}
      </p>
    </div>
  );
}

const LONG = 700;

/** One passage: where it comes from, how well it matches, and its text. */
export function ResultCard({ chunk, rank, run, words }: { chunk: SearchChunk; rank: number; run: SearchRun; words: string[] }) {
  const [expanded, setExpanded] = useState(false);
  const long = chunk.content.length > LONG;
  const text = long && !expanded ? `${chunk.content.slice(0, LONG).trimEnd()}…` : chunk.content;
  const { page, section } = chunk.metadata;
  return (
    <article aria-labelledby={`result-${chunk.id}`} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm" data-testid="search-result">
      <div className="flex flex-wrap items-start justify-between gap-2">
        <h3 id={`result-${chunk.id}`} className="min-w-0 break-words font-semibold">
          <span className="sr-only">Result {rank}: </span>
          {chunk.document_title}
        </h3>
        <div className="flex flex-wrap gap-1">
          {page != null && <Badge tone="blue">Page {String(page)}</Badge>}
          {typeof chunk.metadata.chunk_index === 'number' && <Badge>Passage {chunk.metadata.chunk_index + 1}</Badge>}
        </div>
      </div>
      {typeof section === 'string' && section && <p className="mt-0.5 break-words text-sm text-slate-600">Section: {section}</p>}
      <div className="mt-3 flex items-center gap-3">
        <span aria-hidden="true" className="text-sm font-semibold tabular-nums text-slate-500">
          #{rank}
        </span>
        <ScoreBar chunk={chunk} run={run} />
      </div>
      <p className="mt-3 whitespace-pre-wrap break-words text-sm leading-relaxed text-slate-800">
        <Highlighted text={text} words={words} />
      </p>
      {long && (
        <button type="button" aria-expanded={expanded} className="mt-2 text-sm font-medium text-indigo-700 hover:underline" onClick={() => setExpanded((v) => !v)}>
          {expanded ? 'Show less' : 'Show the whole passage'}
        </button>
      )}
    </article>
  );
}
