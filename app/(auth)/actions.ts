'use server';

import { AuthError, CredentialsSignin } from 'next-auth';
import { redirect } from 'next/navigation';
import { safeCallbackUrl, termsStep, withCallback } from '@/server/auth/callback-url';
import { configuredOAuthProviders, signIn, signInWithOrganizationSso, signOut } from '@/server/auth/next-auth';
import { findSsoForEmail } from '@/server/sso/find-sso-for-email';

export interface SignInState {
  error?: string;
  email?: string;
  /** The password was right and two-factor authentication is on: the form asks for a code. */
  needsCode?: boolean;
}

/**
 * Email + password through next-auth's Credentials provider. On success the browser goes through the
 * terms step, which passes straight on to the callback when the current terms are already accepted.
 */
export async function signInWithPassword(_prev: SignInState, form: FormData): Promise<SignInState> {
  const email = String(form.get('email') ?? '').trim();
  const password = String(form.get('password') ?? '');
  const code = String(form.get('code') ?? '').trim();
  const callbackUrl = safeCallbackUrl(form.get('callbackUrl'));
  if (!email || !password) return { error: 'Enter your email and password.', email };
  if (form.has('code') && !code) return { email, needsCode: true, error: 'Enter the code from your authenticator app, or a recovery code.' };
  try {
    await signIn('credentials', { email, password, ...(code ? { code } : {}), redirect: false });
  } catch (err) {
    if (err instanceof CredentialsSignin) {
      if (err.code === 'two_factor_required') return { email, needsCode: true };
      if (err.code === 'invalid_code') return { email, needsCode: true, error: 'That code is not right, or it was already used. Enter the current code or an unused recovery code.' };
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

export interface SsoSignInState {
  error?: string;
  email?: string;
}

/**
 * The SSO step: the email's domain picks the organization's issuer (or the instance-wide one), and the
 * browser goes there with the email as login_hint, then back through the terms step.
 */
export async function signInWithSso(_prev: SsoSignInState, form: FormData): Promise<SsoSignInState> {
  const email = String(form.get('email') ?? '').trim();
  const redirectTo = termsStep(safeCallbackUrl(form.get('callbackUrl')));
  if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return { email, error: 'Enter your work email address.' };
  const route = await findSsoForEmail(email);
  if (!route) return { email, error: `Single sign-on is not set up for ${email.slice(email.lastIndexOf('@') + 1)}. Sign in with your password or another provider.` };
  if (route.kind === 'organization') await signInWithOrganizationSso(route.organizationId, { redirectTo, loginHint: email });
  else await signIn(route.providerId, { redirectTo }, { login_hint: email });
  return { email };
}

export async function signOutAction(form: FormData): Promise<void> {
  await signOut({ redirectTo: withCallback('/sign-in', safeCallbackUrl(form.get('callbackUrl'))) });
}
