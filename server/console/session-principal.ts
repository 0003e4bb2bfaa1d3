// The signed-in browser user as a gateway/tRPC principal acting on their active account. Shared by the
// tRPC context and the playground's chat route, so both bill and authorize the same account.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { db } from '@/server/db';
import { isAppError } from '@/server/errors';
import { getConsoleSession } from './get-console-session';

/** null when the user behind the session no longer exists or was suspended by an operator (as if signed out). */
export async function sessionPrincipal(p: { userId: string }): Promise<Principal | null> {
  // A browser session signed in before the suspension ends with it (sign-in itself is refused meanwhile).
  const suspended = await (await db()).user.findUnique({ where: { id: p.userId }, select: { suspendedAt: true } });
  if (suspended?.suspendedAt) return null;
  try {
    const session = await getConsoleSession({ userId: p.userId });
    return { kind: 'session', userId: session.user.id, accountId: session.active.id };
  } catch (err) {
    if (isAppError(err) && err.code === 'unauthorized') return null;
    throw err;
  }
}
