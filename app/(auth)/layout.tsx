import Link from 'next/link';
import type { ReactNode } from 'react';
import { Logo } from '@/components/ui/logo';

/** Sign-in, sign-up, terms, device approval, editor authorization and invites: one quiet, centred frame. */
export default function AuthLayout({ children }: { children: ReactNode }) {
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
      <footer className="px-4 pb-8 text-center text-xs text-muted sm:px-6">
        <Link href="/terms" className="underline-offset-4 hover:underline">
          Terms of service
        </Link>
        <span aria-hidden="true"> · </span>
        <a href="/api/v1/openapi.json" className="underline-offset-4 hover:underline">
          API reference
        </a>
      </footer>
    </div>
  );
}
