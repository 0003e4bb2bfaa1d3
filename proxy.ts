// Console pages only: hands the requested path to app/(console)/layout.tsx (layouts are not given the
// pathname), so a signed-out visitor is sent to /sign-in?callbackUrl=<that page> and comes back to it.
// The session check itself stays in the layout, next to the data (server-side, on every full load).
import { NextResponse, type NextRequest } from 'next/server';
import { CONSOLE_PATH_HEADER } from '@/server/console/console-path';

export function proxy(request: NextRequest) {
  const headers = new Headers(request.headers);
  headers.set(CONSOLE_PATH_HEADER, request.nextUrl.pathname + request.nextUrl.search);
  return NextResponse.next({ request: { headers } });
}

export const config = {
  matcher: [
    '/console', '/overview', '/keys', '/usage', '/models/:path*', '/playground', '/organization', '/billing', '/plans', '/sessions', '/account',
    '/policy', '/provider-keys', '/webhooks', '/audit-log', '/sso', '/activity', '/admin/:path*',
  ],
};
