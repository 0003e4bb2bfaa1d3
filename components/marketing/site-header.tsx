import Link from 'next/link';
import { ButtonLink } from '@/components/ui/button';
import { Logo } from '@/components/ui/logo';
import { SiteLink } from './site-link';

const navLinks = [
  { href: '/#models', label: 'Models' },
  { href: '/#quickstart', label: 'Quickstart' },
  { href: '/docs', label: 'API reference' },
];

/** `signedIn`: the visitor has a session, so the way in is the console, not signing in. */
export function SiteHeader({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <header className="sticky top-0 z-40 border-b border-border/70 bg-background/80 backdrop-blur-md supports-[backdrop-filter]:bg-background/70">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between gap-6 px-4 sm:px-6 lg:px-8">
        <Link href="/" aria-label="Switchboard home" className="rounded-md">
          <Logo />
        </Link>
        <nav aria-label="Primary" className="flex items-center gap-1 sm:gap-2">
          <ul className="hidden items-center gap-1 md:flex">
            {navLinks.map((link) => (
              <li key={link.href}>
                <SiteLink
                  href={link.href}
                  className="rounded-md px-3 py-2 text-sm font-medium text-muted transition-colors hover:text-foreground"
                >
                  {link.label}
                </SiteLink>
              </li>
            ))}
          </ul>
          {signedIn ? null : (
            <ButtonLink href="/sign-in" variant="ghost" size="sm">
              Sign in
            </ButtonLink>
          )}
          <ButtonLink href="/keys" size="sm">
            Console
          </ButtonLink>
        </nav>
      </div>
    </header>
  );
}
