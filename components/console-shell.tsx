'use client';

import Link from 'next/link';
import { usePathname } from 'next/navigation';
import { signOut } from 'next-auth/react';
import { createContext, useContext, useState, type ReactNode } from 'react';
import { leavingOnPurpose } from './api';
import { useHealth } from './hooks';
import { cx } from './ui';

interface ShellUser {
  email: string;
  name: string;
  role: 'admin' | 'member';
}

/** What this server is set up to offer, read by the console layout on the server. */
export interface ConsoleFeatures {
  /** A cloud text recognition service is configured: the choice is offered only then. */
  cloudOcr: boolean;
}

const FeaturesContext = createContext<ConsoleFeatures>({ cloudOcr: false });

/** The features of this server, so pages offer only the choices that will work. */
export function useConsoleFeatures(): ConsoleFeatures {
  return useContext(FeaturesContext);
}

const NAV: { href: string; label: string; admin?: boolean }[] = [
  { href: '/', label: 'Overview' },
  { href: '/files', label: 'Files' },
  { href: '/knowledge-bases', label: 'Knowledge bases' },
  { href: '/sources', label: 'Sources' },
  { href: '/search', label: 'Search' },
  { href: '/webhooks', label: 'Webhooks', admin: true },
  { href: '/api-keys', label: 'API keys', admin: true },
  { href: '/settings', label: 'Settings', admin: true },
];

function isActive(pathname: string, href: string): boolean {
  return href === '/' ? pathname === '/' : pathname === href || pathname.startsWith(`${href}/`);
}

/** The console frame: navigation (a menu button on small screens), the user, and the maintenance banner. */
export function ConsoleShell({ user, features, children }: { user: ShellUser; features: ConsoleFeatures; children: ReactNode }) {
  const pathname = usePathname();
  const [menuOpen, setMenuOpen] = useState(false);
  const health = useHealth();
  const maintenance = health.data?.maintenance;
  const links = NAV.filter((item) => !item.admin || user.role === 'admin');
  return (
    <div className="min-h-screen md:flex">
      <a href="#main" className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:z-50 focus:rounded focus:bg-white focus:px-3 focus:py-2">
        Skip to content
      </a>
      <header className="flex items-center justify-between border-b border-slate-200 bg-white px-4 py-3 md:hidden">
        <Link href="/" className="text-lg font-semibold">
          Quarry
        </Link>
        <button
          type="button"
          className="rounded-md border border-slate-300 px-3 py-1.5 text-sm"
          aria-expanded={menuOpen}
          aria-controls="console-nav"
          onClick={() => setMenuOpen((v) => !v)}
        >
          Menu
        </button>
      </header>
      <aside
        id="console-nav"
        className={cx('border-r border-slate-200 bg-white md:block md:w-60 md:shrink-0', menuOpen ? 'block' : 'hidden')}
      >
        <div className="hidden px-5 py-5 text-xl font-semibold md:block">
          <Link href="/">Quarry</Link>
        </div>
        <nav aria-label="Main" className="px-3 pb-4">
          <ul className="space-y-1">
            {links.map((item) => (
              <li key={item.href}>
                <Link
                  href={item.href}
                  onClick={() => setMenuOpen(false)}
                  aria-current={isActive(pathname, item.href) ? 'page' : undefined}
                  className={cx(
                    'block rounded-md px-3 py-2 text-sm',
                    isActive(pathname, item.href) ? 'bg-indigo-50 font-medium text-indigo-800' : 'text-slate-700 hover:bg-slate-100',
                  )}
                >
                  {item.label}
                </Link>
              </li>
            ))}
          </ul>
          <div className="mt-6 border-t border-slate-200 px-3 pt-4 text-sm">
            <p className="truncate font-medium" title={user.email}>
              {user.name}
            </p>
            <p className="text-xs text-slate-600">{user.role === 'admin' ? 'Administrator' : 'Member'}</p>
            <button
              type="button"
              className="mt-2 text-sm text-indigo-700 underline"
              onClick={() => {
                leavingOnPurpose();
                void signOut({ callbackUrl: '/sign-in' });
              }}
            >
              Sign out
            </button>
          </div>
        </nav>
      </aside>
      <div className="min-w-0 flex-1">
        {maintenance?.enabled && (
          <div role="alert" className="border-b border-amber-300 bg-amber-100 px-4 py-3 text-sm text-amber-900">
            <strong>Maintenance mode is on.</strong> {maintenance.message ?? 'The service is not accepting changes right now.'}
          </div>
        )}
        <main id="main" className="mx-auto max-w-6xl px-4 py-6 md:px-8">
          <FeaturesContext.Provider value={features}>{children}</FeaturesContext.Provider>
        </main>
      </div>
    </div>
  );
}
