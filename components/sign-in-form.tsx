'use client';

import { signIn } from 'next-auth/react';
import { useRouter, useSearchParams } from 'next/navigation';
import { Suspense, useState } from 'react';
import { Button, Field, FormError, Input } from './ui';

function Form() {
  const router = useRouter();
  const params = useSearchParams();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
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
          const next = params.get('callbackUrl');
          router.replace(next && next.startsWith('/') && !next.startsWith('//') ? next : '/');
          router.refresh();
        } else {
          setError('The email or password is not right, or the account is disabled.');
        }
      }}
    >
      <h1 className="text-xl font-semibold">Sign in to Quarry</h1>
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
