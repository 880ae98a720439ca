'use client';

import { useState, type FormEvent } from 'react';
import { useFieldErrors } from './hooks';
import { ApiClientError, errorMessage } from './api';
import { CheckboxGroup, type Choice } from './admin';
import { Button, Field, FormError, Input } from './ui';
import { SecretField, newSecret, type SecretSource } from './webhooks/secret-field';

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

type Errors = { url?: string; events?: string; secret?: string; form?: string };

function checkUrl(url: string): string | undefined {
  if (!url.trim()) return 'Enter the web address that should receive the messages.';
  if (!/^https?:\/\//i.test(url.trim())) return 'The address must start with https://';
  return undefined;
}

function checkEvents(events: string[]): string | undefined {
  return events.length === 0 ? 'Choose at least one event, or "All events".' : undefined;
}

function checkSecret(mode: 'create' | 'edit', secret: string): string | undefined {
  if ((mode === 'create' || secret) && secret.length < MIN_SECRET_LENGTH) return `The secret must be at least ${MIN_SECRET_LENGTH} characters.`;
  return undefined;
}

/** The API's refusal of an address, in plain words (its own wording is written for developers). */
function urlRefusal(reason: string, fallback: string): string {
  if (/https/.test(reason)) return 'The address must start with https://';
  if (/credentials/.test(reason)) return 'Remove the user name and password from the address: the signing secret already proves the messages come from Quarry.';
  if (/not a valid URL/.test(reason)) return 'Enter a full web address, such as https://example.com/hooks/quarry';
  if (/public/.test(reason)) return 'This address is on a private or local network. Quarry only sends messages to addresses on the internet.';
  return fallback;
}

/**
 * Create (`mode="create"`: a secret is required, made for the person unless they type their own)
 * or edit (`mode="edit"`: a new secret is optional and replaces the old one). `onSubmit` sends the
 * request; its API errors are shown beside the field they name. A field's message is checked again
 * as the person changes the field, so it goes away as soon as the field is right.
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
  const [source, setSource] = useState<SecretSource>(mode === 'create' ? 'generated' : 'own');
  const [secret, setSecret] = useState(() => (mode === 'create' ? newSecret() : ''));
  const [busy, setBusy] = useState(false);
  const [errors, setErrors, recheck] = useFieldErrors<Errors>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: Errors = { url: checkUrl(url), events: checkEvents(events), secret: checkSecret(mode, secret) };
    setErrors(next);
    if (next.url || next.events || next.secret) return;
    setBusy(true);
    try {
      await onSubmit({ url: url.trim(), events: all ? [ALL_EVENTS] : events, ...(secret ? { secret } : {}) });
    } catch (err) {
      const field = err instanceof ApiClientError ? (err.details?.field as string | undefined) : undefined;
      const reason = err instanceof ApiClientError ? String(err.details?.reason ?? '') : '';
      if (field === 'url') setErrors({ url: urlRefusal(reason, errorMessage(err)) });
      else if (field === 'events' || field === 'secret') setErrors({ [field]: errorMessage(err) });
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
            onChange={(e) => {
              setUrl(e.target.value);
              recheck('url', checkUrl(e.target.value));
            }}
          />
        )}
      </Field>
      <CheckboxGroup
        legend="Events to send"
        hint="Choose what the receiver should hear about."
        choices={[{ value: ALL_EVENTS, label: 'All events', description: 'Every kind, including kinds added in later versions' }, ...EVENT_CHOICES]}
        selected={events}
        onChange={(next) => {
          setEvents(next);
          recheck('events', checkEvents(next));
        }}
        covered={all ? EVENT_CHOICES.map((c) => c.value) : []}
        error={errors.events}
      />
      <SecretField
        mode={mode}
        source={source}
        onSourceChange={(next) => {
          setSource(next);
          const value = next === 'generated' ? newSecret() : '';
          setSecret(value);
          setErrors((current) => ({ ...current, secret: undefined }));
        }}
        secret={secret}
        onSecretChange={(value) => {
          setSecret(value);
          recheck('secret', checkSecret(mode, value));
        }}
        error={errors.secret}
        minLength={MIN_SECRET_LENGTH}
      />
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
