'use server';

import { headers } from 'next/headers';
import { redirect } from 'next/navigation';
import { clientOf, consoleActor } from '@/server/audit/audit-actors';
import { withAuditActor } from '@/server/audit/audit-context';
import { currentUser } from '@/server/auth/current-user';
import { isAppError } from '@/server/errors';
import { acceptInvite } from '@/server/invites/accept-invite';
import { setActiveAccount } from '@/server/users/set-active-account';

export interface AcceptInviteState {
  joined?: { organization: string; organizationId: string; role: string };
  error?: string;
}

export async function acceptInviteAction(_prev: AcceptInviteState, form: FormData): Promise<AcceptInviteState> {
  const user = await currentUser();
  if (!user || !user.acceptedTerms) return { error: 'Your session ended. Reload the page and sign in again.' };
  try {
    const actor = consoleActor(user.id, clientOf(await headers()));
    const r = await withAuditActor(actor, () => acceptInvite({ userId: user.id, input: { token: String(form.get('token') ?? '') } }));
    return { joined: { organization: r.organization.name, organizationId: r.organization.id, role: r.member.role } };
  } catch (err) {
    if (isAppError(err)) return { error: err.message };
    throw err;
  }
}

/** "Open <organization>" after joining: makes it the active account and opens the console on it. */
export async function openOrganizationAction(form: FormData): Promise<void> {
  const user = await currentUser();
  if (!user) redirect('/sign-in');
  await setActiveAccount({ userId: user.id, input: { account_id: String(form.get('organization_id') ?? '') } });
  redirect('/overview');
}
