import { Logo } from '@/components/ui/logo';
import { SiteLink } from './site-link';

const productColumns = [
  {
    title: 'Product',
    links: [
      { href: '/#models', label: 'Models' },
      { href: '/#quickstart', label: 'Quickstart' },
      { href: '/keys', label: 'Console' },
    ],
  },
  {
    title: 'Developers',
    links: [
      { href: '/docs', label: 'API reference' },
      { href: '/api/health', label: 'Service status' },
    ],
  },
];

/** `signedIn`: the visitor has a session, so the Account column leads to the console instead of signing in. */
function accountColumn(signedIn: boolean) {
  return {
    title: 'Account',
    links: [signedIn ? { href: '/overview', label: 'Console' } : { href: '/sign-in', label: 'Sign in' }, { href: '/keys', label: 'API keys' }],
  };
}

export function SiteFooter({ signedIn = false }: { signedIn?: boolean }) {
  return (
    <footer className="border-t border-border bg-surface">
      <div className="mx-auto grid max-w-6xl gap-10 px-4 py-12 sm:px-6 md:grid-cols-[1.5fr_repeat(3,1fr)] lg:px-8">
        <div>
          <Logo />
          <p className="mt-4 max-w-xs text-sm leading-6 text-muted">
            One credential, many model providers. An OpenAI-compatible gateway with prepaid credits and a console for
            your team.
          </p>
        </div>
        {[...productColumns, accountColumn(signedIn)].map((column) => (
          <nav key={column.title} aria-label={column.title}>
            <h2 className="text-sm font-semibold text-foreground">{column.title}</h2>
            <ul className="mt-3 space-y-2">
              {column.links.map((link) => (
                <li key={link.href + link.label}>
                  <SiteLink href={link.href} className="text-sm text-muted transition-colors hover:text-foreground">
                    {link.label}
                  </SiteLink>
                </li>
              ))}
            </ul>
          </nav>
        ))}
      </div>
      <div className="border-t border-border">
        <p className="mx-auto max-w-6xl px-4 py-6 text-xs text-muted sm:px-6 lg:px-8">
          © {new Date().getFullYear()} Switchboard. Provider and model names belong to their owners.
        </p>
      </div>
    </footer>
  );
}
