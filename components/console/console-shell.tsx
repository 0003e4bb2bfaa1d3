'use client';

// The console frame: a sidebar (a drawer on phones) with the role-aware navigation, and a top bar with the
// account switcher and the user menu. Every page renders inside <main id="main"> (the skip link's target).
import Link from 'next/link';
import { Suspense, useState, type ReactNode } from 'react';
import { CheckoutOutcome } from '@/components/billing/checkout-outcome';
import { Logo } from '@/components/ui/logo';
import type { ConsoleSession } from '@/server/console/get-console-session';
import { AccountSwitcher } from './account-switcher';
import { ConsoleSessionProvider } from './console-session';
import { Dialog } from './dialog';
import { Icon } from './icons';
import { NavLinks } from './nav-links';
import { ToastProvider } from './toast';
import { UserMenu } from './user-menu';

export function ConsoleShell({ initialSession, children }: { initialSession: ConsoleSession; children: ReactNode }) {
  const [drawer, setDrawer] = useState(false);
  return (
    <ConsoleSessionProvider initial={initialSession}>
      <ToastProvider>
        <div className="min-h-dvh bg-surface lg:grid lg:grid-cols-[16rem_minmax(0,1fr)]">
          <aside className="hidden border-r border-border bg-background lg:block">
            <div className="sticky top-0 flex h-dvh flex-col">
              <div className="flex h-16 items-center px-5">
                <Link href="/overview" aria-label="Switchboard console home" className="rounded-md">
                  <Logo />
                </Link>
              </div>
              <div className="flex-1 overflow-y-auto px-3 py-4">
                <NavLinks />
              </div>
              <div className="border-t border-border px-5 py-4 text-xs text-muted">
                <a href="/docs" className="hover:text-foreground">
                  API reference
                </a>
                <span aria-hidden="true"> · </span>
                <Link href="/" className="hover:text-foreground">
                  Home
                </Link>
              </div>
            </div>
          </aside>

          <div className="min-w-0">
            <header className="sticky top-0 z-30 flex h-16 items-center gap-3 border-b border-border bg-background/85 px-4 backdrop-blur-md sm:px-6 lg:px-8">
              <button
                type="button"
                onClick={() => setDrawer(true)}
                className="-ml-1 rounded-lg p-2 text-muted hover:bg-surface hover:text-foreground lg:hidden"
                aria-label="Open navigation"
              >
                <Icon name="menu" />
              </button>
              <div className="min-w-0 flex-1">
                <AccountSwitcher />
              </div>
              <UserMenu />
            </header>

            <Dialog open={drawer} onClose={() => setDrawer(false)} title={<Logo />} size="sm">
              <NavLinks onNavigate={() => setDrawer(false)} />
            </Dialog>

            <main id="main" className="mx-auto w-full max-w-6xl px-4 py-8 sm:px-6 lg:px-8">
              <Suspense fallback={null}>
                <CheckoutOutcome />
              </Suspense>
              {children}
            </main>
          </div>
        </div>
      </ToastProvider>
    </ConsoleSessionProvider>
  );
}
