import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/auth-card';
import { FormAlert } from '@/components/auth/form-alert';
import { SubmitButton } from '@/components/auth/submit-button';
import { buttonClasses } from '@/components/ui/button';
import { safeCallbackUrl, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { CURRENT_TERMS_VERSION, TERMS_SUMMARY } from '@/server/users/terms';
import { signOutAction } from '../actions';
import { param } from '../require-user';
import { acceptTermsAction } from './actions';

export const metadata: Metadata = { title: 'Terms of service' };

/**
 * The terms step after signing in or up: accept the current version to continue to `callbackUrl`.
 * Already accepted → straight on. Signed out → the terms, readable, with a way to sign in.
 */
export default async function TermsPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const rawCallback = param(query.callbackUrl);
  const callbackUrl = safeCallbackUrl(rawCallback);
  const user = await currentUser();
  if (user?.acceptedTerms && rawCallback !== undefined) redirect(callbackUrl);

  return (
    <AuthCard title="Terms of service" description={<>Version {CURRENT_TERMS_VERSION}. The short version:</>}>
      <ol className="list-decimal space-y-3 pl-5 text-sm leading-6 text-foreground marker:text-muted">
        {TERMS_SUMMARY.map((item) => (
          <li key={item}>{item}</li>
        ))}
      </ol>
      {!user ? (
        <div className="mt-6">
          <Link href={withCallback('/sign-in', withCallback('/terms', callbackUrl))} className={buttonClasses({ variant: 'secondary' })}>
            Sign in to accept
          </Link>
        </div>
      ) : user.acceptedTerms ? (
        <FormAlert tone="success" className="mt-6">
          You have accepted these terms.{' '}
          <Link href={callbackUrl} className="font-medium underline underline-offset-4">
            Continue
          </Link>
        </FormAlert>
      ) : (
        <div className="mt-6 space-y-3">
          <p className="text-sm text-muted">
            Signed in as <span className="font-medium text-foreground">{user.email}</span>.
          </p>
          <div className="flex flex-wrap gap-3">
            <form action={acceptTermsAction}>
              <input type="hidden" name="version" value={CURRENT_TERMS_VERSION} />
              <input type="hidden" name="callbackUrl" value={callbackUrl} />
              <SubmitButton pendingLabel="Saving…">Accept and continue</SubmitButton>
            </form>
            <form action={signOutAction}>
              <SubmitButton variant="ghost" pendingLabel="Signing out…">
                Decline and sign out
              </SubmitButton>
            </form>
          </div>
        </div>
      )}
    </AuthCard>
  );
}
