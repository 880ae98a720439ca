'use client';

import { useMutation, useQuery } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useId, useMemo, useRef, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { api, errorMessage, type Page } from '../api';
import type { KnowledgeBaseListItem, SearchResponse } from '../api-types';
import { buildFilter, MetadataFilters, type FilterRow } from '../metadata-filters';
import { ResultCard, type SearchRun } from '../search-results';
import { highlightTerms } from '../search/highlight';
import { Button, Card, cx, EmptyState, ErrorState, Field, Input, Loading, PageHeader, Select } from '../ui';

type Mode = 'semantic' | 'hybrid';

const MODES: { value: Mode; label: string; description: string }[] = [
  { value: 'semantic', label: 'By meaning', description: 'Finds passages about the same thing, even in other words.' },
  { value: 'hybrid', label: 'Meaning and keywords', description: 'Also rewards passages containing your exact words.' },
];

/** Semantic or hybrid, as radio cards. */
function ModeChoice({ value, onChange }: { value: Mode; onChange: (mode: Mode) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">How to search</legend>
      <div className="mt-1 grid gap-2">
        {MODES.map((m) => (
          <label
            key={m.value}
            className={cx('flex cursor-pointer items-start gap-2 rounded-md border p-2.5 text-sm', value === m.value ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50')}
          >
            <input type="radio" name={name} value={m.value} checked={value === m.value} onChange={() => onChange(m.value)} className="mt-0.5" />
            <span>
              <span className="block font-medium">{m.label}</span>
              <span className="block text-xs text-slate-600">{m.description}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/** The single slider that splits a hybrid score between keywords (k) and meaning (1 − k). */
function KeywordShare({ value, onChange }: { value: number; onChange: (v: number) => void }) {
  const id = useId();
  return (
    <div className="space-y-1">
      <label htmlFor={id} className="block text-sm font-medium text-slate-800">
        Weight of exact words
      </label>
      <input
        id={id}
        type="range"
        min={0}
        max={100}
        step={5}
        value={value}
        aria-valuetext={`${value}% keywords, ${100 - value}% meaning`}
        onChange={(e) => onChange(Number(e.target.value))}
        className="w-full accent-indigo-600"
      />
      <p className="flex justify-between text-xs text-slate-600" aria-hidden="true">
        <span>
          <span className="mr-1 inline-block h-2 w-2 rounded-full bg-indigo-600" />
          Meaning {100 - value}%
        </span>
        <span>
          Keywords {value}%
          <span className="ml-1 inline-block h-2 w-2 rounded-full bg-amber-500" />
        </span>
      </p>
    </div>
  );
}

interface SearchRequest extends SearchRun {
  topK: number;
  threshold?: number;
  filter?: Record<string, unknown>;
}

/** The search playground: choose a knowledge base and settings, ask, and read the passages found. */
export function Search({ initialKbId }: { initialKbId?: string }) {
  const kbs = useQuery({
    queryKey: ['knowledge-bases', 'all'],
    queryFn: () => api<Page<KnowledgeBaseListItem>>('/v1/knowledge-bases?limit=100&sort_by=name'),
  });
  const [chosenKb, setChosenKb] = useState(initialKbId ?? '');
  const [query, setQuery] = useState('');
  const [mode, setMode] = useState<Mode>('semantic');
  const [topK, setTopK] = useState('5');
  const [threshold, setThreshold] = useState('');
  const [keywordShare, setKeywordShare] = useState(30);
  const [filters, setFilters] = useState<FilterRow[]>([]);
  const [formError, setFormError] = useState<string | null>(null);

  const items = kbs.data?.items ?? [];
  const kbId = items.some((kb) => kb.id === chosenKb) ? chosenKb : (items[0]?.id ?? '');

  const search = useMutation({
    mutationFn: (req: SearchRequest) => {
      const body: Record<string, unknown> = { query: req.query, top_k: req.topK };
      if (req.threshold !== undefined) body.threshold = req.threshold;
      if (req.filter) body.filter = req.filter;
      if (req.mode === 'hybrid') {
        body.vector_weight = req.vectorWeight;
        body.keyword_weight = req.keywordWeight;
      }
      return api<SearchResponse>(`/v1/knowledge-bases/${req.kbId}/${req.mode === 'hybrid' ? 'hybrid-search' : 'search'}`, { method: 'POST', json: body });
    },
    onError: (err) => toast.error(`The search did not run: ${errorMessage(err)}`),
  });

  const answeredQuery = search.data ? (search.variables?.query ?? '') : '';
  const terms = useMemo(() => highlightTerms(answeredQuery), [answeredQuery]);

  // On phones the results sit below the form: bring them into sight (and focus) when a search ends.
  const resultsRef = useRef<HTMLElement>(null);
  const endedAt = search.isSuccess || search.isError ? search.submittedAt : 0;
  useEffect(() => {
    const section = resultsRef.current;
    if (!endedAt || !section) return;
    const top = section.getBoundingClientRect().top;
    if (top >= 0 && top < window.innerHeight / 2) return;
    const reduceMotion = window.matchMedia('(prefers-reduced-motion: reduce)').matches;
    section.scrollIntoView({ block: 'start', behavior: reduceMotion ? 'auto' : 'smooth' });
    section.focus({ preventScroll: true });
  }, [endedAt]);

  function submit(event: FormEvent) {
    event.preventDefault();
    const k = Number(topK);
    const t = threshold.trim() === '' ? undefined : Number(threshold);
    if (!query.trim()) return setFormError('Type what you are looking for.');
    if (!Number.isInteger(k) || k < 1 || k > 100) return setFormError('Number of results must be a whole number from 1 to 100.');
    if (t !== undefined && (!Number.isFinite(t) || t < 0 || t > 1)) return setFormError('Minimum score must be between 0 and 1.');
    setFormError(null);
    const keyword = Math.round(keywordShare) / 100;
    search.mutate({
      kbId,
      query: query.trim(),
      mode,
      topK: k,
      threshold: t,
      filter: buildFilter(filters),
      keywordWeight: mode === 'hybrid' ? keyword : 0,
      vectorWeight: mode === 'hybrid' ? Math.round((1 - keyword) * 100) / 100 : 1,
    });
  }

  if (kbs.isLoading) return <Loading label="Loading knowledge bases…" />;
  if (kbs.isError) return <ErrorState error={errorMessage(kbs.error)} onRetry={() => kbs.refetch()} />;
  if (items.length === 0) {
    return (
      <>
        <PageHeader title="Search" />
        <EmptyState title="There is nothing to search yet">
          <p>
            Create a <Link href="/knowledge-bases" className="text-indigo-700 underline">knowledge base</Link> and add documents to it first.
          </p>
        </EmptyState>
      </>
    );
  }

  const run = search.data ? search.variables : undefined;

  return (
    <>
      <PageHeader title="Search" description="Try questions against a knowledge base and see which passages come back, and why." />
      <div className="grid gap-6 lg:grid-cols-[22rem_minmax(0,1fr)]">
        <Card className="self-start">
          <form onSubmit={submit} noValidate className="space-y-4" aria-label="Search settings">
            <Field label="Knowledge base">
              {({ id }) => (
                <Select id={id} value={kbId} onChange={(e) => setChosenKb(e.target.value)}>
                  {items.map((kb) => (
                    <option key={kb.id} value={kb.id}>
                      {kb.name} ({kb.document_count} {kb.document_count === 1 ? 'document' : 'documents'})
                    </option>
                  ))}
                </Select>
              )}
            </Field>
            <Field label="What are you looking for?" error={formError}>
              {({ id, describedBy }) => (
                <Input id={id} type="search" aria-describedby={describedBy} value={query} maxLength={8000} placeholder="e.g. how to get started" onChange={(e) => setQuery(e.target.value)} />
              )}
            </Field>
            <ModeChoice value={mode} onChange={setMode} />
            {mode === 'hybrid' && <KeywordShare value={keywordShare} onChange={setKeywordShare} />}
            <div className="grid grid-cols-2 gap-3">
              <Field label="Number of results" hint="1 to 100">
                {({ id, describedBy }) => (
                  <Input id={id} aria-describedby={describedBy} type="number" inputMode="numeric" min={1} max={100} value={topK} onChange={(e) => setTopK(e.target.value)} />
                )}
              </Field>
              <Field label="Minimum score" hint="0 to 1; empty for none">
                {({ id, describedBy }) => (
                  <Input id={id} aria-describedby={describedBy} type="number" inputMode="decimal" min={0} max={1} step={0.05} value={threshold} onChange={(e) => setThreshold(e.target.value)} />
                )}
              </Field>
            </div>
            <MetadataFilters rows={filters} onChange={setFilters} />
            <Button type="submit" busy={search.isPending} className="w-full">
              Search
            </Button>
          </form>
        </Card>
        <section ref={resultsRef} tabIndex={-1} aria-labelledby="results-heading" className="min-w-0 scroll-mt-4 space-y-3 focus:outline-none">
          <h2 id="results-heading" className="text-base font-semibold">
            Results
          </h2>
          <p role="status" aria-live="polite" className="text-sm text-slate-600">
            {search.isPending
              ? 'Searching…'
              : run && search.data
                ? search.data.total === 0
                  ? 'No passages found.'
                  : `${search.data.total} ${search.data.total === 1 ? 'passage' : 'passages'} found, best first.`
                : ''}
          </p>
          {search.isError && <ErrorState error={errorMessage(search.error)} />}
          {!search.data && !search.isPending && !search.isError && (
            <EmptyState title="Ask something to see results">
              <p>Passages appear here with the document they come from and how well they match.</p>
            </EmptyState>
          )}
          {run && search.data && search.data.total === 0 && (
            <EmptyState title="Nothing matched">
              <p>Try other words, a lower minimum score, fewer filters, or the meaning-and-keywords search.</p>
            </EmptyState>
          )}
          {run && search.data && search.data.chunks.length > 0 && (
            <ol className="space-y-3" aria-label="Passages found">
              {search.data.chunks.map((chunk, i) => (
                <li key={chunk.id}>
                  <ResultCard chunk={chunk} rank={i + 1} run={run} terms={terms} />
                </li>
              ))}
            </ol>
          )}
        </section>
      </div>
    </>
  );
}
