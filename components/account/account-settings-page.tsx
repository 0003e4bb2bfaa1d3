'use client';

// The signed-in user's own settings: profile, password, sign-in methods, two-factor authentication, browser
// sessions (with the link to editor and CLI sessions), and deleting the account. Each section calls one tRPC procedure (profile router).
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { signOutAction } from '@/app/(auth)/actions';
import { ConfirmDialog } from '@/components/console/confirm-dialog';
import { errorMessage, readError } from '@/components/console/errors';
import { TextField } from '@/components/console/fields';
import { formatDate } from '@/components/console/format';
import { Notice } from '@/components/console/notice';
import { PageHeader, Section } from '@/components/console/page-header';
import { ErrorState, LoadingBlock } from '@/components/console/states';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';
import { Button } from '@/components/ui/button';
import { BrowserSessionsSection } from './browser-sessions-section';
import { PasswordSection } from './password-section';
import { TwoFactorSection } from './two-factor-section';

const PROVIDER_NAMES: Record<string, string> = { github: 'GitHub', google: 'Google' };

export function AccountSettingsPage() {
  const trpc = useTRPC();
  const methods = useQuery(trpc.profile.signInMethods.queryOptions());
  return (
    <div className="space-y-8">
      <PageHeader title="Account settings" description="Your profile and how you sign in. These settings are yours, whichever account is active." />
      <ProfileSection />
      {methods.isPending ? (
        <LoadingBlock label="Loading sign-in settings" />
      ) : methods.isError ? (
        <ErrorState message={errorMessage(methods.error)} onRetry={() => methods.refetch()} />
      ) : (
        <>
          <PasswordSection hasPassword={methods.data.has_password} />
          <SignInMethodsSection methods={methods.data} />
          <TwoFactorSection status={methods.data.two_factor} hasPassword={methods.data.has_password} />
        </>
      )}
      <BrowserSessionsSection />
      <DeleteAccountSection />
    </div>
  );
}

function ProfileSection() {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const profile = useQuery(trpc.profile.get.queryOptions());
  const [name, setName] = useState<string | null>(null);
  const update = useMutation(
    trpc.profile.update.mutationOptions({
      onSuccess: () => {
        toast('Profile saved');
        void queryClient.invalidateQueries();
      },
    }),
  );
  const error = update.error ? readError(update.error) : null;
  function submit(event: FormEvent) {
    event.preventDefault();
    update.mutate({ name: (name ?? profile.data?.name ?? '').trim() });
  }
  return (
    <Section id="profile" title="Profile">
      {profile.isPending ? (
        <LoadingBlock label="Loading profile" />
      ) : profile.isError ? (
        <ErrorState message={errorMessage(profile.error)} onRetry={() => profile.refetch()} />
      ) : (
        <form onSubmit={submit} noValidate className="max-w-md space-y-4">
          <TextField id="profile-email" label="Email" value={profile.data.email} readOnly disabled />
          <TextField id="profile-name" label="Name" value={name ?? profile.data.name} onChange={(e) => setName(e.target.value)} maxLength={100} error={error?.fields.name ?? (error && !Object.keys(error.fields).length ? error.message : undefined)} />
          <Button type="submit" disabled={update.isPending}>
            {update.isPending ? 'Saving…' : 'Save profile'}
          </Button>
        </form>
      )}
    </Section>
  );
}

function SignInMethodsSection({ methods }: { methods: { has_password: boolean; identities: { id: string; provider: string; created_at: string }[] } }) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  const unlink = useMutation(
    trpc.profile.unlinkSignInMethod.mutationOptions({
      onSuccess: () => {
        toast('Sign-in method unlinked');
        void queryClient.invalidateQueries({ queryKey: trpc.profile.signInMethods.queryKey() });
      },
      onError: (err) => toast(errorMessage(err), 'error'),
    }),
  );
  const total = methods.identities.length + (methods.has_password ? 1 : 0);
  return (
    <Section id="sign-in-methods" title="Sign-in methods" description="The ways you can sign in. You can unlink one while another remains.">
      <ul className="divide-y divide-border text-sm">
        <li className="flex flex-wrap items-center justify-between gap-2 py-2.5">
          <span className="font-medium">Email and password</span>
          <span className="text-muted">{methods.has_password ? 'Set' : 'Not set'}</span>
        </li>
        {methods.identities.map((identity) => {
          const label = PROVIDER_NAMES[identity.provider] ?? identity.provider;
          return (
            <li key={identity.id} className="flex flex-wrap items-center justify-between gap-2 py-2.5">
              <span>
                <span className="font-medium">{label}</span> <span className="text-muted">· linked {formatDate(identity.created_at)}</span>
              </span>
              <Button variant="secondary" size="sm" disabled={total < 2 || unlink.isPending} onClick={() => unlink.mutate({ id: identity.id })} aria-label={`Unlink ${label}`}>
                Unlink
              </Button>
            </li>
          );
        })}
      </ul>
    </Section>
  );
}

function DeleteAccountSection() {
  const trpc = useTRPC();
  const [confirming, setConfirming] = useState(false);
  const remove = useMutation(trpc.profile.deleteAccount.mutationOptions());
  return (
    <Section id="delete-account" title="Delete account" description="Your keys and sessions stop working at once; your personal balance is forfeited. This cannot be undone.">
      <Button onClick={() => setConfirming(true)} className="bg-red-600 text-white hover:bg-red-700 dark:bg-red-600 dark:hover:bg-red-500">
        Delete my account
      </Button>
      <form id="deleted-sign-out" action={signOutAction} hidden>
        <input type="hidden" name="callbackUrl" value="/overview" />
      </form>
      <ConfirmDialog
        open={confirming}
        onClose={() => setConfirming(false)}
        title="Delete your account?"
        confirmLabel="Delete account"
        pendingLabel="Deleting…"
        pending={remove.isPending}
        error={remove.error ? readError(remove.error).message : null}
        onConfirm={async () => {
          try {
            await remove.mutateAsync();
            (document.getElementById('deleted-sign-out') as HTMLFormElement | null)?.requestSubmit();
          } catch {
            // shown in the dialog
          }
        }}
      >
        <p>Every API key, browser session and signed-in editor or CLI of yours is refused from the next request, and you leave your organizations.</p>
        <Notice tone="warning" className="mt-3">
          If you are the only owner of an organization, make someone else an owner first.
        </Notice>
      </ConfirmDialog>
    </Section>
  );
}
