'use client';

import { useActionState } from 'react';
import { TextField } from '@/components/console/fields';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { signInWithPassword, type SignInState } from '../actions';

export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action] = useActionState<SignInState, FormData>(signInWithPassword, {});
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {state.error ? <FormAlert>{state.error}</FormAlert> : null}
      <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required defaultValue={state.email} />
      <TextField id="password" name="password" type="password" label="Password" autoComplete="current-password" required />
      <SubmitButton pendingLabel="Signing in…" className="w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
