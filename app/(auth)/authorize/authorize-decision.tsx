'use client';

import { useActionState, useEffect } from 'react';
import { ApproveDenyForm } from '@/components/auth/approve-deny-form';
import { FormAlert } from '@/components/auth/form-alert';
import { authorizeAction, type AuthorizeState } from './actions';

/** Approve / Deny; the browser then follows the redirect (an editor URI opens the editor). */
export function AuthorizeDecision({ redirectUri, state, clientName, appName }: { redirectUri: string; state: string; clientName: string; appName: string }) {
  const [result, action, pending] = useActionState<AuthorizeState, FormData>(authorizeAction, {});
  useEffect(() => {
    if (result.redirect) window.location.assign(result.redirect);
  }, [result.redirect]);

  if (result.redirect) {
    return (
      <FormAlert tone={result.approved ? 'success' : 'info'} className="mt-6">
        {result.approved ? <>Signed in. Opening {appName}…</> : <>Request denied. Returning to {appName}…</>}{' '}
        <a href={result.redirect} className="font-medium underline underline-offset-4">
          Open it yourself
        </a>{' '}
        if nothing happens, then close this tab.
      </FormAlert>
    );
  }
  return <ApproveDenyForm action={action} error={result.error} pending={pending} fields={{ redirect_uri: redirectUri, state, client_name: clientName }} />;
}
