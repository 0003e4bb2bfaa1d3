'use client';

import { useActionState, useState } from 'react';
import { TextField } from '@/components/console/fields';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { signInWithPassword, type SignInState } from '../actions';

/**
 * Email and password, then — for an account with two-factor authentication — a second step asking for the
 * code. Email and password are held in state (the form is reset after each submission) and sent again with
 * the code: the server checks all three together, so there is no half-signed-in state to keep.
 */
export function SignInForm({ callbackUrl }: { callbackUrl: string }) {
  const [state, action] = useActionState<SignInState, FormData>(signInWithPassword, {});
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  if (state.needsCode) {
    return (
      <form action={action} className="space-y-5" noValidate>
        <input type="hidden" name="callbackUrl" value={callbackUrl} />
        <input type="hidden" name="email" value={email} />
        <input type="hidden" name="password" value={password} />
        <h2 className="text-base font-semibold">Two-factor authentication</h2>
        {state.error ? <FormAlert>{state.error}</FormAlert> : null}
        <TextField
          id="code"
          name="code"
          label="Authentication code"
          hint="The 6-digit code from your authenticator app, or one of your recovery codes."
          autoComplete="one-time-code"
          inputMode="text"
          autoFocus
          required
        />
        <SubmitButton pendingLabel="Verifying…" className="w-full">
          Verify and sign in
        </SubmitButton>
      </form>
    );
  }
  return (
    <form action={action} className="space-y-5" noValidate>
      <input type="hidden" name="callbackUrl" value={callbackUrl} />
      {state.error ? <FormAlert>{state.error}</FormAlert> : null}
      <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required value={email} onChange={(e) => setEmail(e.target.value)} />
      <TextField id="password" name="password" type="password" label="Password" autoComplete="current-password" required value={password} onChange={(e) => setPassword(e.target.value)} />
      <SubmitButton pendingLabel="Signing in…" className="w-full">
        Sign in
      </SubmitButton>
    </form>
  );
}
