'use client';

import { useId } from 'react';
import { CopyButton, generateSecret } from '../admin';
import { Button, Field, Input } from '../ui';

/*
 * The signing secret of the webhook form. A new webhook gets a strong secret made in this browser
 * (nothing to invent, nothing sent anywhere but to Quarry on saving), shown with a copy button and
 * the warning that it is shown this once; people who already have a secret can type their own.
 */

export type SecretSource = 'generated' | 'own';

/** A new strong secret: 40 random letters and digits from the browser's cryptographic generator. */
export const newSecret = () => generateSecret();

export function SecretField({
  mode,
  source,
  onSourceChange,
  secret,
  onSecretChange,
  error,
  minLength,
}: {
  mode: 'create' | 'edit';
  source: SecretSource;
  onSourceChange: (source: SecretSource) => void;
  secret: string;
  onSecretChange: (secret: string) => void;
  error?: string;
  minLength: number;
}) {
  const groupId = useId();
  const generated = source === 'generated' && secret !== '';
  const hint =
    mode === 'create'
      ? 'Each message is signed with this secret, so the receiver can check it really came from Quarry.'
      : 'Leave empty to keep the current secret. A new secret is used from the next message on.';
  return (
    <div className="space-y-3">
      {mode === 'create' && (
        <fieldset className="space-y-2">
          <legend className="text-sm font-medium text-slate-800">How the secret is chosen</legend>
          {(
            [
              ['generated', 'Make a strong secret for me (recommended)'],
              ['own', 'I will type my own secret'],
            ] as const
          ).map(([value, label]) => (
            <label key={value} className="flex items-center gap-2 text-sm text-slate-800">
              <input
                type="radio"
                name={`${groupId}-source`}
                value={value}
                checked={source === value}
                onChange={() => onSourceChange(value)}
                className="h-4 w-4 accent-indigo-600"
              />
              {label}
            </label>
          ))}
        </fieldset>
      )}
      <Field
        label={mode === 'create' ? 'Signing secret' : 'New signing secret (optional)'}
        hint={source === 'own' ? `${hint} At least ${minLength} characters.` : hint}
        error={error}
      >
        {({ id, describedBy }) => (
          <div className="flex flex-wrap gap-2">
            <Input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={error ? true : undefined}
              autoComplete="off"
              spellCheck={false}
              readOnly={generated}
              className="min-w-0 flex-1 basis-56 font-mono"
              value={secret}
              onFocus={(e) => generated && e.currentTarget.select()}
              onChange={(e) => onSecretChange(e.target.value)}
            />
            {secret !== '' && <CopyButton text={secret} label="Copy secret" />}
            {(source === 'generated' || mode === 'edit') && (
              <Button variant="secondary" onClick={() => onSecretChange(newSecret())}>
                {secret === '' ? 'Generate' : 'Make another'}
              </Button>
            )}
          </div>
        )}
      </Field>
      {secret !== '' && (
        <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          <strong>Shown once: store it now.</strong> Copy the secret into the system that receives the messages before you save. Quarry keeps it locked away and
          cannot show it to you again.
        </p>
      )}
    </div>
  );
}
