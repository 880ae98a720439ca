'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { api, ApiClientError, errorMessage } from '../api';
import type { CreatedExtraction, ExtractionMode, FileRecord } from '../api-types';
import { useConsoleFeatures } from '../console-shell';
import { MODE_NAMES } from '../files-common';
import { Button, cx, Field, FormError, Select } from '../ui';

/* The form on a file's page that starts an extraction, with the choices explained in plain words. */

const MODES: { value: ExtractionMode; title: string; text: string }[] = [
  { value: 'simple', title: MODE_NAMES.simple, text: 'Reads only the text stored inside the file. Fastest, but scanned pages and photos of text come out empty.' },
  { value: 'normal', title: `${MODE_NAMES.normal} (recommended)`, text: 'Reads the stored text, and uses text recognition (OCR) on scanned pages that have none.' },
  { value: 'advanced', title: MODE_NAMES.advanced, text: 'Also runs text recognition on every page, to catch text inside pictures and diagrams. Slowest.' },
];

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
  { value: 'cloud', label: 'Cloud service set up by your administrator', needs: 'cloudOcr' as const },
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
export function ExtractForm({ file }: { file: FileRecord }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const isImage = file.content_type.startsWith('image/');
  const features = useConsoleFeatures();
  // A choice this server is not set up for is not offered at all, rather than refused on starting.
  const engines = ENGINES.filter((e) => !e.needs || features[e.needs]);
  const [mode, setMode] = useState<ExtractionMode>('normal');
  const [language, setLanguage] = useState('');
  const [engine, setEngine] = useState('default');
  const [tables, setTables] = useState(true);
  const [layout, setLayout] = useState(false);
  const [error, setError] = useState<string | null>(null);

  const start = useMutation({
    mutationFn: () =>
      api<CreatedExtraction>('/v1/extractions', {
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
              {engines.map((l) => (
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
