import { redirect } from 'next/navigation';
import { termsStep, withCallback } from '@/server/auth/callback-url';
import { currentUser, type SessionUser } from '@/server/auth/current-user';

/**
 * The signed-in user for a page that acts on their behalf; otherwise off to sign in (and back to
 * `here` afterwards), or to the terms step when the current terms are not accepted yet.
 */
export async function requireUser(here: string, options: { terms?: boolean } = {}): Promise<SessionUser> {
  const user = await currentUser();
  if (!user) redirect(withCallback('/sign-in', here));
  if (options.terms !== false && !user.acceptedTerms) redirect(termsStep(here));
  return user;
}

/** "/device" + { user_code: "X" } → "/device?user_code=X" (empty values dropped). */
export function pathWithQuery(path: string, query: Record<string, string | undefined>): string {
  const q = new URLSearchParams(Object.entries(query).filter((e): e is [string, string] => typeof e[1] === 'string' && e[1] !== ''));
  const s = q.toString();
  return s ? `${path}?${s}` : path;
}

/** The first value of a search param. */
export function param(v: string | string[] | undefined): string | undefined {
  return Array.isArray(v) ? v[0] : v;
}
