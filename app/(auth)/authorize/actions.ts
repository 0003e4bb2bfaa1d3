'use server';

import { headers } from 'next/headers';
import { clientOf, consoleActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import { currentUser } from '@/server/auth/current-user';
import { approveRedirectAuthorization, denyRedirectAuthorization } from '@/server/auth/redirect-authorization';
import { isAppError } from '@/server/errors';

export interface AuthorizeState {
  /** Where the browser goes next: the client's redirect URI with token+state, or error=access_denied. */
  redirect?: string;
  approved?: boolean;
  error?: string;
}

/** The redirect URI is validated again here: the form's hidden fields are the client's to tamper with. */
export async function authorizeAction(_prev: AuthorizeState, form: FormData): Promise<AuthorizeState> {
  const user = await currentUser();
  if (!user || !user.acceptedTerms) return { error: 'Your session ended. Reload the page and sign in again.' };
  const input = { redirect_uri: String(form.get('redirect_uri') ?? ''), state: String(form.get('state') ?? ''), client_name: String(form.get('client_name') ?? '') };
  try {
    if (form.get('decision') !== 'approve') return { ...denyRedirectAuthorization({ input }), approved: false };
    // The new token is recorded in the audit log as the signed-in user's, via the console.
    const actor = consoleActor(user.id, clientOf(await headers()));
    const { redirect } = await withAuditActor(actor, () => approveRedirectAuthorization({ userId: user.id, input }));
    return { redirect, approved: true };
  } catch (err) {
    if (isAppError(err) || (err as Error)?.name === 'ZodError') return { error: 'This sign-in link is not valid. Start again from your editor.' };
    throw err;
  }
}
