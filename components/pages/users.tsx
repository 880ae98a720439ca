'use client';

import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import Link from 'next/link';
import { useState, type FormEvent } from 'react';
import { toast } from 'sonner';
import { QueryError, isForbidden, retryUnlessRefused } from '../admin';
import { ApiClientError, api, errorMessage, type Page } from '../api';
import type { User } from '../api-types';
import { useFieldErrors, useMe } from '../hooks';
import { Badge, Button, Card, ConfirmButton, Dialog, EmptyState, Field, FormError, Input, Loading, PageHeader, Pagination, RelativeTime, Select, Table, type Column } from '../ui';

type UserChanges = Partial<{ name: string; role: User['role']; password: string; disabled: boolean }>;

const MIN_PASSWORD = 10;
const LIMIT = 50;
const ROLE_WORDS: Record<User['role'], string> = { admin: 'Administrator', member: 'Member' };

/** Users (administrators only): add people, change roles, reset passwords, turn accounts off and on. */
export function Users() {
  const queryClient = useQueryClient();
  const me = useMe();
  const [offset, setOffset] = useState(0);
  const [adding, setAdding] = useState(false);
  const list = useQuery({ queryKey: ['users', offset], queryFn: () => api<Page<User>>(`/v1/users?limit=${LIMIT}&offset=${offset}`), retry: retryUnlessRefused });
  const update = useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UserChanges }) => api<User>(`/v1/users/${encodeURIComponent(id)}`, { method: 'PATCH', json: changes }),
    onMutate: ({ id, changes }) => {
      const { password: _password, ...visible } = changes;
      queryClient.setQueryData<Page<User>>(['users', offset], (page) => page && { ...page, items: page.items.map((u) => (u.id === id ? { ...u, ...visible } : u)) });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['users'] }),
  });

  /** Saves a change and says how it went; returns whether it worked. */
  async function change(user: User, changes: UserChanges, done: string): Promise<boolean> {
    try {
      await update.mutateAsync({ id: user.id, changes });
      toast.success(done);
      return true;
    } catch (err) {
      toast.error(errorMessage(err));
      return false;
    }
  }

  return (
    <>
      <p className="mb-2 text-sm">
        <Link href="/settings" className="text-indigo-700 underline-offset-2 hover:underline">
          ← Settings
        </Link>
      </p>
      <PageHeader
        title="Users"
        description="People who can sign in to this console. Administrators can also manage API keys, webhooks, users and settings."
        actions={!isForbidden(list.error) && !adding && <Button onClick={() => setAdding(true)}>Add user</Button>}
      />
      {adding && (
        <Card title="Add a user" className="mb-6">
          <AddUserForm onDone={() => setAdding(false)} />
        </Card>
      )}
      {list.isLoading ? (
        <Loading label="Loading users…" />
      ) : list.isError ? (
        <QueryError error={list.error} action="manage users" onRetry={() => list.refetch()} />
      ) : list.data && list.data.items.length === 0 ? (
        <EmptyState title="No users yet" />
      ) : list.data ? (
        <Card>
          <UserTable users={list.data.items} meId={me.data?.kind === 'user' ? me.data.id : undefined} saving={update.isPending} change={change} />
          <Pagination total={list.data.total} limit={LIMIT} offset={offset} onChange={setOffset} />
        </Card>
      ) : null}
    </>
  );
}

/** The people of one page of the list, with their role and the actions on their account. */
function UserTable({
  users,
  meId,
  saving,
  change,
}: {
  users: User[];
  /** The signed-in person, marked "you". */
  meId: string | undefined;
  /** A change is being saved: the role pickers wait. */
  saving: boolean;
  change: (user: User, changes: UserChanges, done: string) => Promise<boolean>;
}) {
  const columns: Column<User>[] = [
    {
      header: 'Person',
      cell: (u) => (
        <>
          <p className="font-medium break-words">
            {u.name || u.email} {u.id === meId && <Badge tone="blue">you</Badge>}
          </p>
          {u.name && <p className="text-xs break-all text-slate-600">{u.email}</p>}
        </>
      ),
    },
    {
      header: 'Role',
      cell: (u) => (
        <Select
          aria-label={`Role of ${u.name || u.email}`}
          className="w-auto min-w-36"
          value={u.role}
          disabled={saving}
          onChange={(e) => {
            const role = e.target.value as User['role'];
            void change(u, { role }, `${u.name || u.email} is now ${role === 'admin' ? 'an administrator' : 'a member'}`);
          }}
        >
          <option value="member">{ROLE_WORDS.member}</option>
          <option value="admin">{ROLE_WORDS.admin}</option>
        </Select>
      ),
    },
    { header: 'Status', cell: (u) => (u.disabled ? <Badge tone="red">turned off</Badge> : <Badge tone="green">active</Badge>) },
    { header: 'Last sign-in', className: 'whitespace-nowrap', cell: (u) => <RelativeTime iso={u.last_sign_in_at} /> },
    {
      header: 'Actions',
      hideHeader: true,
      sticky: true,
      cell: (u) => (
        <div className="flex flex-wrap justify-end gap-2">
          <ResetPassword user={u} onSave={(password) => change(u, { password }, `New password saved for ${u.name || u.email}`)} />
          {u.disabled ? (
            <Button variant="secondary" onClick={() => void change(u, { disabled: false }, `${u.name || u.email} can sign in again`)}>
              Turn on
            </Button>
          ) : (
            <ConfirmButton
              label="Turn off"
              title="Turn off this account?"
              message={
                <p>
                  <strong>{u.name || u.email}</strong> will be signed out and will not be able to sign in until the account is turned on again. Nothing they made is
                  deleted.
                </p>
              }
              confirmLabel="Turn off account"
              onConfirm={() => change(u, { disabled: true }, `${u.name || u.email} can no longer sign in`)}
            />
          )}
        </div>
      ),
    },
  ];
  return <Table label="Users" caption="Users" className="sm:min-w-[44rem]" cardsOnPhones columns={columns} rows={users} rowKey={(u) => u.id} />;
}

const checkEmail = (email: string) => (/^[^\s@]+@[^\s@]+$/.test(email.trim()) ? undefined : 'Enter an email address.');
const checkPassword = (password: string) => (password.length < MIN_PASSWORD ? `The password must be at least ${MIN_PASSWORD} characters.` : undefined);

function AddUserForm({ onDone }: { onDone: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [role, setRole] = useState<User['role']>('member');
  const [busy, setBusy] = useState(false);
  const [errors, setErrors, recheck] = useFieldErrors<{ email?: string; password?: string; form?: string }>();

  async function submit(e: FormEvent) {
    e.preventDefault();
    const next: typeof errors = { email: checkEmail(email), password: checkPassword(password) };
    setErrors(next);
    if (next.email || next.password) return;
    setBusy(true);
    try {
      const user = await api<User>('/v1/users', { method: 'POST', json: { email: email.trim(), password, role, ...(name.trim() ? { name: name.trim() } : {}) } });
      toast.success(`${user.name || user.email} can now sign in`);
      queryClient.invalidateQueries({ queryKey: ['users'] });
      onDone();
    } catch (err) {
      const field = err instanceof ApiClientError ? err.details?.field : undefined;
      if (err instanceof ApiClientError && err.code === 'USER_EXISTS') setErrors({ email: 'Someone with this email address already has an account.' });
      else if (field === 'email' || field === 'password') setErrors({ [field]: errorMessage(err) });
      else setErrors({ form: errorMessage(err) });
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <div className="grid gap-4 sm:grid-cols-2">
        <Field label="Email" error={errors.email}>
          {({ id, describedBy }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={errors.email ? true : undefined}
              type="email"
              autoComplete="off"
              value={email}
              onChange={(e) => {
                setEmail(e.target.value);
                recheck('email', checkEmail(e.target.value));
              }}
            />
          )}
        </Field>
        <Field label="Name (optional)">{({ id }) => <Input id={id} autoComplete="off" maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />}</Field>
        <Field label="Password" hint={`At least ${MIN_PASSWORD} characters. Tell the person in a safe way; they cannot see it here later.`} error={errors.password}>
          {({ id, describedBy }) => (
            <Input
              id={id}
              aria-describedby={describedBy}
              aria-invalid={errors.password ? true : undefined}
              type="password"
              autoComplete="new-password"
              value={password}
              onChange={(e) => {
                setPassword(e.target.value);
                recheck('password', checkPassword(e.target.value));
              }}
            />
          )}
        </Field>
        <Field label="Role" hint="Members work with files, readings and knowledge bases. Administrators can also manage keys, webhooks, users and settings.">
          {({ id, describedBy }) => (
            <Select id={id} aria-describedby={describedBy} value={role} onChange={(e) => setRole(e.target.value as User['role'])}>
              <option value="member">{ROLE_WORDS.member}</option>
              <option value="admin">{ROLE_WORDS.admin}</option>
            </Select>
          )}
        </Field>
      </div>
      <FormError message={errors.form} />
      <div className="flex flex-wrap gap-2">
        <Button type="submit" busy={busy}>
          Add user
        </Button>
        <Button variant="secondary" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** A button opening a dialog that sets a new password for a user. */
function ResetPassword({ user, onSave }: { user: User; onSave: (password: string) => Promise<boolean> }) {
  const [open, setOpen] = useState(false);
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const close = () => {
    setOpen(false);
    setPassword('');
    setError(null);
  };
  return (
    <>
      <Button variant="secondary" onClick={() => setOpen(true)}>
        Reset password
      </Button>
      <Dialog open={open} title={`New password for ${user.name || user.email}`} onClose={close}>
        <form
          noValidate
          className="space-y-4"
          onSubmit={async (e) => {
            e.preventDefault();
            if (password.length < MIN_PASSWORD) {
              setError(`The password must be at least ${MIN_PASSWORD} characters.`);
              return;
            }
            setBusy(true);
            const ok = await onSave(password);
            setBusy(false);
            if (ok) close();
          }}
        >
          <Field label="New password" hint="The old password stops working at once. Tell the person the new one in a safe way." error={error}>
            {({ id, describedBy }) => (
              <Input id={id} aria-describedby={describedBy} aria-invalid={error ? true : undefined} type="password" autoComplete="new-password" value={password} onChange={(e) => setPassword(e.target.value)} />
            )}
          </Field>
          <div className="flex justify-end gap-2">
            <Button variant="secondary" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" busy={busy}>
              Save password
            </Button>
          </div>
        </form>
      </Dialog>
    </>
  );
}
