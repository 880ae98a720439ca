import { redirect } from 'next/navigation';
import { SetupForm } from '@/components/setup-form';
import { consoleSetupRequired } from '@/lib/ops/console';

export const dynamic = 'force-dynamic';
export const metadata = { title: 'Set up · Quarry' };

export default async function SetupPage() {
  if (!(await consoleSetupRequired())) redirect('/sign-in');
  return (
    <main className="flex min-h-screen items-center justify-center px-4">
      <SetupForm />
    </main>
  );
}
