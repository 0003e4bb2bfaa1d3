import type { Metadata } from 'next';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/auth-card';
import { FormAlert } from '@/components/auth/form-alert';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { ButtonLink } from '@/components/ui/button';
import { termsStep, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { isAppError } from '@/server/errors';
import { previewInvite, type InvitePreviewDto } from '@/server/invites/accept-invite';
import { AcceptInvite } from './accept-invite';

export const metadata: Metadata = { title: 'Join an organization' };

const article = (role: string) => (role === 'admin' || role === 'owner' ? 'an' : 'a');

/** The link from an invite email: who invited you where, then Accept (after signing in or up). */
export default async function InvitePage({ params }: { params: Promise<{ token: string }> }) {
  const { token } = await params;
  const here = `/invite/${encodeURIComponent(token)}`;
  let invite: InvitePreviewDto;
  try {
    invite = await previewInvite({ token });
  } catch (err) {
    if (!isAppError(err)) throw err;
    return (
      <AuthCard title="Invite not found">
        <FormAlert>This invite does not exist or was revoked. Ask the person who invited you for a new link.</FormAlert>
      </AuthCard>
    );
  }

  const user = await currentUser();
  if (user && !user.acceptedTerms && invite.status === 'pending') redirect(termsStep(here));
  const title = `Join ${invite.organization_name}`;
  const description = (
    <>
      {invite.invited_by ? <>{invite.invited_by} invited </> : 'You are invited '}
      <span className="font-medium text-foreground">{invite.email}</span> to join <span className="font-medium text-foreground">{invite.organization_name}</span> as{' '}
      {article(invite.role)} <span className="font-medium text-foreground">{invite.role}</span>.
    </>
  );

  if (invite.status !== 'pending') {
    return (
      <AuthCard title={title} description={description}>
        <FormAlert>{invite.status === 'expired' ? 'This invite has expired. Ask for a new one.' : 'This invite has already been used.'}</FormAlert>
      </AuthCard>
    );
  }
  if (!user) {
    return (
      <AuthCard title={title} description={description}>
        <p className="text-sm leading-6 text-muted">Sign in or create an account with {invite.email} to accept.</p>
        <div className="mt-6 flex gap-3">
          <ButtonLink href={withCallback('/sign-up', here)} className="flex-1">
            Create an account
          </ButtonLink>
          <ButtonLink href={withCallback('/sign-in', here)} variant="secondary" className="flex-1">
            Sign in
          </ButtonLink>
        </div>
      </AuthCard>
    );
  }
  const emailMatches = user.email.toLowerCase() === invite.email.toLowerCase();
  return (
    <AuthCard title={title} description={description}>
      <p className="text-sm text-muted">
        Signed in as <span className="font-medium text-foreground">{user.email}</span>.
      </p>
      {emailMatches ? (
        <AcceptInvite token={token} />
      ) : (
        <div className="mt-5 space-y-4">
          <FormAlert>This invite was sent to {invite.email}. Sign in with that email to accept it.</FormAlert>
          <div className="text-sm">
            <SignOutButton callbackUrl={here} label="Sign out and switch account" />
          </div>
        </div>
      )}
    </AuthCard>
  );
}
