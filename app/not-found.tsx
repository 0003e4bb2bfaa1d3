import type { Metadata } from 'next';
import { SiteFooter } from '@/components/marketing/site-footer';
import { SiteHeader } from '@/components/marketing/site-header';
import { ButtonLink, buttonClasses } from '@/components/ui/button';

export const metadata: Metadata = { title: 'Page not found' };

export default function NotFound() {
  return (
    <div className="flex min-h-dvh flex-col">
      <SiteHeader />
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
      <SiteFooter />
    </div>
  );
}
