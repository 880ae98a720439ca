'use client';

import { useId, useState, type ReactNode } from 'react';
import { toast } from 'sonner';
import { ApiClientError, errorMessage } from './api';
import { isNotFound } from './not-found';
import { Button, ErrorState, cx } from './ui';

/* Building blocks of the administrator pages: webhooks, API keys, settings and users. */

/** True when the API refused the request because the signed-in person is not an administrator. */
export function isForbidden(err: unknown): boolean {
  return err instanceof ApiClientError && err.status === 403;
}

/** Query retry rule: one retry for passing failures, none when the answer is "not allowed" or "not found". */
export function retryUnlessRefused(failures: number, err: unknown): boolean {
  if (isForbidden(err) || isNotFound(err)) return false;
  return failures < 1;
}

/** Shown instead of a page's content when the API answers 403 to a member. */
export function AdminOnlyState({ action }: { action: string }) {
  return (
    <div role="alert" className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-6 text-sm text-amber-900">
      <p className="font-medium">Only administrators can {action}.</p>
      <p className="mt-1">Your account does not have access to this page. Ask an administrator if you need something changed here.</p>
    </div>
  );
}

/** The error of a failed page query: the administrators-only state for 403, otherwise the message and a retry button. */
export function QueryError({ error, action, onRetry }: { error: unknown; action: string; onRetry?: () => void }) {
  if (isForbidden(error)) return <AdminOnlyState action={action} />;
  return <ErrorState error={errorMessage(error)} onRetry={onRetry} />;
}

/** An on/off switch with a visible label; `busy` disables it while a change is being saved. */
export function Switch({ checked, onChange, label, busy, description }: { checked: boolean; onChange: (next: boolean) => void; label: string; busy?: boolean; description?: ReactNode }) {
  const id = useId();
  return (
    <div className="flex items-start gap-3">
      <button
        type="button"
        role="switch"
        id={id}
        aria-checked={checked}
        aria-describedby={description ? `${id}-description` : undefined}
        disabled={busy}
        onClick={() => onChange(!checked)}
        className={cx(
          'relative mt-0.5 inline-flex h-6 w-11 shrink-0 items-center rounded-full transition-colors focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 disabled:opacity-60',
          checked ? 'bg-indigo-600' : 'bg-slate-300',
        )}
      >
        <span aria-hidden="true" className={cx('inline-block h-5 w-5 rounded-full bg-white shadow transition-transform', checked ? 'translate-x-5' : 'translate-x-0.5')} />
      </button>
      <div className="min-w-0 text-sm">
        <label htmlFor={id} className="font-medium text-slate-800">
          {label}
        </label>
        {description && (
          <p id={`${id}-description`} className="text-slate-600">
            {description}
          </p>
        )}
      </div>
    </div>
  );
}

export interface Choice {
  value: string;
  label: string;
  description?: string;
}

/**
 * A group of checkboxes in a fieldset with a legend. `covered` values are shown checked and
 * disabled because another choice already includes them (for example everything under "*").
 */
export function CheckboxGroup({
  legend,
  hint,
  choices,
  selected,
  onChange,
  covered = [],
  error,
  columns = 2,
}: {
  legend: string;
  hint?: ReactNode;
  choices: Choice[];
  selected: string[];
  onChange: (next: string[]) => void;
  covered?: string[];
  error?: string | null;
  columns?: 1 | 2;
}) {
  const id = useId();
  const describedBy = [hint ? `${id}-hint` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') || undefined;
  return (
    <fieldset aria-describedby={describedBy} className="space-y-2">
      <legend className="text-sm font-medium text-slate-800">{legend}</legend>
      {hint && (
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {hint}
        </p>
      )}
      <div className={cx('grid gap-2', columns === 2 && 'sm:grid-cols-2')}>
        {choices.map((choice) => {
          const isCovered = covered.includes(choice.value);
          const checked = isCovered || selected.includes(choice.value);
          return (
            <label
              key={choice.value}
              className={cx('flex items-start gap-2 rounded-md border border-slate-200 px-3 py-2 text-sm', checked ? 'bg-indigo-50/50' : 'bg-white')}
            >
              <input
                type="checkbox"
                className="mt-0.5 h-4 w-4 shrink-0 accent-indigo-600"
                checked={checked}
                disabled={isCovered}
                onChange={(e) => onChange(e.target.checked ? [...selected, choice.value] : selected.filter((v) => v !== choice.value))}
              />
              <span className="min-w-0">
                <span className="block font-medium text-slate-800">{choice.label}</span>
                {choice.description && <span className="block text-xs text-slate-600">{choice.description}</span>}
                <span className="block font-mono text-xs break-all text-slate-600">{choice.value}</span>
              </span>
            </label>
          );
        })}
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="text-xs text-red-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

/** Copies text to the clipboard, falling back to a hidden text area where the Clipboard API is refused. */
export async function copyText(text: string): Promise<void> {
  try {
    await navigator.clipboard.writeText(text);
    return;
  } catch {
    const area = document.createElement('textarea');
    area.value = text;
    area.setAttribute('readonly', '');
    area.style.position = 'fixed';
    area.style.opacity = '0';
    document.body.appendChild(area);
    area.select();
    const ok = document.execCommand('copy');
    area.remove();
    if (!ok) throw new Error('Copying is not allowed here. Select the text and copy it yourself.');
  }
}

/** A button that copies `text` and says so, in a toast and on the button itself. */
export function CopyButton({ text, label = 'Copy', variant = 'secondary' }: { text: string; label?: string; variant?: 'primary' | 'secondary' }) {
  const [copied, setCopied] = useState(false);
  return (
    <Button
      variant={variant}
      onClick={async () => {
        try {
          await copyText(text);
          setCopied(true);
          toast.success('Copied to the clipboard');
          setTimeout(() => setCopied(false), 2000);
        } catch (err) {
          toast.error(err instanceof Error ? err.message : 'Could not copy');
        }
      }}
    >
      {copied ? 'Copied' : label}
    </Button>
  );
}

const SECRET_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

/** A random secret of `length` letters and digits from the browser's cryptographic generator. */
export function generateSecret(length = 40): string {
  const limit = 256 - (256 % SECRET_ALPHABET.length);
  let out = '';
  while (out.length < length) {
    const bytes = crypto.getRandomValues(new Uint8Array(length * 2));
    for (const byte of bytes) {
      if (byte < limit && out.length < length) out += SECRET_ALPHABET[byte % SECRET_ALPHABET.length];
    }
  }
  return out;
}
