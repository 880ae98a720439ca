'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { CheckboxGroup, CopyButton, QueryError, isForbidden, retryUnlessRefused, type Choice } from '../admin';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import type { ApiKey, CreatedApiKey } from '../api-types';
import { BEYOND_KNOWLEDGE_BASES, KnowledgeBaseLimitCell, KnowledgeBaseLimitField, useAllKnowledgeBases } from '../api-keys/knowledge-base-limit';
import { useFieldErrors } from '../hooks';
import { Badge, Button, Card, ConfirmButton, Dialog, EmptyState, Field, FormError, Input, Loading, PageHeader, Pagination, RelativeTime, Table, Textarea, type Column } from '../ui';

/** Every permission a key can hold, in plain words. */
const SCOPE_CHOICES: Choice[] = [
  { value: '*', label: 'Everything', description: 'Full access, including administration. Give this only to programs you fully trust.' },
  { value: 'files:*', label: 'All file actions', description: 'See, download, upload and delete files' },
  { value: 'files:read', label: 'See files', description: 'List files and download them' },
  { value: 'files:write', label: 'Change files', description: 'Upload new files and delete files' },
  { value: 'extractions:*', label: 'All text reading actions', description: 'Start, cancel and see text extraction' },
  { value: 'extractions:read', label: 'See extracted text', description: 'Read the text taken out of files' },
  { value: 'extractions:write', label: 'Start text extraction', description: 'Start and cancel reading the text of files' },
  { value: 'kb:*', label: 'All knowledge base actions', description: 'See, change and search knowledge bases' },
  { value: 'kb:read', label: 'See knowledge bases', description: 'Open knowledge bases and their documents, and search them' },
  { value: 'kb:write', label: 'Change knowledge bases', description: 'Create, change and delete knowledge bases and documents' },
  { value: 'kb:search', label: 'Search knowledge bases', description: 'Only search; no access to the documents list' },
  { value: 'webhooks:*', label: 'Manage webhooks', description: 'Add and change webhooks and read the event log' },
  { value: 'api-keys:*', label: 'Administer', description: 'Create and revoke API keys, manage users and maintenance mode' },
];

/** The permissions already included by a broader one that is selected. */
function coveredScopes(selected: string[]): string[] {
  if (selected.includes('*')) return SCOPE_CHOICES.map((c) => c.value).filter((v) => v !== '*');
  return SCOPE_CHOICES.map((c) => c.value).filter((v) => {
    const area = v.split(':')[0];
    return !v.endsWith(':*') && selected.includes(`${area}:*`);
  });
}

function scopeLabel(scope: string): string {
  return SCOPE_CHOICES.find((c) => c.value === scope)?.label ?? scope;
}

const LIMIT = 25;

/** API keys: create one (shown once), see when each was used, and revoke (administrators only). */
export function ApiKeys() {
  const [offset, setOffset] = useState(0);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const list = useQuery({
    queryKey: ['api-keys', offset],
    queryFn: () => api<Page<ApiKey>>(`/v1/api-keys?limit=${LIMIT}&offset=${offset}`),
    retry: retryUnlessRefused,
  });
  const forbidden = isForbidden(list.error);

  return (
    <>
      <PageHeader
        title="API keys"
        description="An API key lets a program use Quarry on its own. Give each program its own key with only the permissions it needs."
        actions={!forbidden && !creating && <Button onClick={() => setCreating(true)}>Create API key</Button>}
      />
      {creating && (
        <Card title="Create an API key" className="mb-6">
          <CreateKeyForm
            onCreated={(key) => {
              setCreating(false);
              setCreated(key);
            }}
            onCancel={() => setCreating(false)}
          />
        </Card>
      )}
      <NewKeyDialog created={created} onClose={() => setCreated(null)} />
      {list.isLoading ? (
        <Loading label="Loading API keys…" />
      ) : list.isError ? (
        <QueryError error={list.error} action="manage API keys" onRetry={() => list.refetch()} />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title="No API keys yet">Create one to connect a program to Quarry.</EmptyState>
      ) : list.data ? (
        <Card>
          <KeyTable keys={list.data.items} />
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : null}
    </>
  );
}

/** Splits the allowed addresses typed one per line or separated by commas or spaces. */
function parseIps(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

const checkName = (name: string) => (name.trim() ? undefined : 'Give the key a name, for example the program that will use it.');
const checkScopes = (scopes: string[]) => (scopes.length === 0 ? 'Choose at least one permission.' : undefined);
const checkKbs = (limited: boolean, ids: string[]) => (limited && ids.length === 0 ? 'Choose at least one knowledge base, or let the key use all of them.' : undefined);
const checkDays = (days: string) => {
  const count = days.trim() ? Number(days) : undefined;
  return count !== undefined && (!Number.isInteger(count) || count < 1 || count > 3650) ? 'Enter a whole number of days from 1 to 3650, or leave it empty.' : undefined;
};

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>([]);
  const [days, setDays] = useState('');
  const [ips, setIps] = useState('');
  const [limited, setLimited] = useState(false);
  const [kbIds, setKbIds] = useState<string[]>([]);
  const [errors, setErrors, recheck] = useFieldErrors<{ name?: string; scopes?: string; days?: string; ips?: string; kbs?: string; form?: string }>();
  const create = useMutation({
    mutationFn: (body: Record<string, unknown>) => api<CreatedApiKey>('/v1/api-keys', { method: 'POST', json: body }),
  });

  /** A field's message is checked again as the field changes, so it goes as soon as the field is right. */
  function edited<V>(set: (value: V) => void, field: 'name' | 'scopes' | 'days' | 'ips' | 'kbs', check: (value: V) => string | undefined) {
    return (value: V) => {
      set(value);
      recheck(field, check(value));
    };
  }
  const changeName = edited(setName, 'name', checkName);
  const changeScopes = edited(setScopes, 'scopes', checkScopes);
  const changeDays = edited(setDays, 'days', checkDays);
  // Only the server checks the addresses: its message goes once they are changed, until the next try.
  const changeIps = edited(setIps, 'ips', () => undefined);
  const changeKbIds = edited(setKbIds, 'kbs', (ids: string[]) => checkKbs(true, ids));
  // A key limited to knowledge bases cannot hold "Everything", webhooks or administration.
  const changeLimited = (next: boolean) => {
    setLimited(next);
    recheck('kbs', undefined);
    if (next) changeScopes(scopes.filter((s) => !BEYOND_KNOWLEDGE_BASES.includes(s)));
  };

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = {};
    for (const [field, message] of [['name', checkName(name)], ['scopes', checkScopes(scopes)], ['days', checkDays(days)], ['kbs', checkKbs(limited, kbIds)]] as const) if (message) next[field] = message;
    setErrors(next);
    if (Object.keys(next).length > 0) return;
    const dayCount = days.trim() ? Number(days) : undefined;
    const covered = coveredScopes(scopes);
    const allowed = parseIps(ips);
    try {
      const key = await create.mutateAsync({
        name: name.trim(),
        scopes: scopes.filter((s) => !covered.includes(s)),
        ...(dayCount !== undefined ? { expires_in_days: dayCount } : {}),
        ...(allowed.length > 0 ? { allowed_ips: allowed } : {}),
        ...(limited ? { knowledge_base_ids: kbIds } : {}),
      });
      queryClient.invalidateQueries({ queryKey: ['api-keys'] });
      toast.success(`API key "${key.name}" created`);
      onCreated(key);
    } catch (err) {
      const field = err instanceof ApiClientError ? String(err.details?.field ?? '') : '';
      if (field.startsWith('allowed_ips')) setErrors({ ips: errorMessage(err) });
      else if (field.startsWith('scopes')) setErrors({ scopes: errorMessage(err) });
      else if (field === 'expires_in_days') setErrors({ days: errorMessage(err) });
      else if (field === 'name') setErrors({ name: errorMessage(err) });
      else if (field === 'knowledge_base_ids') setErrors({ kbs: errorMessage(err) });
      else setErrors({ form: errorMessage(err) });
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <Field label="Name" hint="Something that tells you where the key is used, such as “Invoice importer”." error={errors.name}>
        {({ id, describedBy }) => <Input id={id} aria-describedby={describedBy} aria-invalid={errors.name ? true : undefined} maxLength={200} value={name} onChange={(e) => changeName(e.target.value)} />}
      </Field>
      <KnowledgeBaseLimitField limited={limited} onLimitedChange={changeLimited} selected={kbIds} onSelectedChange={changeKbIds} error={errors.kbs} />
      <CheckboxGroup
        legend="Permissions"
        hint={
          limited
            ? 'What a program holding this key may do in its knowledge bases. Broader choices include the narrower ones below them.'
            : 'What a program holding this key may do. Broader choices include the narrower ones below them.'
        }
        choices={limited ? SCOPE_CHOICES.filter((c) => !BEYOND_KNOWLEDGE_BASES.includes(c.value)) : SCOPE_CHOICES}
        selected={scopes}
        covered={coveredScopes(scopes)}
        onChange={changeScopes}
        error={errors.scopes}
      />
      <div className="grid gap-5 sm:grid-cols-2">
        <Field label="Expires after (days)" hint="Leave empty for a key that never expires." error={errors.days}>
          {({ id, describedBy }) => (
            <Input id={id} aria-describedby={describedBy} aria-invalid={errors.days ? true : undefined} type="number" inputMode="numeric" min={1} max={3650} value={days} onChange={(e) => changeDays(e.target.value)} />
          )}
        </Field>
        <Field label="Allowed addresses (optional)" hint="IP addresses or ranges such as 203.0.113.7 or 10.0.0.0/8, one per line. Leave empty to allow any address." error={errors.ips}>
          {({ id, describedBy }) => (
            <Textarea id={id} aria-describedby={describedBy} aria-invalid={errors.ips ? true : undefined} rows={3} spellCheck={false} className="font-mono" value={ips} onChange={(e) => changeIps(e.target.value)} />
          )}
        </Field>
      </div>
      <FormError message={errors.form} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={create.isPending}>
          Create key
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/**
 * The new key, shown this one time, with a copy button and a warning. It stays open (Escape does
 * nothing) until the person says they have stored the key, as losing it means making a new one.
 */
function NewKeyDialog({ created, onClose }: { created: CreatedApiKey | null; onClose: () => void }) {
  const [stored, setStored] = useState(false);
  const storedId = useId();
  const close = () => {
    setStored(false);
    onClose();
  };
  return (
    <Dialog open={created !== null} title="Your new API key" onClose={close} dismissible={false}>
      {created && (
        <div className="space-y-4 text-sm">
          <p role="note" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-amber-900">
            <strong>Copy this key now.</strong> It will not be shown again. If you lose it, revoke it and create a new one.
          </p>
          <Field label={`Key for “${created.name}”`}>
            {({ id }) => (
              <div className="flex flex-wrap gap-2">
                <Input id={id} readOnly value={created.key} spellCheck={false} className="min-w-0 flex-1 basis-56 font-mono text-xs" onFocus={(e) => e.currentTarget.select()} />
                <CopyButton text={created.key} label="Copy key" variant="primary" />
              </div>
            )}
          </Field>
          <div className="flex items-start gap-2">
            <input id={storedId} type="checkbox" className="mt-0.5 h-4 w-4 shrink-0 accent-indigo-600" checked={stored} onChange={(e) => setStored(e.target.checked)} />
            <label htmlFor={storedId} className="font-medium text-slate-800">
              I have stored this key somewhere safe
            </label>
          </div>
          <div className="flex justify-end">
            <Button variant="secondary" disabled={!stored} onClick={close}>
              Close
            </Button>
          </div>
        </div>
      )}
    </Dialog>
  );
}

/** The keys of one page of the list, with when each was last used and a way to revoke it. */
function KeyTable({ keys }: { keys: ApiKey[] }) {
  const queryClient = useQueryClient();
  // Names for the keys limited to knowledge bases (ids stand in for any not found).
  const kbs = useAllKnowledgeBases(keys.some((k) => k.knowledge_base_ids !== null && k.knowledge_base_ids.length > 0));
  const kbNames = new Map((kbs.data ?? []).map((kb) => [kb.id, kb.name]));
  const now = Date.now();
  const columns: Column<ApiKey>[] = [
    {
      header: 'Name',
      className: 'font-medium break-words',
      cell: (k) => (
        <>
          {k.name}
          {k.allowed_ips && k.allowed_ips.length > 0 && <p className="text-xs font-normal text-slate-600">Only from {k.allowed_ips.join(', ')}</p>}
        </>
      ),
    },
    { header: 'Key starts with', className: 'font-mono text-xs whitespace-nowrap', cell: (k) => `${k.key_prefix}…` },
    {
      header: 'Permissions',
      cell: (k) => (
        <ul className="flex flex-wrap gap-1" aria-label="Permissions">
          {k.scopes.map((s) => (
            <li key={s} title={s}>
              <Badge tone={s === '*' || s === 'api-keys:*' ? 'yellow' : 'gray'}>{scopeLabel(s)}</Badge>
            </li>
          ))}
        </ul>
      ),
    },
    { header: 'Knowledge bases', className: 'break-words', cell: (k) => <KnowledgeBaseLimitCell ids={k.knowledge_base_ids} names={kbNames} /> },
    { header: 'Last used', className: 'whitespace-nowrap', cell: (k) => <RelativeTime iso={k.last_used_at} /> },
    {
      header: 'Expires',
      className: 'whitespace-nowrap',
      cell: (k) => (k.expires_at !== null && Date.parse(k.expires_at) <= now ? <Badge tone="red">expired</Badge> : <RelativeTime iso={k.expires_at} />),
    },
    {
      header: 'Actions',
      hideHeader: true,
      sticky: true,
      cell: (k) => (
        <ConfirmButton
          label="Revoke"
          title="Revoke this API key?"
          message={
            <p>
              Programs using <strong>{k.name}</strong> ({k.key_prefix}…) will be refused from now on. This cannot be undone.
            </p>
          }
          confirmLabel="Revoke key"
          onConfirm={async () => {
            try {
              await api(`/v1/api-keys/${encodeURIComponent(k.id)}`, { method: 'DELETE' });
              toast.success(`API key "${k.name}" revoked`);
            } catch (err) {
              toast.error(errorMessage(err));
            } finally {
              queryClient.invalidateQueries({ queryKey: ['api-keys'] });
            }
          }}
        />
      ),
    },
  ];
  return <Table label="API keys" caption="API keys" className="sm:min-w-[52rem]" cardsOnPhones columns={columns} rows={keys} rowKey={(k) => k.id} />;
}
