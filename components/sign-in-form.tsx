'use client';

import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';
import { Suspense, useState } from 'react';
import { safeNextPath } from './api';
import { Button, Field, FormError, Input } from './ui';

function Form() {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const expired = params.get('expired') === '1';
  return (
    <form
      className="w-full max-w-sm space-y-4 rounded-lg border border-slate-200 bg-white p-6 shadow-sm"
      onSubmit={async (e) => {
        e.preventDefault();
        setBusy(true);
        setError(null);
        const result = await signIn('credentials', { email, password, redirect: false });
        setBusy(false);
        if (result?.ok) {
          // `next` comes from the console when a session ended; `callbackUrl` from the sign-in redirect.
          router.replace(safeNextPath(params.get('next') ?? params.get('callbackUrl')));
          router.refresh();
        } else {
          setError('The email or password is not right, or the account is disabled.');
        }
      }}
    >
      <h1 className="text-xl font-semibold">Sign in to Quarry</h1>
      {expired && (
        <p role="status" className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm text-amber-900">
          Your session ended. Sign in again to continue.
        </p>
      )}
      <Field label="Email">
        {({ id }) => <Input id={id} type="email" autoComplete="username" required value={email} onChange={(e) => setEmail(e.target.value)} />}
      </Field>
      <Field label="Password">
        {({ id }) => (
          <Input id={id} type="password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
        )}
      </Field>
      <FormError message={error} />
      <Button type="submit" busy={busy} className="w-full">
        Sign in
      </Button>
    </form>
  );
}

export function SignInForm() {
  return (
    <Suspense>
      <Form />
    </Suspense>
  );
}
