// The signed-in console: a server-side session check on every full page load (signed out → sign-in and back
// here; terms not accepted → the terms step), then the shell with the user's accounts. Pages below fetch
// through tRPC (components/providers.tsx), whose procedures check the session again.
import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { notFound } from 'next/navigation';
import type { ReactNode } from 'react';
import { requireUser } from '@/app/(auth)/require-user';
import { ConsoleShell } from '@/components/console/console-shell';
import { Providers } from '@/components/providers';
import { safeCallbackUrl } from '@/server/auth/callback-url';
import { CONSOLE_PATH_HEADER } from '@/server/console/console-path';
import { getConsoleSession } from '@/server/console/get-console-session';

export const dynamic = 'force-dynamic';

export const metadata: Metadata = {
  title: { default: 'Console', template: '%s · Switchboard console' },
  robots: { index: false, follow: false },
};

export default async function ConsoleLayout({ children }: { children: ReactNode }) {
  // proxy.ts names the page asked for; layouts are not told their pathname.
  const here = safeCallbackUrl((await headers()).get(CONSOLE_PATH_HEADER), '/overview');
  const user = await requireUser(here);
  const session = await getConsoleSession({ userId: user.id });
  // The operators' pages are a 404 for everyone else. Checked here, above the loading boundary, so the
  // response status is 404 (admin/layout.tsx checks again, whatever the path header says).
  if ((here === '/admin' || here.startsWith('/admin/') || here.startsWith('/admin?')) && !session.operator) notFound();
  return (
    <Providers>
      <ConsoleShell initialSession={session}>{children}</ConsoleShell>
    </Providers>
  );
}
