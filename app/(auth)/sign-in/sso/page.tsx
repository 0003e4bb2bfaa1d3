import type { Metadata } from 'next';
import Link from 'next/link';
import { redirect } from 'next/navigation';
import { AuthCard } from '@/components/auth/auth-card';
import { safeCallbackUrl, termsStep, withCallback } from '@/server/auth/callback-url';
import { currentUser } from '@/server/auth/current-user';
import { param } from '../../require-user';
import { SsoForm } from './sso-form';

export const metadata: Metadata = { title: 'Sign in with SSO' };

export default async function SsoSignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const callbackUrl = safeCallbackUrl(param((await searchParams).callbackUrl));
  if (await currentUser()) redirect(termsStep(callbackUrl));
  return (
    <AuthCard
      title="Sign in with SSO"
      description="Type your work email: we send you to your organization's identity provider."
      footer={
        <Link href={withCallback('/sign-in', callbackUrl)} className="font-medium text-accent-text underline-offset-4 hover:underline">
          Other ways to sign in
        </Link>
      }
    >
      <SsoForm callbackUrl={callbackUrl} />
    </AuthCard>
  );
}
