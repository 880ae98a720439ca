'use client';

import { useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage } from '../api';
import { humanizeKey, metadataText, type ExtractionMode, type ExtractionStatus, type FileRecord } from '../files-common';
import { Markdown } from '../markdown';
import { Button, Card, ConfirmButton, ErrorState, Loading, PageHeader, ProgressBar, RelativeTime, StatusBadge, cx } from '../ui';

/*
 * One extraction: a live progress bar while the document is read, then its text as formatted
 * Markdown or raw, page by page, with copy and download; or why it failed, in plain words.
 */

interface Extraction {
  id: string;
  file_id: string;
  status: ExtractionStatus;
  mode: ExtractionMode;
  progress?: number;
  markdown?: string;
  total_pages?: number | null;
  metadata?: Record<string, unknown>;
  error?: { code: string; message: string };
  created_at: string;
  completed_at?: string | null;
}

const MODE_NAMES: Record<ExtractionMode, string> = { simple: 'Quick', normal: 'Standard', advanced: 'Thorough' };

/** What a failure code means for the person reading, and what they can do about it. */
const FAILURES: Record<string, string> = {
  OCR_FAILED:
    'No readable text was found. If this is a scan or a photo, it may be too blurry or faint: try the Thorough reading, the right document language, or a clearer copy.',
  ENCRYPTED_DOCUMENT: 'The document is protected with a password, so it cannot be read. Remove the password, then upload it again.',
  CORRUPT_DOCUMENT: 'The file seems damaged or incomplete, so it could not be read. Save or export it again and upload the new copy.',
  EXTRACTION_TIMEOUT: 'Reading the document took too long and was stopped. Try the Quick reading, or split the document into smaller parts.',
  TOO_MANY_PAGES: 'The document has more pages than this server accepts. Split it into smaller parts and upload them separately.',
  RESOURCE_LIMIT_EXCEEDED: 'The document needed more memory than this server allows. Split it into smaller parts and try again.',
  CANCELLED: 'The extraction was stopped before it finished.',
  UNSUPPORTED_FORMAT: 'Quarry cannot turn this kind of file into text.',
  INTERNAL_ERROR: 'Something went wrong on the server while reading the document. Try again in a little while.',
};

export function failureSentence(code: string): string {
  return FAILURES[code] ?? 'The document could not be read.';
}

export interface MarkdownPage {
  /** The page number from the document's marker, or null for text without page markers. */
  number: number | null;
  text: string;
}

const PAGE_MARKER = /^[ \t]*<!--\s*page\s+(\d+)\s*-->[ \t]*$/gim;

/** Splits extracted Markdown on its `<!-- page N -->` lines; text before the first marker joins the first page. */
export function splitPages(markdown: string): MarkdownPage[] {
  const markers = [...markdown.matchAll(PAGE_MARKER)];
  if (markers.length === 0) return [{ number: null, text: markdown.trim() }];
  const pages: MarkdownPage[] = markers.map((m, i) => {
    const start = (m.index ?? 0) + m[0].length;
    const end = i + 1 < markers.length ? (markers[i + 1].index ?? markdown.length) : markdown.length;
    return { number: Number(m[1]), text: markdown.slice(start, end).trim() };
  });
  const before = markdown.slice(0, markers[0].index ?? 0).trim();
  if (before) pages[0] = { ...pages[0], text: `${before}\n\n${pages[0].text}` };
  return pages;
}

/** "report.pdf" → "report.md". */
function markdownFilename(filename: string | undefined, fallback: string): string {
  const base = filename ? filename.replace(/\.[^.]+$/, '') : fallback;
  return `${base || fallback}.md`;
}

function durationText(fromIso: string, toIso: string): string {
  const seconds = Math.max(0, Math.round((Date.parse(toIso) - Date.parse(fromIso)) / 1000));
  if (seconds < 60) return seconds === 1 ? '1 second' : `${seconds} seconds`;
  const minutes = Math.floor(seconds / 60);
  const rest = seconds % 60;
  return `${minutes} min ${rest} s`;
}

/** The progress card of a pending or running extraction, with a way to stop it. */
function Progress({ extraction, onCancel }: { extraction: Extraction; onCancel: () => Promise<void> }) {
  const progress = extraction.progress ?? 0;
  return (
    <Card title="Reading the document">
      <div className="space-y-3">
        <div className="flex flex-wrap items-center justify-between gap-2 text-sm">
          <span className="flex items-center gap-2">
            <StatusBadge status={extraction.status} />
            <span>{extraction.status === 'pending' ? 'Waiting for its turn…' : `Reading… ${Math.round(progress)}% done`}</span>
          </span>
          <ConfirmButton
            label="Stop"
            variant="secondary"
            title="Stop this extraction?"
            message="The document stops being read. You can start a new extraction from the file page at any time."
            confirmLabel="Stop extraction"
            onConfirm={onCancel}
          />
        </div>
        <ProgressBar value={progress} label="Extraction progress" />
        <p className="text-xs text-slate-600">This page updates by itself; you can leave it and come back later.</p>
      </div>
    </Card>
  );
}

/** Why an extraction failed, with a way to try again. */
function Failure({ extraction }: { extraction: Extraction }) {
  const code = extraction.error?.code ?? 'INTERNAL_ERROR';
  return (
    <Card title={code === 'CANCELLED' ? 'Stopped' : 'The text could not be extracted'}>
      <div role="alert" className="rounded-md border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-900">
        <p>{failureSentence(code)}</p>
        {extraction.error?.message && code !== 'CANCELLED' && <p className="mt-2 text-xs text-red-800">Details from the server: {extraction.error.message}</p>}
      </div>
      <p className="mt-4 text-sm">
        <Link href={`/files/${extraction.file_id}`} className="font-medium text-indigo-700 hover:underline">
          Try again with other settings
        </Link>
      </p>
    </Card>
  );
}

type View = 'rendered' | 'raw';

/** The extracted text, one page at a time, formatted or raw, with copy and download. */
function Result({ markdown, filename, fallbackName }: { markdown: string; filename?: string; fallbackName: string }) {
  const pages = useMemo(() => splitPages(markdown), [markdown]);
  const [index, setIndex] = useState(0);
  const [view, setView] = useState<View>('rendered');
  const contentRef = useRef<HTMLDivElement>(null);
  const current = pages[Math.min(index, pages.length - 1)];
  const paged = pages.length > 1;

  const goTo = (next: number) => {
    setIndex(Math.max(0, Math.min(pages.length - 1, next)));
    contentRef.current?.scrollIntoView({ block: 'start', behavior: 'smooth' });
  };

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
          <PageNav index={index} pages={pages} onChange={goTo} />
        )}
      </div>
      <div ref={contentRef} className="scroll-mt-4" aria-label={paged ? `Page ${pageLabel}` : 'Document text'} role="region">
        {current.text === '' ? (
          <p className="py-6 text-center text-sm text-slate-600">{paged ? 'No text was found on this page.' : 'No text was found in this document.'}</p>
        ) : view === 'rendered' ? (
          <Markdown>{current.text}</Markdown>
        ) : (
          <pre tabIndex={0} aria-label="Raw Markdown" className="overflow-x-auto rounded-md bg-slate-50 p-3 font-mono text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-800">
            {current.text}
          </pre>
        )}
      </div>
      {paged && (
        <div className="mt-4 flex justify-end border-t border-slate-100 pt-3">
          <PageNav index={index} pages={pages} onChange={goTo} compact />
        </div>
      )}
    </Card>
  );
}

/** "Page N of M" with previous and next buttons (and a page picker unless compact). */
function PageNav({ index, pages, onChange, compact }: { index: number; pages: MarkdownPage[]; onChange: (index: number) => void; compact?: boolean }) {
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

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="flex justify-between gap-3 py-2">
      <dt className="shrink-0 text-slate-600">{term}</dt>
      <dd className="min-w-0 text-right break-words">{children}</dd>
    </div>
  );
}

const KNOWN_METADATA: Record<string, string> = { title: 'Title', author: 'Author', created_date: 'Document created', modified_date: 'Last edited' };

/** What is known about the extraction and the document. */
function About({ extraction, file }: { extraction: Extraction; file?: FileRecord }) {
  const extra = Object.entries(extraction.metadata ?? {}).filter(([, v]) => v !== null && v !== undefined && v !== '');
  return (
    <Card title="About this extraction" className="self-start">
      <dl className="divide-y divide-slate-100 text-sm">
        <Detail term="File">
          <Link href={`/files/${extraction.file_id}`} className="text-indigo-700 hover:underline">
            {file?.filename ?? 'Open the file'}
          </Link>
        </Detail>
        <Detail term="Status">
          <StatusBadge status={extraction.status} />
        </Detail>
        <Detail term="Reading">{MODE_NAMES[extraction.mode]}</Detail>
        {extraction.total_pages != null && <Detail term="Pages">{extraction.total_pages}</Detail>}
        {extra.map(([key, value]) => (
          <Detail key={key} term={KNOWN_METADATA[key] ?? humanizeKey(key)}>
            <span title={typeof value === 'string' ? value : undefined}>{metadataText(value)}</span>
          </Detail>
        ))}
        <Detail term="Started">
          <RelativeTime iso={extraction.created_at} />
        </Detail>
        {extraction.completed_at && (
          <>
            <Detail term="Finished">
              <RelativeTime iso={extraction.completed_at} />
            </Detail>
            <Detail term="Took">{durationText(extraction.created_at, extraction.completed_at)}</Detail>
          </>
        )}
      </dl>
    </Card>
  );
}

export function ExtractionView({ extractionId }: { extractionId: string }) {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['extraction', extractionId],
    queryFn: () => api<Extraction>(`/v1/extractions/${extractionId}`),
    retry: (n, err) => !(err instanceof ApiClientError && err.status === 404) && n < 1,
    refetchInterval: (q) => (q.state.data?.status === 'pending' || q.state.data?.status === 'processing' ? 1000 : false),
  });
  const extraction = query.data;
  const file = useQuery({
    queryKey: ['files', 'detail', extraction?.file_id],
    queryFn: () => api<FileRecord>(`/v1/files/${extraction?.file_id}`),
    enabled: Boolean(extraction?.file_id),
    retry: false,
  });

  // Announce when the task ends, and refresh the file's list of extractions.
  const previous = useRef<ExtractionStatus | undefined>(undefined);
  useEffect(() => {
    const status = extraction?.status;
    const was = previous.current;
    previous.current = status;
    if (!status || !was || was === status) return;
    if (status === 'completed') toast.success('The text is ready');
    if (status === 'failed' && extraction?.error?.code !== 'CANCELLED') toast.error('The text could not be extracted', { description: failureSentence(extraction?.error?.code ?? '') });
    if (status === 'completed' || status === 'failed') void queryClient.invalidateQueries({ queryKey: ['files', 'extractions', extraction?.file_id] });
  }, [extraction?.status, extraction?.error?.code, extraction?.file_id, queryClient]);

  if (query.isLoading) return <Loading label="Loading the extraction…" />;
  if (query.isError || !extraction) {
    const notFound = query.error instanceof ApiClientError && query.error.status === 404;
    return (
      <>
        <PageHeader title="Extraction" />
        <ErrorState
          error={notFound ? 'This extraction was not found. Its file may have been deleted.' : `The extraction could not be loaded. ${errorMessage(query.error)}`}
          onRetry={notFound ? undefined : () => query.refetch()}
        />
        <p className="mt-4 text-sm">
          <Link href="/files" className="text-indigo-700 underline">
            Back to all files
          </Link>
        </p>
      </>
    );
  }

  const cancel = async () => {
    try {
      const after = await api<Extraction>(`/v1/extractions/${extraction.id}/cancel`, { method: 'POST' });
      queryClient.setQueryData(['extraction', extractionId], after);
      toast.success('The extraction was stopped');
    } catch (err) {
      if (err instanceof ApiClientError && err.code === 'EXTRACTION_NOT_CANCELLABLE') {
        toast.info('The extraction had already finished');
        void query.refetch();
      } else {
        toast.error('The extraction could not be stopped', { description: errorMessage(err) });
      }
    }
  };

  const running = extraction.status === 'pending' || extraction.status === 'processing';
  const filename = file.data?.filename;

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href={`/files/${extraction.file_id}`} className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>
          {filename ? `Back to ${filename}` : 'Back to the file'}
        </Link>
      </p>
      <PageHeader
        title={filename ? `Text of ${filename}` : 'Extracted text'}
        description={
          <>
            {MODE_NAMES[extraction.mode]} reading, started <RelativeTime iso={extraction.created_at} />
          </>
        }
      />
      <p className="sr-only" role="status">
        {running ? 'The document is being read.' : extraction.status === 'completed' ? 'The text is ready.' : 'The extraction ended without text.'}
      </p>
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="min-w-0 lg:col-span-2">
          {running ? (
            <Progress extraction={extraction} onCancel={cancel} />
          ) : extraction.status === 'failed' ? (
            <Failure extraction={extraction} />
          ) : (
            <Result markdown={extraction.markdown ?? ''} filename={filename} fallbackName={extraction.id} />
          )}
        </div>
        <About extraction={extraction} file={file.data} />
      </div>
    </>
  );
}
