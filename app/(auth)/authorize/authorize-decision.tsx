'use client';

import { useActionState, useEffect } from 'react';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
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
  return (
    <form action={action} className="mt-6 space-y-4">
      {result.error ? <FormAlert>{result.error}</FormAlert> : null}
      <input type="hidden" name="redirect_uri" value={redirectUri} />
      <input type="hidden" name="state" value={state} />
      <input type="hidden" name="client_name" value={clientName} />
      <div className="flex gap-3">
        <SubmitButton name="decision" value="approve" pending={pending} pendingLabel="Working…" className="flex-1">
          Approve
        </SubmitButton>
        <SubmitButton name="decision" value="deny" variant="secondary" pending={pending} pendingLabel="Working…" className="flex-1">
          Deny
        </SubmitButton>
      </div>
    </form>
  );
}
