import { SignInForm } from '@/components/sign-in-form';

export const metadata = { title: 'Sign in · Quarry' };

export default function SignInPage() {
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <SignInForm />
    </main>
  );
}
