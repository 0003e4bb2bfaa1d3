import type { Metadata } from 'next';
import { AuthCard } from '@/components/auth/auth-card';
import { FormAlert } from '@/components/auth/form-alert';
import { SignOutButton } from '@/components/auth/sign-out-button';
import { allowedRedirectUri, defaultClientName } from '@/server/auth/redirect-authorization';
import { param, pathWithQuery, requireUser } from '../require-user';
import { AuthorizeDecision } from './authorize-decision';

export const metadata: Metadata = { title: 'Authorize an app' };

/**
 * The redirect flow for editors and local tools: /authorize?redirect_uri=&state=&client_name=. The
 * signed-in user approves; the token goes back to the redirect URI (editor schemes or loopback only).
 */
export default async function AuthorizePage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const redirectUri = param(query.redirect_uri) ?? '';
  const state = param(query.state) ?? '';
  const clientName = (param(query.client_name) ?? '').trim().slice(0, 100);
  const here = pathWithQuery('/authorize', { redirect_uri: redirectUri, state, client_name: clientName });
  const user = await requireUser(here);

  const target = allowedRedirectUri(redirectUri);
  if (!target || !state) {
    return (
      <AuthCard title="This link cannot be used">
        <FormAlert>
          {!target
            ? 'The app asked to send your sign-in to an address Switchboard does not trust. Only editors (VS Code, Cursor, Windsurf) and apps on this computer can receive it.'
            : 'The app did not include a state value. Start the sign-in again from your editor.'}
        </FormAlert>
      </AuthCard>
    );
  }
  const name = clientName || defaultClientName(target);
  const destination = target.protocol === 'http:' ? `an app on this computer (port ${target.port})` : `${defaultClientName(target)} (${target.protocol}//${target.host})`;

  return (
    <AuthCard
      title={`Sign in to ${name}`}
      description={
        <>
          Signed in as <span className="font-medium text-foreground">{user.email}</span>.
        </>
      }
    >
      <div className="rounded-xl border border-border bg-surface p-5 text-sm leading-6 text-foreground">
        <p>
          <span className="font-medium">{name}</span> wants to use your Switchboard account: your models, your credit and your organizations, as you.
        </p>
        <p className="mt-2 text-muted">The sign-in will be sent to {destination}. You can revoke it at any time.</p>
      </div>
      <AuthorizeDecision redirectUri={redirectUri} state={state} clientName={clientName} appName={name} />
      <div className="mt-6 text-center text-sm text-muted">
        <SignOutButton callbackUrl={here} />
      </div>
    </AuthCard>
  );
}
