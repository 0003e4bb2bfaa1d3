import Link from 'next/link';
import type { ReactNode } from 'react';
import { Logo } from './logo';

/** One quiet, centred frame under the logo (sign-in and other account pages, checkout pages). */
export function CenteredFrame({ children, footer }: { children: ReactNode; footer?: ReactNode }) {
  return (
    <div className="flex min-h-dvh flex-col bg-surface">
      <header className="px-4 pt-8 sm:px-6">
        <div className="mx-auto flex max-w-md justify-center">
          <Link href="/" aria-label="Switchboard home" className="rounded-md">
            <Logo />
          </Link>
        </div>
      </header>
      <main id="main" className="flex flex-1 items-start justify-center px-4 py-10 sm:px-6 sm:py-14">
        {children}
      </main>
      {footer ? <footer className="px-4 pb-8 text-center text-xs text-muted sm:px-6">{footer}</footer> : null}
    </div>
  );
}
