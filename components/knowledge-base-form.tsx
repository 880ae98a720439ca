'use client';

import { useId, useState, type FormEvent } from 'react';
import type { ChunkingStrategy, ChunkingType } from './api-types';
import { Button, Field, Input, Textarea, cx } from './ui';

/* Knowledge-base helpers shared by the console pages, and the form that creates and edits one. */

export const MIN_CHUNK_SIZE = 64;
export const MAX_CHUNK_SIZE = 8192;
export const DEFAULT_STRATEGY: ChunkingStrategy = { type: 'paragraph', chunk_size: 512, overlap: 64 };

/** The three ways of cutting documents into passages, in plain words. */
export const CHUNKING_TYPES: { value: ChunkingType; label: string; description: string }[] = [
  {
    value: 'paragraph',
    label: 'By paragraphs',
    description: 'Keeps paragraphs, lists, tables and code together and starts a new passage at every heading. A good choice for most documents.',
  },
  {
    value: 'semantic',
    label: 'By topic',
    description: 'Reads sentence by sentence and starts a new passage where the subject changes. Suits long texts without many headings.',
  },
  {
    value: 'fixed',
    label: 'Equal pieces',
    description: 'Cuts the text into pieces of the same length, each repeating the end of the one before. Ignores the layout of the document.',
  },
];

/** "By paragraphs, up to 512 tokens" (plus the overlap for equal pieces). */
export function describeStrategy(s: ChunkingStrategy): string {
  const label = CHUNKING_TYPES.find((t) => t.value === s.type)?.label ?? s.type;
  return `${label}, up to ${s.chunk_size} tokens${s.type === 'fixed' ? `, ${s.overlap} repeated` : ''}`;
}

export interface KnowledgeBaseFormValues {
  name: string;
  description: string;
  chunking_strategy: ChunkingStrategy;
}

function validate(name: string, size: number, overlap: number) {
  const errors: { name?: string; size?: string; overlap?: string } = {};
  if (!name.trim()) errors.name = 'Give the knowledge base a name.';
  else if (name.trim().length > 200) errors.name = 'Use at most 200 characters.';
  if (!Number.isInteger(size) || size < MIN_CHUNK_SIZE || size > MAX_CHUNK_SIZE)
    errors.size = `Use a whole number from ${MIN_CHUNK_SIZE} to ${MAX_CHUNK_SIZE}.`;
  if (!Number.isInteger(overlap) || overlap < 0) errors.overlap = 'Use a whole number, 0 or more.';
  else if (!errors.size && overlap >= size) errors.overlap = 'The overlap must be smaller than the passage size.';
  return errors;
}

/** Radio cards choosing how documents are cut into passages. */
function StrategyChoice({ value, onChange }: { value: ChunkingType; onChange: (v: ChunkingType) => void }) {
  const name = useId();
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">How documents are cut into passages</legend>
      <p className="mt-1 text-xs text-slate-600">Searches return passages, so this decides how much text each answer shows.</p>
      <div className="mt-2 grid gap-2">
        {CHUNKING_TYPES.map((t) => (
          <label
            key={t.value}
            className={cx(
              'flex cursor-pointer items-start gap-3 rounded-md border p-3 text-sm',
              value === t.value ? 'border-indigo-500 bg-indigo-50' : 'border-slate-200 hover:bg-slate-50',
            )}
          >
            <input type="radio" name={name} value={t.value} checked={value === t.value} onChange={() => onChange(t.value)} className="mt-0.5" />
            <span>
              <span className="block font-medium">
                {t.label}
                {t.value === DEFAULT_STRATEGY.type && <span className="font-normal text-slate-600"> (default)</span>}
              </span>
              <span className="block text-slate-600">{t.description}</span>
            </span>
          </label>
        ))}
      </div>
    </fieldset>
  );
}

/**
 * Name, description and chunking strategy of a knowledge base. On edit, a note warns that a
 * changed strategy re-indexes every document.
 */
export function KnowledgeBaseForm({
  initial,
  submitLabel,
  onSubmit,
  onCancel,
  editing,
}: {
  initial?: KnowledgeBaseFormValues;
  submitLabel: string;
  onSubmit: (values: KnowledgeBaseFormValues) => Promise<unknown>;
  onCancel: () => void;
  editing?: boolean;
}) {
  const start = initial ?? { name: '', description: '', chunking_strategy: DEFAULT_STRATEGY };
  const [name, setName] = useState(start.name);
  const [description, setDescription] = useState(start.description);
  const [type, setType] = useState<ChunkingType>(start.chunking_strategy.type);
  const [size, setSize] = useState(String(start.chunking_strategy.chunk_size));
  const [overlap, setOverlap] = useState(String(start.chunking_strategy.overlap));
  const [touched, setTouched] = useState(false);
  const [busy, setBusy] = useState(false);

  const errors = validate(name, Number(size), Number(overlap));
  const shown = touched ? errors : {};
  const strategyChanged =
    editing &&
    (type !== start.chunking_strategy.type ||
      Number(size) !== start.chunking_strategy.chunk_size ||
      Number(overlap) !== start.chunking_strategy.overlap);

  async function submit(event: FormEvent) {
    event.preventDefault();
    setTouched(true);
    if (Object.keys(errors).length > 0) return;
    setBusy(true);
    try {
      await onSubmit({
        name: name.trim(),
        description: description.trim(),
        chunking_strategy: { type, chunk_size: Number(size), overlap: Number(overlap) },
      });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <Field label="Name" error={shown.name}>
        {({ id, describedBy }) => (
          <Input id={id} aria-describedby={describedBy} aria-invalid={!!shown.name} value={name} maxLength={200} required autoFocus onChange={(e) => setName(e.target.value)} />
        )}
      </Field>
      <Field label="Description (optional)" hint="What is in it, for the people who will search it.">
        {({ id, describedBy }) => (
          <Textarea id={id} aria-describedby={describedBy} rows={2} maxLength={2000} value={description} onChange={(e) => setDescription(e.target.value)} />
        )}
      </Field>
      <StrategyChoice value={type} onChange={setType} />
      <div className="grid gap-4 sm:grid-cols-2">
        <Field
          label="Passage size (tokens)"
          error={shown.size}
          hint={`The longest a passage can be. A token is about ¾ of a word; 512 is roughly a page. ${MIN_CHUNK_SIZE}–${MAX_CHUNK_SIZE}, default 512.`}
        >
          {({ id, describedBy }) => (
            <Input id={id} aria-describedby={describedBy} aria-invalid={!!shown.size} type="number" inputMode="numeric" min={MIN_CHUNK_SIZE} max={MAX_CHUNK_SIZE} step={1} value={size} onChange={(e) => setSize(e.target.value)} />
          )}
        </Field>
        <Field
          label="Overlap (tokens)"
          error={shown.overlap}
          hint="How much of the end of one piece is repeated at the start of the next, so a sentence cut in two is still found. Used by equal pieces only; default 64."
        >
          {({ id, describedBy }) => (
            <Input id={id} aria-describedby={describedBy} aria-invalid={!!shown.overlap} type="number" inputMode="numeric" min={0} step={1} value={overlap} onChange={(e) => setOverlap(e.target.value)} />
          )}
        </Field>
      </div>
      {strategyChanged && (
        <p role="status" className="rounded-md bg-amber-50 px-3 py-2 text-sm text-amber-900">
          Every document will be cut again in the background. Searches keep working with the current passages until the new ones are ready.
        </p>
      )}
      <div className="flex flex-wrap justify-end gap-2">
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
      </div>
    </form>
  );
}
