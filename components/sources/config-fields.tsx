'use client';

import type { InputHTMLAttributes } from 'react';
import type { SourceType } from '../api-types';
import { Field, Input } from '../ui';

/*
 * The settings of each type of source: a website's start page and reach, a single URL, a
 * bucket with its credentials. Checked here before sending (required fields, web addresses,
 * numbers in range); the server checks again and its messages are shown beside the same fields,
 * which carry the API's own names ("config.start_url").
 */

export interface ConfigState {
  start_url: string;
  sitemap_url: string;
  path_prefix: string;
  max_depth: string;
  max_pages: string;
  url: string;
  bucket: string;
  prefix: string;
  endpoint: string;
  region: string;
  force_path_style: boolean;
  access_key_id: string;
  secret_access_key: string;
  session_token: string;
  keep_deleted: boolean;
}

export const EMPTY_CONFIG: ConfigState = {
  start_url: '',
  sitemap_url: '',
  path_prefix: '',
  max_depth: '2',
  max_pages: '100',
  url: '',
  bucket: '',
  prefix: '',
  endpoint: '',
  region: '',
  force_path_style: false,
  access_key_id: '',
  secret_access_key: '',
  session_token: '',
  keep_deleted: false,
};

/** Messages by the API's field names: config.start_url, credentials.access_key_id, … */
export type FieldErrors = Record<string, string | undefined>;

const BUCKET = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

function webAddressProblem(value: string, what: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    return `Enter the full address of ${what}, starting with https:// (or http://).`;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return `The address of ${what} must start with https:// or http://.`;
  if (url.username || url.password) return 'Remove the user name and password from the address.';
  return undefined;
}

function wholeNumberProblem(value: string, min: number, max: number): string | undefined {
  const n = Number(value);
  if (value.trim() === '' || !Number.isInteger(n) || n < min || n > max) return `Enter a whole number from ${min} to ${max}.`;
  return undefined;
}

/** The type's fields, checked; only the ones with a problem are named. */
export function checkConfig(type: SourceType, c: ConfigState): FieldErrors {
  const e: FieldErrors = {};
  if (type === 'web') {
    if (!c.start_url.trim() && !c.sitemap_url.trim()) e['config.start_url'] = 'Enter the page to start from (or a sitemap below).';
    if (c.start_url.trim()) e['config.start_url'] = webAddressProblem(c.start_url, 'the start page');
    if (c.sitemap_url.trim()) e['config.sitemap_url'] = webAddressProblem(c.sitemap_url, 'the sitemap');
    if (c.path_prefix.trim() && !c.path_prefix.trim().startsWith('/')) e['config.path_prefix'] = 'The path must start with /, such as /docs/.';
    e['config.max_depth'] = wholeNumberProblem(c.max_depth, 0, 10);
    e['config.max_pages'] = wholeNumberProblem(c.max_pages, 1, 10_000);
  } else if (type === 'url') {
    e['config.url'] = c.url.trim() ? webAddressProblem(c.url, 'the document') : 'Enter the address of the document or page.';
  } else {
    const bucket = c.bucket.trim();
    if (!bucket) e['config.bucket'] = 'Enter the name of the bucket.';
    else if (!BUCKET.test(bucket)) e['config.bucket'] = 'A bucket name has 3 to 63 lower-case letters, digits, dots and hyphens.';
    if (c.endpoint.trim()) e['config.endpoint'] = webAddressProblem(c.endpoint, 'the server');
    if (c.access_key_id.trim() && !c.secret_access_key) e['credentials.secret_access_key'] = 'Enter the secret access key that goes with the access key ID.';
    if (!c.access_key_id.trim() && (c.secret_access_key || c.session_token)) e['credentials.access_key_id'] = 'Enter the access key ID that goes with the secret.';
  }
  return Object.fromEntries(Object.entries(e).filter(([, v]) => v)) as FieldErrors;
}

/** The config and credentials as the API takes them. */
export function configBody(type: SourceType, c: ConfigState): { config: Record<string, unknown>; credentials?: Record<string, string> } {
  const optional = (key: string, value: string) => (value.trim() ? { [key]: value.trim() } : {});
  if (type === 'web') {
    return {
      config: {
        ...optional('start_url', c.start_url),
        ...optional('sitemap_url', c.sitemap_url),
        ...optional('path_prefix', c.path_prefix),
        max_depth: Number(c.max_depth),
        max_pages: Number(c.max_pages),
        keep_deleted: c.keep_deleted,
      },
    };
  }
  if (type === 'url') return { config: { url: c.url.trim(), keep_deleted: c.keep_deleted } };
  return {
    config: {
      bucket: c.bucket.trim(),
      prefix: c.prefix,
      ...optional('endpoint', c.endpoint),
      ...optional('region', c.region),
      force_path_style: c.force_path_style,
      keep_deleted: c.keep_deleted,
    },
    ...(c.access_key_id.trim()
      ? { credentials: { access_key_id: c.access_key_id.trim(), secret_access_key: c.secret_access_key, ...optional('session_token', c.session_token) } }
      : {}),
  };
}

/**
 * The field the server's refusal names. A type's own check names only "config" and starts its
 * reason with the setting ("start_url: … is not a public address"): that setting is named then.
 */
export function refusedField(field: string | undefined, reason: string): string | undefined {
  if (field !== 'config') return field;
  const named = /^([a-z_]+):/.exec(reason);
  return named ? `config.${named[1]}` : field;
}

/** The server's reason in the console's words where it speaks to developers. */
export function refusalWords(reason: string, fallback: string): string {
  if (/not a public address|local host name|private, loopback/.test(reason)) {
    return 'This address is on a private or local network. Quarry only reads sources on the internet (an administrator can allow private addresses).';
  }
  const text = reason || fallback;
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function TextField({
  label,
  name,
  hint,
  errors,
  value,
  onChange,
  ...props
}: {
  label: string;
  name: string;
  hint?: string;
  errors: FieldErrors;
  value: string;
  onChange: (value: string) => void;
} & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'name'>) {
  const error = errors[name];
  return (
    <Field label={label} hint={hint} error={error}>
      {({ id, describedBy }) => (
        <Input
          id={id}
          name={name}
          aria-describedby={describedBy}
          aria-invalid={error ? true : undefined}
          autoComplete="off"
          value={value}
          onChange={(e) => onChange(e.target.value)}
          {...props}
        />
      )}
    </Field>
  );
}

function Checkbox({ label, hint, checked, onChange }: { label: string; hint?: string; checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="flex items-start gap-2 text-sm">
      <input type="checkbox" className="mt-0.5 h-4 w-4 shrink-0 accent-indigo-600" checked={checked} onChange={(e) => onChange(e.target.checked)} />
      <span>
        <span className="block font-medium text-slate-800">{label}</span>
        {hint && <span className="block text-xs text-slate-600">{hint}</span>}
      </span>
    </label>
  );
}

/** The fields of one type of source. */
export function ConfigFields({ type, value, onChange, errors }: { type: SourceType; value: ConfigState; onChange: (patch: Partial<ConfigState>) => void; errors: FieldErrors }) {
  const text = (name: keyof ConfigState, errorName = `config.${name}`) => ({
    name: errorName,
    errors,
    value: value[name] as string,
    onChange: (v: string) => onChange({ [name]: v }),
  });
  const keepDeleted = (
    <Checkbox
      label="Keep documents that disappear from the source"
      hint="By default a sync removes the documents whose item is gone."
      checked={value.keep_deleted}
      onChange={(keep_deleted) => onChange({ keep_deleted })}
    />
  );
  if (type === 'url') {
    return (
      <div className="space-y-4">
        <TextField label="Address (URL)" type="url" inputMode="url" placeholder="https://example.com/handbook.pdf" hint="A document or a page, fetched again on each sync." {...text('url')} />
        {keepDeleted}
      </div>
    );
  }
  if (type === 'web') {
    return (
      <div className="space-y-4">
        <TextField label="Start page (URL)" type="url" inputMode="url" placeholder="https://docs.example.com/guide/" hint="The crawl starts here and follows links on the same site." {...text('start_url')} />
        <TextField label="Sitemap (URL, optional)" type="url" inputMode="url" placeholder="https://docs.example.com/sitemap.xml" hint="Its pages are crawled too, or instead of a start page." {...text('sitemap_url')} />
        <TextField label="Only pages under this path (optional)" placeholder="/guide/" hint="By default, the folder of the start page." {...text('path_prefix')} />
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Links to follow (depth)" type="number" inputMode="numeric" min={0} max={10} hint="0 to 10: how many links away from the start page." {...text('max_depth')} />
          <TextField label="Most pages per sync" type="number" inputMode="numeric" min={1} max={10000} hint="1 to 10,000." {...text('max_pages')} />
        </div>
        {keepDeleted}
      </div>
    );
  }
  return (
    <div className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField label="Bucket" placeholder="company-docs" {...text('bucket')} />
        <TextField label="Prefix (optional)" placeholder="handbook/" hint="Only objects whose keys start with this." {...text('prefix')} />
        <TextField label="Server (URL, optional)" type="url" inputMode="url" placeholder="https://minio.example.com" hint="For MinIO, R2 and others; Amazon S3 when empty." {...text('endpoint')} />
        <TextField label="Region (optional)" placeholder="us-east-1" {...text('region')} />
      </div>
      <Checkbox
        label="Path-style addresses"
        hint="Address the bucket as server/bucket, as MinIO and some other servers need."
        checked={value.force_path_style}
        onChange={(force_path_style) => onChange({ force_path_style })}
      />
      <fieldset className="space-y-3 rounded-md border border-slate-200 p-3">
        <legend className="px-1 text-sm font-medium text-slate-800">Credentials (optional)</legend>
        <p className="text-xs text-slate-600">Kept encrypted and never shown again. Without them, the server’s own AWS settings are used.</p>
        <div className="grid gap-4 sm:grid-cols-2">
          <TextField label="Access key ID" {...text('access_key_id', 'credentials.access_key_id')} />
          <TextField label="Secret access key" type="password" {...text('secret_access_key', 'credentials.secret_access_key')} />
        </div>
        <TextField label="Session token (optional)" type="password" {...text('session_token', 'credentials.session_token')} />
      </fieldset>
      {keepDeleted}
    </div>
  );
}
