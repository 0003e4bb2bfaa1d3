import Link from 'next/link';
import type { ReactNode } from 'react';

/**
 * A link to a page goes through next/link (client navigation, prefetch); a link to an API route
 * (`/api/...`, JSON) stays a plain <a>, because prefetching a route handler as if it were a page only
 * costs a wasted request.
 */
export function SiteLink({ href, className, children }: { href: string; className?: string; children: ReactNode }) {
  if (href.startsWith('/api/')) {
    return (
      <a href={href} className={className}>
        {children}
      </a>
    );
  }
  return (
    <Link href={href} className={className}>
      {children}
    </Link>
  );
}
