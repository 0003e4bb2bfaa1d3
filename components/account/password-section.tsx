'use client';

// Change the password (the current one is required), or set a first one after signing up with GitHub/Google.
// Editors and CLIs signed in as the user (their tokens revoked) and every other browser session are signed out
// by the service; this browser stays signed in.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

export function PasswordSection({ hasPassword }: { hasPassword: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const [current, setCurrent] = useState('');
  const [next, setNext] = useState('');
  const [confirm, setConfirm] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const change = useMutation(trpc.profile.changePassword.mutationOptions());
  const failure = change.error ? readError(change.error) : null;

  async function submit(event: FormEvent) {
    event.preventDefault();
    const local: Record<string, string> = {};
    if (hasPassword && !current) local.current_password = 'Enter your current password';
    if (next !== confirm) local.confirm = 'The two new passwords differ';
    setErrors(local);
    if (Object.keys(local).length) return;
    try {
      const result = await change.mutateAsync({ ...(hasPassword ? { current_password: current } : {}), new_password: next });
      setCurrent('');
      setNext('');
      setConfirm('');
      toast(`Password changed.${signedOutMessage(result.revoked_browser_sessions, result.revoked_auth_tokens)}`);
      void queryClient.invalidateQueries({ queryKey: trpc.profile.signInMethods.queryKey() });
      void queryClient.invalidateQueries({ queryKey: trpc.profile.browserSessions.queryKey() });
    } catch (err) {
      const e = readError(err);
      const field = typeof e.metadata.field === 'string' ? e.metadata.field : null;
      setErrors(field ? { [field]: e.message } : e.fields);
    }
  }

  return (
    <Section id="password" title={hasPassword ? 'Change password' : 'Set a password'} description={hasPassword ? 'When it changes, your other browser sessions and the editors and CLIs signed in as you are signed out.' : 'Sign in with your email as well as with your linked providers. Your other browser sessions are signed out.'}>
      <form onSubmit={submit} noValidate className="max-w-md space-y-4">
        {hasPassword ? (
          <TextField id="current-password" label="Current password" type="password" autoComplete="current-password" value={current} onChange={(e) => setCurrent(e.target.value)} error={errors.current_password} />
        ) : null}
        <TextField id="new-password" label="New password" type="password" autoComplete="new-password" hint="At least 8 characters." value={next} onChange={(e) => setNext(e.target.value)} error={errors.new_password} />
        <TextField id="confirm-password" label="Repeat the new password" type="password" autoComplete="new-password" value={confirm} onChange={(e) => setConfirm(e.target.value)} error={errors.confirm} />
        {failure && !failure.metadata.field && !Object.keys(failure.fields).length ? <Notice tone="error">{failure.message}</Notice> : null}
        <Button type="submit" disabled={change.isPending}>
          {change.isPending ? 'Saving…' : hasPassword ? 'Change password' : 'Set password'}
        </Button>
      </form>
    </Section>
  );
}

/** " 2 other browser sessions and 1 editor/CLI session signed out." (empty when none were). */
function signedOutMessage(browsers: number, tokens: number): string {
  const parts = [
    ...(browsers > 0 ? [`${browsers} other browser session${browsers === 1 ? '' : 's'}`] : []),
    ...(tokens > 0 ? [`${tokens} editor/CLI session${tokens === 1 ? '' : 's'}`] : []),
  ];
  return parts.length ? ` ${parts.join(' and ')} signed out.` : '';
}
