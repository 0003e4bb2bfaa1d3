// The signed-in browser user for pages and server actions. The session cookie only carries ids (user and
// browser session); both are checked against the database each time (resolve-browser-session.ts, one
// statement), so a deleted or suspended user, or a browser signed out from Account settings, is signed out
// at once.
import { headers } from 'next/headers';
import { clientOf } from '@/server/audit/audit-actors';
import { hasAcceptedCurrentTerms } from '@/server/users/terms';
import { resolveBrowserSession } from './browser-sessions/resolve-browser-session';
import { auth } from './next-auth';

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  image: string | null;
  /** false until the current terms version is accepted */
  acceptedTerms: boolean;
}

export async function currentUser(): Promise<SessionUser | null> {
  const session = await auth();
  const id = session?.user?.id;
  if (!id) return null;
  const resolved = await resolveBrowserSession({ userId: id, browserSessionId: session.sid, client: clientOf(await headers()) });
  if (!resolved) return null;
  const { user } = resolved;
  return { id: user.id, email: user.email, name: user.name, image: user.image, acceptedTerms: hasAcceptedCurrentTerms(user.termsVersion) };
}
