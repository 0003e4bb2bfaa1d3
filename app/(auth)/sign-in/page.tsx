import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/auth-card';
import { FormAlert } from '@/components/auth/form-alert';
import { OAuthButtons } from '@/components/auth/oauth-buttons';
import { safeCallbackUrl, termsStep, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { configuredOAuthProviders } from '@/server/auth/next-auth';
import { ssoAvailable } from '@/server/sso/find-sso-for-email';
import { param } from '../require-user';
import { SignInForm } from './sign-in-form';

export const metadata: Metadata = { title: 'Sign in' };

// next-auth's error codes (?error=…) in words a person can act on.
const ERRORS: Record<string, string> = {
  UnverifiedEmail: 'Your account with that provider has no verified email address. Verify one there, or sign in with a password.',
  OAuthAccountNotLinked: 'That email is already used by another sign-in method. Sign in the way you did before.',
  AccessDenied: 'Sign-in was cancelled or refused.',
  OAuthCallbackError: 'The provider did not complete the sign-in. Please try again.',
  Configuration: 'That sign-in method is not available right now.',
  SsoDomain: "Your identity provider signed you in with an email address outside your organization's verified domains.",
  SsoNoSeat: 'Your organization has no free seat. Ask an owner to add seats or remove a member, then sign in again.',
  CredentialsSignin: 'That email and password do not match an account.',
};

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const query = await searchParams;
  const callbackUrl = safeCallbackUrl(param(query.callbackUrl));
  if (await currentUser()) redirect(termsStep(callbackUrl));
  const error = param(query.error);
  const providers = configuredOAuthProviders();
  const ssoHref = (await ssoAvailable()) ? withCallback('/sign-in/sso', callbackUrl) : undefined;

  return (
    <AuthCard
      title="Sign in to Switchboard"
      description="One account for the console, the CLI and your editor."
      footer={
        <>
          New to Switchboard?{' '}
          <Link href={withCallback('/sign-up', callbackUrl)} className="font-medium text-accent-text underline-offset-4 hover:underline">
            Create an account
          </Link>
        </>
      }
    >
      {error ? <FormAlert className="mb-5">{ERRORS[error] ?? 'Something went wrong while signing you in. Please try again.'}</FormAlert> : null}
      {providers.length > 0 || ssoHref ? <OAuthButtons providers={providers} callbackUrl={callbackUrl} ssoHref={ssoHref} /> : null}
      <SignInForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
