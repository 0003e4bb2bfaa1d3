import type { Metadata } from 'next';
import { connection } from 'next/server';
import { SiteFooter } from '@/components/marketing/site-footer';
import { SiteHeader } from '@/components/marketing/site-header';
import { ButtonLink, buttonClasses } from '@/components/ui/button';
import { currentUser } from '@/server/auth/current-user';

export const metadata: Metadata = { title: 'Page not found' };

/** Signed in or not, as on the landing page (app/page.tsx): a signed-in visitor is offered the console, never "Sign in". */
export default async function NotFound() {
  // Rendered per request: prerendered at build time it would always say "signed out" (currentUser's cookie read
  // would be swallowed by the catch below instead of marking the page dynamic).
  await connection();
  const signedIn = (await currentUser().catch(() => null)) !== null;
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader signedIn={signedIn} />
      <main id="main" className="flex flex-1 items-center justify-center px-4 py-24 sm:px-6">
        <div className="max-w-md text-center">
          <p className="font-mono text-sm font-semibold text-accent-text">404</p>
          <h1 className="mt-3 text-3xl font-semibold tracking-tight text-foreground sm:text-4xl">Page not found</h1>
          <p className="mt-4 text-base leading-7 text-muted">
            Nothing is connected on this line. Check the address, or head back to somewhere familiar.
          </p>
          <div className="mt-8 flex flex-wrap justify-center gap-3">
            <ButtonLink href="/">Back to home</ButtonLink>
            <ButtonLink href="/keys" variant="secondary">
              Open the console
            </ButtonLink>
            <a href="/docs" className={buttonClasses({ variant: 'ghost' })}>
              API reference
            </a>
          </div>
        </div>
      </main>
      <SiteFooter signedIn={signedIn} />
    </div>
  );
}
