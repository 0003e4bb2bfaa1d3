'use server';

import { AuthError, CredentialsSignin } from 'next-auth';
import { redirect } from 'next/navigation';
import { safeCallbackUrl, termsStep, withCallback } from '@/server/auth/callback-url';
import { configuredOAuthProviders, signIn, signOut } from '@/server/auth/next-auth';

export interface SignInState {
  error?: string;
  email?: string;
}

/**
 * Email + password through next-auth's Credentials provider. On success the browser goes through the
 * terms step, which passes straight on to the callback when the current terms are already accepted.
 */
export async function signInWithPassword(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const callbackUrl = safeCallbackUrl(form.get('callbackUrl'));
  if (!email || !password) return { error: 'Enter your email and password.', email };
  try {
    await signIn('credentials', { email, password, redirect: false });
  } catch (err) {
    if (err instanceof CredentialsSignin) {
      return {
        email,
        error: err.code === 'rate_limited' ? 'Too many sign-in attempts. Wait a minute and try again.' : 'That email and password do not match an account.',
      };
    }
    if (err instanceof AuthError) return { email, error: 'We could not sign you in. Please try again.' };
    throw err;
  }
  redirect(termsStep(callbackUrl));
}

/** GitHub / Google: next-auth redirects to the provider and back to the terms step. */
export async function signInWithProvider(form: FormData): Promise<void> {
  const provider = String(form.get('provider') ?? '');
  if (!configuredOAuthProviders().some((p) => p.id === provider)) redirect('/sign-in?error=Configuration');
  await signIn(provider, { redirectTo: termsStep(safeCallbackUrl(form.get('callbackUrl'))) });
}

export async function signOutAction(form: FormData): Promise<void> {
  await signOut({ redirectTo: withCallback('/sign-in', safeCallbackUrl(form.get('callbackUrl'))) });
}
