// The signed-in browser user as a gateway/tRPC principal acting on their active account. Shared by the
// tRPC context and the playground's chat route, so both bill and authorize the same account.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { isAppError } from '@/server/errors';
import { getConsoleSession } from './get-console-session';

/** null when the user behind the session no longer exists. */
export async function sessionPrincipal(p: { userId: string }): Promise<Principal | null> {
  try {
    const session = await getConsoleSession({ userId: p.userId });
    return { kind: 'session', userId: session.user.id, accountId: session.active.id };
  } catch (err) {
    if (isAppError(err) && err.code === 'unauthorized') return null;
    throw err;
  }
}
