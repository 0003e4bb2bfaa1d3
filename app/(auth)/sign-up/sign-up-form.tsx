'use client';

import { useState, useTransition, type FormEvent } from 'react';
import { TextField } from '@/components/console/fields';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { signInWithPassword } from '../actions';

type FieldName = 'name' | 'email' | 'password';

/**
 * Creates the user through the public REST endpoint (POST /api/v1/auth/sign-up, the same one other
 * clients use), then signs in with the same credentials; the terms step follows.
 */
export function SignUpForm({ callbackUrl, passwordMinLength }: { callbackUrl: string; passwordMinLength: number }) {
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string>();
  const [fieldErrors, setFieldErrors] = useState<Partial<Record<FieldName, string>>>({});

  function onSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const body = { name: String(form.get('name') ?? ''), email: String(form.get('email') ?? ''), password: String(form.get('password') ?? '') };
    setError(undefined);
    setFieldErrors({});
    startTransition(async () => {
      let res: Response;
      try {
        res = await fetch('/api/v1/auth/sign-up', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      } catch {
        setError('Could not reach Switchboard. Check your connection and try again.');
        return;
      }
      if (!res.ok) {
        const payload = (await res.json().catch(() => null)) as { error?: { message?: string; metadata?: { issues?: { path: string; message: string }[] } } } | null;
        const issues = payload?.error?.metadata?.issues ?? [];
        const byField: Partial<Record<FieldName, string>> = {};
        for (const i of issues) if (i.path === 'name' || i.path === 'email' || i.path === 'password') byField[i.path] ??= i.message;
        setFieldErrors(byField);
        if (res.status === 409) setError('An account with this email already exists. Sign in instead.');
        else if (Object.keys(byField).length === 0) setError(payload?.error?.message ?? 'Could not create your account. Please try again.');
        return;
      }
      const credentials = new FormData();
      credentials.set('email', body.email);
      credentials.set('password', body.password);
      credentials.set('callbackUrl', callbackUrl);
      const state = await signInWithPassword({}, credentials); // redirects on success
      if (state?.error) setError(`Your account was created, but signing in failed: ${state.error}`);
    });
  }

  return (
    <form
      onSubmit={onSubmit}
      onInput={(e) => {
        const name = (e.target as HTMLInputElement).name as FieldName;
        if (fieldErrors[name]) setFieldErrors((f) => ({ ...f, [name]: undefined }));
      }}
      className="space-y-5"
      noValidate
    >
      {error ? <FormAlert>{error}</FormAlert> : null}
      <TextField id="name" name="name" label="Name" autoComplete="name" required maxLength={100} error={fieldErrors.name} />
      <TextField id="email" name="email" type="email" label="Email" autoComplete="email" required error={fieldErrors.email} />
      <TextField
        id="password"
        name="password"
        type="password"
        label="Password"
        autoComplete="new-password"
        required
        minLength={passwordMinLength}
        hint={`At least ${passwordMinLength} characters.`}
        error={fieldErrors.password}
      />
      <SubmitButton pending={pending} pendingLabel="Creating your account…" className="w-full">
        Create account
      </SubmitButton>
      <p className="text-xs leading-5 text-muted">You will be asked to accept the terms of service next.</p>
    </form>
  );
}
