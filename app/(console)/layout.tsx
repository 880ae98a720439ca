import { getServerSession } from 'next-auth';
import { redirect } from 'next/navigation';
import type { ReactNode } from 'react';
import { ConsoleShell } from '@/components/console-shell';
import { cloudOcrConfigured } from '@/lib/extraction/formats';
import { consoleAuthOptions, consoleSetupRequired } from '@/lib/ops/console';

export const dynamic = 'force-dynamic';

/**
 * Every console page: signed-in users only (the first visit of a new installation goes to setup).
 * The pages learn here which optional features this server is set up for, so they never offer a
 * choice the API would refuse.
 */
export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  if (await consoleSetupRequired()) redirect('/setup');
  const session = await getServerSession(consoleAuthOptions());
  if (!session?.user) redirect('/sign-in');
  const user = session.user as { email?: string | null; name?: string | null; role?: string };
  return (
    <ConsoleShell
      user={{ email: user.email ?? '', name: user.name ?? user.email ?? '', role: user.role === 'admin' ? 'admin' : 'member' }}
      features={{ cloudOcr: cloudOcrConfigured() }}
    >
      {children}
    </ConsoleShell>
  );
}
