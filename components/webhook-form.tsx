'use client';

import { useState, type FormEvent } from 'react';
import { ApiClientError, errorMessage } from './api';
import { CheckboxGroup, generateSecret, type Choice } from './admin';
import { Button, Field, FormError, Input } from './ui';

/* The form that creates a webhook or changes one: address, events and signing secret. */

/** Every event type Quarry sends, in plain words. */
export const EVENT_CHOICES: Choice[] = [
  { value: 'file.uploaded', label: 'A file was uploaded' },
  { value: 'file.deleted', label: 'A file was deleted' },
  { value: 'extraction.started', label: 'Reading a file started', description: 'Text extraction began' },
  { value: 'extraction.completed', label: 'Reading a file finished', description: 'The text of the file is ready' },
  { value: 'extraction.failed', label: 'Reading a file failed' },
  { value: 'knowledge_base.created', label: 'A knowledge base was created' },
  { value: 'knowledge_base.deleted', label: 'A knowledge base was deleted' },
  { value: 'document.indexing', label: 'A document is being added', description: 'to a knowledge base' },
  { value: 'document.indexed', label: 'A document is ready to search', description: 'in a knowledge base' },
  { value: 'document.index_failed', label: 'Adding a document failed', description: 'to a knowledge base' },
  { value: 'document.deleted', label: 'A document was removed', description: 'from a knowledge base' },
];

export const ALL_EVENTS = '*';
export const MIN_SECRET_LENGTH = 16;

export interface WebhookFormValues {
  url: string;
  events: string[];
  secret?: string;
}

/** "All events" or the plain-word labels of the chosen event types. */
export function describeEvents(events: string[]): string {
  if (events.includes(ALL_EVENTS)) return 'All events';
  return events.map((e) => EVENT_CHOICES.find((c) => c.value === e)?.label ?? e).join(', ');
}

/**
 * Create (`mode="create"`: the secret is required) or edit (`mode="edit"`: a new secret is
 * optional and replaces the old one). `onSubmit` sends the request; its API errors are shown
 * beside the field they name.
 */
export function WebhookForm({
  mode,
  initial,
  submitLabel,
  onSubmit,
  onCancel,
}: {
  mode: 'create' | 'edit';
  initial?: { url: string; events: string[] };
  submitLabel: string;
  onSubmit: (values: WebhookFormValues) => Promise<void>;
  onCancel?: () => void;
}) {
  const [url, setUrl] = useState(initial?.url ?? '');
  const [events, setEvents] = useState<string[]>(initial?.events ?? []);
  const all = events.includes(ALL_EVENTS);
  const [secret, setSecret] = useState('');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<{ url?: string; events?: string; secret?: string; form?: string }>({});

  function validate() {
    const next: typeof errors = {};
    if (!url.trim()) next.url = 'Enter the web address that should receive the messages.';
    else if (!/^https?:\/\//i.test(url.trim())) next.url = 'The address must start with https://';
    if (events.length === 0) next.events = 'Choose at least one event, or "All events".';
    if ((mode === 'create' || secret) && secret.length < MIN_SECRET_LENGTH) next.secret = `The secret must be at least ${MIN_SECRET_LENGTH} characters. Use "Generate" for a strong one.`;
    return next;
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next = validate();
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    setBusy(true);
    try {
      await onSubmit({ url: url.trim(), events: all ? [ALL_EVENTS] : events, ...(secret ? { secret } : {}) });
    } catch (err) {
      const field = err instanceof ApiClientError ? (err.details?.field as string | undefined) : undefined;
      if (field === 'url' || field === 'events' || field === 'secret') setErrors({ [field]: errorMessage(err) });
      else setErrors({ form: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <Field label="Receiving address (URL)" hint="Quarry sends a POST request to this address each time one of the chosen events happens." error={errors.url}>
        {({ id, describedBy }) => (
          <Input
            id={id}
            aria-describedby={describedBy}
            aria-invalid={errors.url ? true : undefined}
            type="url"
            inputMode="url"
            autoComplete="off"
            placeholder="https://example.com/hooks/quarry"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
          />
        )}
      </Field>
      <CheckboxGroup
        legend="Events to send"
        hint="Choose what the receiver should hear about."
        choices={[{ value: ALL_EVENTS, label: 'All events', description: 'Every kind, including kinds added in later versions' }, ...EVENT_CHOICES]}
        selected={events}
        onChange={setEvents}
        covered={all ? EVENT_CHOICES.map((c) => c.value) : []}
        error={errors.events}
      />
      <Field
        label={mode === 'create' ? 'Signing secret' : 'New signing secret (optional)'}
        hint={
          mode === 'create'
            ? 'Each message is signed with this secret so the receiver can check it really came from Quarry. At least 16 characters. Keep a copy: it is not shown again after saving.'
            : 'Leave empty to keep the current secret. A new secret is used from the next message on.'
        }
        error={errors.secret}
      >
        {({ id, describedBy }) => (
          <div className="flex flex-wrap gap-2">
            <Input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={errors.secret ? true : undefined}
              autoComplete="off"
              spellCheck={false}
              className="min-w-0 flex-1 basis-56 font-mono"
              value={secret}
              onChange={(e) => setSecret(e.target.value)}
            />
            <Button variant="secondary" onClick={() => setSecret(generateSecret())}>
              Generate
            </Button>
          </div>
        )}
      </Field>
      <FormError message={errors.form} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button variant="secondary" onClick={onCancel}>
            Cancel
          </Button>
        )}
      </div>
    </form>
  );
}
