import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/auth-card';
import { OAuthButtons } from '@/components/auth/oauth-buttons';
import { safeCallbackUrl, termsStep, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { configuredOAuthProviders } from '@/server/auth/next-auth';
import { PASSWORD_MIN_LENGTH } from '@/server/auth/password';
import { param } from '../require-user';
import { SignUpForm } from './sign-up-form';

export const metadata: Metadata = { title: 'Create an account' };

export default async function SignUpPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safeCallbackUrl(param((await searchParams).callbackUrl));
  if (await currentUser()) redirect(termsStep(callbackUrl));
  const providers = configuredOAuthProviders();

  return (
    <AuthCard
      title="Create your Switchboard account"
      description="Prepaid credit, one API key, every model provider."
      footer={
        <>
          Already have an account?{' '}
          <Link href={withCallback('/sign-in', callbackUrl)} className="font-medium text-accent-text underline-offset-4 hover:underline">
            Sign in
          </Link>
        </>
      }
    >
      {providers.length > 0 ? <OAuthButtons providers={providers} callbackUrl={callbackUrl} /> : null}
      <SignUpForm callbackUrl={callbackUrl} passwordMinLength={PASSWORD_MIN_LENGTH} />
    </AuthCard>
  );
}
