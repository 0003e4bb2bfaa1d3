// The signed-in browser user as a gateway/tRPC principal acting on their active account. Shared by the
// tRPC context and the playground's chat route, so both bill and authorize the same account.
import type { Principal } from '@/server/auth/authenticate-bearer';
import type { BrowserClient } from '@/server/auth/browser-sessions/browser-session-policy';
import { resolveBrowserSession } from '@/server/auth/browser-sessions/resolve-browser-session';
import { isAppError } from '@/server/errors';
import { getConsoleSession } from './get-console-session';

/**
 * null (as if signed out) when the user behind the session no longer exists or was suspended by an operator,
 * or when the browser session was signed out (Account settings, a password change…). One statement checks
 * all three (resolve-browser-session.ts).
 * @param browserSessionId the cookie's `sid` (absent on cookies from before session tracking)
 */
export async function sessionPrincipal(p: { userId: string; browserSessionId?: string | null; client?: BrowserClient }): Promise<Principal | null> {
  const resolved = await resolveBrowserSession(p);
  if (!resolved) return null;
  try {
    const session = await getConsoleSession({ userId: p.userId });
    return { kind: 'session', userId: session.user.id, accountId: session.active.id, browserSessionId: resolved.browserSessionId };
  } catch (err) {
    if (isAppError(err) && err.code === 'unauthorized') return null;
    throw err;
  }
}
