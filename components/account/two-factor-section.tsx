'use client';

// Two-factor authentication: set up (QR code + secret → confirm with a code → recovery codes shown once),
// and turn off (needs a current code or a recovery code). Either change signs out the user's other browser
// sessions (the server does it; the page says so and refreshes the Sessions list).
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { CopyField } from '@/components/console/copy-field';
import { readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDate } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { Section } from '@/components/console/page-header';
import { StatusBadge } from '@/components/console/status-badge';
import { useToast } from '@/components/console/toast';
import { useTRPC, type RouterOutputs } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';

type Status = RouterOutputs['profile']['signInMethods']['two_factor'];
type Setup = RouterOutputs['profile']['startTwoFactor'];

export function TwoFactorSection({ status, hasPassword }: { status: Status; hasPassword: boolean }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([queryClient.invalidateQueries({ queryKey: trpc.profile.signInMethods.queryKey() }), queryClient.invalidateQueries({ queryKey: trpc.profile.browserSessions.queryKey() })]);
  const [setup, setSetup] = useState<Setup | null>(null);
  const [recoveryCodes, setRecoveryCodes] = useState<string[] | null>(null);
  const start = useMutation(trpc.profile.startTwoFactor.mutationOptions({ onSuccess: setSetup }));

  return (
    <Section
      id="two-factor"
      title="Two-factor authentication"
      description="Password sign-in also asks for a code from an authenticator app (or a recovery code). Turning it on or off signs out your other browser sessions."
      actions={status.enabled ? <StatusBadge tone="success">On since {formatDate(status.enabled_at ?? '')}</StatusBadge> : <StatusBadge>Off</StatusBadge>}
    >
      {recoveryCodes ? (
        <RecoveryCodes codes={recoveryCodes} onDone={() => setRecoveryCodes(null)} />
      ) : status.enabled ? (
        <DisableTwoFactor recoveryCodesLeft={status.recovery_codes_left} onDisabled={refresh} />
      ) : setup ? (
        <ConfirmSetup
          setup={setup}
          onCancel={() => setSetup(null)}
          onConfirmed={(codes) => {
            setSetup(null);
            setRecoveryCodes(codes);
            void refresh();
          }}
        />
      ) : (
        <div className="space-y-3">
          {!hasPassword ? <p className="text-sm text-muted">It applies to password sign-in: set a password first. GitHub and Google have their own two-factor settings.</p> : null}
          {start.error ? <Notice tone="error">{readError(start.error).message}</Notice> : null}
          <Button onClick={() => start.mutate()} disabled={start.isPending || !hasPassword}>
            {start.isPending ? 'Preparing…' : 'Set up two-factor authentication'}
          </Button>
        </div>
      )}
    </Section>
  );
}

function ConfirmSetup({ setup, onCancel, onConfirmed }: { setup: Setup; onCancel: () => void; onConfirmed: (codes: string[]) => void }) {
  const trpc = useTRPC();
  const [code, setCode] = useState('');
  const confirm = useMutation(trpc.profile.confirmTwoFactor.mutationOptions());
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      onConfirmed((await confirm.mutateAsync({ code })).recovery_codes);
    } catch {
      // shown on the field
    }
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-5">
      <h3 ref={heading} tabIndex={-1} className="text-sm font-semibold">
        1. Scan this QR code with your authenticator app
      </h3>
      <div className="flex flex-col gap-4 sm:flex-row sm:items-start">
        {/* eslint-disable-next-line @next/next/no-img-element -- a data URL made by the server */}
        <img src={setup.qr_data_url} alt="QR code of your two-factor secret" width={180} height={180} className="rounded-lg border border-border bg-white p-1" />
        <div className="min-w-0 flex-1 space-y-2">
          <p className="text-sm text-muted">Cannot scan? Type this key into the app (time-based, 6 digits):</p>
          <CopyField value={setup.secret} label="Two-factor secret" />
        </div>
      </div>
      <TextField
        id="two-factor-code"
        label="2. Enter the 6-digit code the app shows"
        inputMode="numeric"
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={confirm.error ? readError(confirm.error).message : undefined}
        className="max-w-xs"
      />
      <div className="flex flex-wrap gap-3">
        <Button type="submit" disabled={confirm.isPending}>
          {confirm.isPending ? 'Checking…' : 'Turn on'}
        </Button>
        <Button variant="secondary" onClick={onCancel}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function RecoveryCodes({ codes, onDone }: { codes: string[]; onDone: () => void }) {
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), []);
  return (
    <div className="space-y-4">
      <h3 ref={heading} tabIndex={-1} className="text-sm font-semibold">
        Two-factor authentication is on. Save your recovery codes
      </h3>
      <Notice tone="warning">Each code signs you in once if you lose your authenticator app. They are shown only now.</Notice>
      <p className="text-sm text-muted">Your other browser sessions were signed out; this one stays signed in.</p>
      <ul aria-label="Recovery codes" className="grid grid-cols-2 gap-2 rounded-lg border border-border bg-surface p-3 font-mono text-sm sm:grid-cols-5">
        {codes.map((c) => (
          <li key={c}>{c}</li>
        ))}
      </ul>
      <CopyField value={codes.join(' ')} label="All recovery codes" />
      <Button onClick={onDone}>I&apos;ve saved my recovery codes</Button>
    </div>
  );
}

function DisableTwoFactor({ recoveryCodesLeft, onDisabled }: { recoveryCodesLeft: number; onDisabled: () => void }) {
  const trpc = useTRPC();
  const toast = useToast();
  const [code, setCode] = useState('');
  const disable = useMutation(trpc.profile.disableTwoFactor.mutationOptions());
  async function submit(event: FormEvent) {
    event.preventDefault();
    try {
      const { revoked_browser_sessions: revoked } = await disable.mutateAsync({ code });
      toast(revoked > 0 ? `Two-factor authentication turned off. ${revoked} other browser session${revoked === 1 ? '' : 's'} signed out.` : 'Two-factor authentication turned off');
      onDisabled();
    } catch {
      // shown on the field
    }
  }
  return (
    <form onSubmit={submit} noValidate className="space-y-4">
      <p className="text-sm text-muted">{recoveryCodesLeft} of 10 recovery codes left.</p>
      <TextField
        id="disable-two-factor-code"
        label="Code to turn it off"
        hint="A current code from your app, or a recovery code."
        autoComplete="one-time-code"
        value={code}
        onChange={(e) => setCode(e.target.value)}
        error={disable.error ? readError(disable.error).message : undefined}
        className="max-w-xs"
      />
      <Button variant="secondary" type="submit" disabled={disable.isPending}>
        {disable.isPending ? 'Checking…' : 'Turn off two-factor authentication'}
      </Button>
    </form>
  );
}
