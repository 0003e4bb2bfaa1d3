'use client';

import { useActionState } from 'react';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { TextField } from '@/components/console/fields';
import { signInWithSso, type SsoSignInState } from '../../actions';

export function SsoForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action] = useActionState<SsoSignInState, FormData>(signInWithSso, {});
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {state.error ? <FormAlert>{state.error}</FormAlert> : null}
      <TextField id="sso-email" name="email" type="email" label="Work email" autoComplete="email" required defaultValue={state.email} />
      <SubmitButton pendingLabel="Redirecting…" className="w-full">
        Continue
      </SubmitButton>
    </form>
  );
}
