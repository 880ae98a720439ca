'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useRouter } from 'next/navigation';
import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage, type Page } from '../api';
import { humanizeKey, metadataText, typeLabel, useFileTypes, type ExtractionListItem, type ExtractionMode, type FileRecord } from '../files-common';
import { Badge, Button, Card, ConfirmButton, cx, EmptyState, ErrorState, Field, formatBytes, FormError, Loading, PageHeader, RelativeTime, Select, StatusBadge } from '../ui';

/*
 * One file: what it is, its tags and details, download and delete, the extractions made from it,
 * and a form to start a new one with the choices explained in plain words.
 */

const MODES: { value: ExtractionMode; title: string; text: string }[] = [
  { value: 'simple', title: 'Quick', text: 'Reads only the text stored inside the file. Fastest, but scanned pages and photos of text come out empty.' },
  { value: 'normal', title: 'Standard (recommended)', text: 'Reads the stored text, and uses text recognition (OCR) on scanned pages that have none.' },
  { value: 'advanced', title: 'Thorough', text: 'Also runs text recognition on every page, to catch text inside pictures and diagrams. Slowest.' },
];

const MODE_NAMES: Record<ExtractionMode, string> = { simple: 'Quick', normal: 'Standard', advanced: 'Thorough' };

const LANGUAGES = [
  { value: '', label: 'Automatic (English, or detect Chinese, Japanese or Korean)' },
  { value: 'en', label: 'English' },
  { value: 'zh', label: 'Chinese (Simplified)' },
  { value: 'ja', label: 'Japanese' },
  { value: 'ko', label: 'Korean' },
];

const ENGINES = [
  { value: 'default', label: 'Built-in (recommended)' },
  { value: 'tesseract', label: 'Tesseract' },
  { value: 'cloud', label: 'Cloud service set up by your administrator' },
];

/** A labelled checkbox with an explanation underneath. */
function Checkbox({ label, hint, checked, onChange }: { label: string; hint: string; checked: boolean; onChange: (checked: boolean) => void }) {
  const id = useId();
  return (
    <div className="flex gap-3">
      <input id={id} type="checkbox" checked={checked} onChange={(e) => onChange(e.target.checked)} aria-describedby={`${id}-hint`} className="mt-0.5 h-4 w-4 shrink-0 accent-indigo-600" />
      <div>
        <label htmlFor={id} className="text-sm font-medium text-slate-800">
          {label}
        </label>
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      </div>
    </div>
  );
}

/** The form that starts an extraction of the file and opens its page. */
function ExtractForm({ file }: { file: FileRecord }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const isImage = file.content_type.startsWith('image/');
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const [language, setLanguage] = useState('');
  const [engine, setEngine] = useState('default');
  const [tables, setTables] = useState(true);
  const [layout, setLayout] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: () =>
      api<{ id: string }>('/v1/extractions', {
        method: 'POST',
        json: {
          file_id: file.id,
          mode,
          options: { ...(language ? { language } : {}), ocr_provider: engine, extract_tables: tables, preserve_layout: layout },
        },
      }),
    onSuccess: (created) => {
      toast.success('Extraction started', { description: 'You can follow its progress on the next page.' });
      void queryClient.invalidateQueries({ queryKey: ['files', 'extractions', file.id] });
      router.push(`/extractions/${created.id}`);
    },
    onError: (err) => {
      const message =
        err instanceof ApiClientError && err.code === 'UNSUPPORTED_FORMAT' ? 'Quarry cannot turn this kind of file into text.' : errorMessage(err);
      setError(message);
      toast.error('The extraction could not be started', { description: message });
    },
  });

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        setError(null);
        start.mutate();
      }}
      className="space-y-5"
    >
      <fieldset>
        <legend className="text-sm font-medium text-slate-800">How carefully to read the file</legend>
        <div className="mt-2 grid gap-2 sm:grid-cols-3">
          {MODES.map((m) => {
            const disabled = m.value === 'simple' && isImage;
            return (
              <label
                key={m.value}
                className={cx(
                  'flex cursor-pointer gap-2 rounded-md border p-3 text-sm has-[:focus-visible]:outline-2 has-[:focus-visible]:outline-indigo-600',
                  mode === m.value ? 'border-indigo-500 bg-indigo-50' : 'border-slate-300 bg-white',
                  disabled && 'cursor-not-allowed opacity-60',
                )}
              >
                <input
                  type="radio"
                  name="mode"
                  value={m.value}
                  checked={mode === m.value}
                  disabled={disabled}
                  onChange={() => setMode(m.value)}
                  className="mt-0.5 accent-indigo-600"
                />
                <span>
                  <span className="block font-medium">{m.title}</span>
                  <span className="block text-xs text-slate-600">{disabled ? 'Not available for pictures: their text can only be found by text recognition.' : m.text}</span>
                </span>
              </label>
            );
          })}
        </div>
      </fieldset>
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Language of the document" hint="Used when reading scanned pages and pictures.">
          {({ id, describedBy }) => (
            <Select id={id} aria-describedby={describedBy} value={language} onChange={(e) => setLanguage(e.target.value)}>
              {LANGUAGES.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
        <Field label="Text recognition engine" hint="Which reader looks at scanned pages. The built-in one suits most documents.">
          {({ id, describedBy }) => (
            <Select id={id} aria-describedby={describedBy} value={engine} onChange={(e) => setEngine(e.target.value)}>
              {ENGINES.map((l) => (
                <option key={l.value} value={l.value}>
                  {l.label}
                </option>
              ))}
            </Select>
          )}
        </Field>
      </div>
      <div className="space-y-3">
        <Checkbox label="Keep tables as tables" hint="Tables in the document stay tables you can read and copy. Turn off to get them as plain text." checked={tables} onChange={setTables} />
        <Checkbox
          label="Keep the original line breaks and spacing"
          hint="Useful for forms, poems or code. When off, lines are joined into normal paragraphs."
          checked={layout}
          onChange={setLayout}
        />
      </div>
      <FormError message={error} />
      <Button type="submit" busy={start.isPending}>
        Start extraction
      </Button>
    </form>
  );
}

/** The extractions made from this file, newest first; refreshed while one is running. */
function FileExtractions({ fileId }: { fileId: string }) {
  const list = useQuery({
    queryKey: ['files', 'extractions', fileId],
    queryFn: () => api<Page<ExtractionListItem>>(`/v1/files/${fileId}/extractions?limit=100`),
    refetchInterval: (q) => (q.state.data?.items.some((e) => e.status === 'pending' || e.status === 'processing') ? 3000 : false),
  });
  if (list.isLoading) return <Loading label="Loading extractions…" />;
  if (list.isError) return <ErrorState error={`The extractions could not be loaded. ${errorMessage(list.error)}`} onRetry={() => list.refetch()} />;
  const items = list.data?.items ?? [];
  if (items.length === 0) return <EmptyState title="No extractions yet">Start one above to turn this file into text.</EmptyState>;
  return (
    <ul className="divide-y divide-slate-100" aria-label="Extractions of this file">
      {items.map((e) => (
        <li key={e.id} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
          <span className="flex flex-wrap items-center gap-2">
            <StatusBadge status={e.status} />
            <span>{MODE_NAMES[e.mode]} reading</span>
            {e.total_pages != null && <span className="text-slate-600">· {e.total_pages === 1 ? '1 page' : `${e.total_pages} pages`}</span>}
            <span className="text-slate-600">
              · started <RelativeTime iso={e.created_at} />
            </span>
          </span>
          <Link href={`/extractions/${e.id}`} className="font-medium text-indigo-700 hover:underline">
            {e.status === 'completed' ? 'Read the text' : 'View'}
            <span className="sr-only"> of the extraction started {new Date(e.created_at).toLocaleString()}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

function Detail({ term, children }: { term: string; children: ReactNode }) {
  return (
    <div className="py-2 sm:grid sm:grid-cols-3 sm:gap-3">
      <dt className="text-slate-600">{term}</dt>
      <dd className="min-w-0 break-words sm:col-span-2">{children}</dd>
    </div>
  );
}

export function FileDetail({ fileId }: { fileId: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const types = useFileTypes();
  const file = useQuery({ queryKey: ['files', 'detail', fileId], queryFn: () => api<FileRecord>(`/v1/files/${fileId}`), retry: (n, err) => !(err instanceof ApiClientError && err.status === 404) && n < 1 });

  if (file.isLoading) return <Loading label="Loading the file…" />;
  if (file.isError || !file.data) {
    const notFound = file.error instanceof ApiClientError && file.error.status === 404;
    return (
      <>
        <PageHeader title="File" />
        <ErrorState
          error={notFound ? 'This file was not found. It may have been deleted.' : `The file could not be loaded. ${errorMessage(file.error)}`}
          onRetry={notFound ? undefined : () => file.refetch()}
        />
        <p className="mt-4 text-sm">
          <Link href="/files" className="text-indigo-700 underline">
            Back to all files
          </Link>
        </p>
      </>
    );
  }

  const f = file.data;
  const metadata = Object.entries(f.metadata ?? {});
  const remove = async () => {
    try {
      await api(`/v1/files/${f.id}`, { method: 'DELETE' });
    } catch (err) {
      toast.error('The file could not be deleted', { description: errorMessage(err) });
      return;
    }
    toast.success(`${f.filename} was deleted`);
    queryClient.removeQueries({ queryKey: ['files', 'detail', f.id] });
    void queryClient.invalidateQueries({ queryKey: ['files'] });
    void queryClient.invalidateQueries({ queryKey: ['count'] });
    router.push('/files');
  };

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/files" className="text-indigo-700 hover:underline">
          <span aria-hidden="true">← </span>All files
        </Link>
      </p>
      <PageHeader
        title={f.filename}
        description={`${typeLabel(f.content_type, types.data)} · ${formatBytes(f.size)}`}
        actions={
          <>
            <a
              href={`/v1/files/${f.id}/download`}
              download={f.filename}
              className="inline-flex items-center justify-center rounded-md border border-slate-300 bg-white px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-50"
            >
              Download
            </a>
            <ConfirmButton
              label="Delete"
              title="Delete this file?"
              message={
                <>
                  <p>
                    <strong className="break-words">{f.filename}</strong> will be removed for good, together with the text extracted from it and its
                    place in any knowledge base.
                  </p>
                  <p className="mt-2">This cannot be undone.</p>
                </>
              }
              confirmLabel="Delete file"
              onConfirm={remove}
            />
          </>
        }
      />
      <div className="grid gap-6 lg:grid-cols-3">
        <div className="space-y-6 lg:col-span-2">
          <Card title="Turn into text">
            <ExtractForm file={f} />
          </Card>
          <Card title="Extractions">
            <FileExtractions fileId={f.id} />
          </Card>
        </div>
        <Card title="Details" className="self-start">
          <dl className="divide-y divide-slate-100 text-sm">
            <Detail term="Kind">{typeLabel(f.content_type, types.data)}</Detail>
            <Detail term="Size">{formatBytes(f.size)}</Detail>
            <Detail term="Uploaded">
              <RelativeTime iso={f.created_at} />
            </Detail>
            <Detail term="Last changed">
              <RelativeTime iso={f.updated_at} />
            </Detail>
            <Detail term="Tags">
              {f.tags.length > 0 ? (
                <span className="flex flex-wrap gap-1">
                  {f.tags.map((t) => (
                    <Badge key={t}>{t}</Badge>
                  ))}
                </span>
              ) : (
                <span className="text-slate-500">None</span>
              )}
            </Detail>
            {metadata.map(([key, value]) => (
              <Detail key={key} term={humanizeKey(key)}>
                {metadataText(value)}
              </Detail>
            ))}
            <Detail term="File ID">
              <span className="font-mono text-xs">{f.id}</span>
            </Detail>
          </dl>
        </Card>
      </div>
    </>
  );
}
