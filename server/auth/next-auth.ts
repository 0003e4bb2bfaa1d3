// next-auth (v5) for the browser: email + password (Credentials), and GitHub / Google when their client
// ids are configured. Sessions are JWTs in an encrypted cookie (Credentials works only with JWT sessions)
// that carry our user id as `uid` and the browser session opened at sign-in as `sid`
// (server/auth/browser-sessions/); every request re-reads both from the database (current-user.ts,
// console/session-principal.ts), so a deleted or suspended user's cookie, or one signed out from Account
// settings, stops working at once. Signing out revokes the cookie's own session.
// The config is built lazily for each request: nothing reads the environment or the secret file at build
// time, and a request to an organization's single sign-on (/api/auth/{signin,callback}/sso-<id>) gets that
// organization's issuer as a provider (server/sso/sso-providers.ts).
import NextAuth, { CredentialsSignin, type NextAuthConfig, type Session } from 'next-auth';
import { headers as requestHeaders } from 'next/headers';
import Credentials from 'next-auth/providers/credentials';
import GitHub from 'next-auth/providers/github';
import Google from 'next-auth/providers/google';
import { authSecret, env, exposeAuthUrl } from '@/server/env';
import { db } from '@/server/db';
import { AppError, isAppError } from '@/server/errors';
import { completeOrganizationSsoSignIn, SsoSignInRefused } from '@/server/sso/complete-sso-sign-in';
import { organizationProviderId } from '@/server/sso/sso-dto';
import { INSTANCE_PROVIDER_ID, instanceOidcProvider, oidcIdentityProvider, organizationIdInAuthPath, organizationSsoProvider } from '@/server/sso/sso-providers';
import { clientOf } from '@/server/audit/audit-actors';
import { BROWSER_SESSION_MAX_AGE_S, type BrowserClient } from './browser-sessions/browser-session-policy';
import { createBrowserSession } from './browser-sessions/create-browser-session';
import { endSignedOutBrowserSession } from './browser-sessions/revoke-browser-sessions';
import { linkOAuthUser } from './link-oauth-user';
import { clientIp } from './sign-in-throttle';
import { verifyCredentials } from './verify-credentials';

declare module 'next-auth' {
  interface Session {
    /** The browser session (BrowserSession row) of this cookie; absent on cookies from before session tracking. */
    sid?: string;
  }
}

/** The Credentials error code the sign-in form turns into "too many attempts". */
export class ThrottledSignIn extends CredentialsSignin {
  code = 'rate_limited';
}

/** Right password, two-factor on, no code sent: the form asks for the code (verify-credentials.ts). */
export class TwoFactorRequired extends CredentialsSignin {
  code = 'two_factor_required';
}

/** Right password, wrong (or already used) second-factor code. */
export class InvalidTwoFactorCode extends CredentialsSignin {
  code = 'invalid_code';
}

export type OAuthProviderId = 'github' | 'google';

/** OAuth providers with both an id and a secret configured, in display order. */
export function configuredOAuthProviders(): { id: OAuthProviderId; name: string }[] {
  const e = env();
  const out: { id: OAuthProviderId; name: string }[] = [];
  if (e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) out.push({ id: 'github', name: 'GitHub' });
  if (e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET) out.push({ id: 'google', name: 'Google' });
  return out;
}

/** GitHub's REST API: api.github.com, or <AUTH_GITHUB_URL>/api/v3 (GitHub Enterprise Server's layout). */
function githubApiUrl(): string {
  const base = env().AUTH_GITHUB_URL?.replace(/\/+$/, '');
  return base ? `${base}/api/v3` : 'https://api.github.com';
}

/** GitHub reports the primary email without saying whether it is verified; its emails API does. */
async function githubEmailVerified(accessToken: string | undefined, email: string): Promise<boolean> {
  if (!accessToken) return false;
  const res = await fetch(`${githubApiUrl()}/user/emails`, {
    headers: { authorization: `Bearer ${accessToken}`, accept: 'application/vnd.github+json', 'user-agent': 'switchboard' },
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) return false;
  const emails = (await res.json()) as { email: string; verified: boolean }[];
  return emails.some((e) => e.verified && e.email.toLowerCase() === email.toLowerCase());
}

/**
 * PUBLIC_URL's origin when it is a loopback address (local runs, the e2e server). Next's request objects spell
 * 127.0.0.1 and [::1] as localhost, so next-auth's route handlers would build localhost URLs while its server
 * actions (signIn() from a form) build PUBLIC_URL ones: the redirect_uri of the authorization request and of
 * the token request would differ (the issuer refuses the code: invalid_grant), and the browser would be sent
 * to a host that does not hold its cookies. buildConfig pins both to PUBLIC_URL: next-auth's redirect proxy
 * URL is the redirect_uri whatever host a request appears to come from, and redirects go to PUBLIC_URL.
 */
function loopbackPublicOrigin(): string | null {
  const publicUrl = env().PUBLIC_URL;
  if (!publicUrl) return null;
  const url = new URL(publicUrl);
  return url.hostname === '127.0.0.1' || url.hostname === '[::1]' ? url.origin : null;
}

/**
 * The signing-in browser, for its session row: route handlers (OAuth and SSO callbacks) hand next-auth's lazy
 * config their request; server actions (password sign-in) do not, and Next's request headers are read instead.
 */
async function signInClient(request: Request | undefined): Promise<BrowserClient> {
  if (request) return clientOf(request.headers);
  try {
    return clientOf(await requestHeaders());
  } catch {
    return {}; // outside a request (scripts, tests calling the config directly)
  }
}

async function buildConfig(p: { organizationId?: string | null; request?: Request } = {}): Promise<NextAuthConfig> {
  const e = env();
  const providers: NextAuthConfig['providers'] = [
    Credentials({
      credentials: { email: { label: 'Email', type: 'email' }, password: { label: 'Password', type: 'password' }, code: { label: 'Two-factor code', type: 'text' } },
      async authorize(credentials, request) {
        try {
          return await verifyCredentials({ email: credentials?.email, password: credentials?.password, code: credentials?.code, ip: clientIp(request.headers) });
        } catch (err) {
          if (isAppError(err) && err.code === 'rate_limited') throw new ThrottledSignIn();
          if (isAppError(err) && err.metadata.reason === 'two_factor_required') throw new TwoFactorRequired();
          if (isAppError(err) && err.metadata.reason === 'invalid_code') throw new InvalidTwoFactorCode();
          throw err;
        }
      },
    }),
  ];
  if (e.AUTH_GITHUB_ID && e.AUTH_GITHUB_SECRET) {
    const enterprise = e.AUTH_GITHUB_URL ? { baseUrl: e.AUTH_GITHUB_URL.replace(/\/+$/, '') } : undefined;
    providers.push(GitHub({ clientId: e.AUTH_GITHUB_ID, clientSecret: e.AUTH_GITHUB_SECRET, enterprise }));
  }
  if (e.AUTH_GOOGLE_ID && e.AUTH_GOOGLE_SECRET) providers.push(Google({ clientId: e.AUTH_GOOGLE_ID, clientSecret: e.AUTH_GOOGLE_SECRET, issuer: e.AUTH_GOOGLE_ISSUER }));
  const instanceOidc = instanceOidcProvider();
  if (instanceOidc) providers.push(instanceOidc);
  const organizationSso = p.organizationId ? await organizationSsoProvider(p.organizationId) : null;
  if (organizationSso) providers.push(organizationSso.provider);
  exposeAuthUrl();
  const loopback = loopbackPublicOrigin();

  return {
    secret: authSecret(),
    trustHost: true,
    session: { strategy: 'jwt', maxAge: BROWSER_SESSION_MAX_AGE_S },
    pages: { signIn: '/sign-in', error: '/sign-in' },
    providers,
    redirectProxyUrl: loopback ? `${loopback}/api/auth` : undefined,
    callbacks: {
      // next-auth's default, on PUBLIC_URL's origin when it is a loopback address (see loopbackPublicOrigin).
      redirect({ url, baseUrl }) {
        const base = loopback ?? baseUrl;
        if (url.startsWith('/')) return `${base}${url}`;
        const target = new URL(url);
        return target.origin === base || target.origin === baseUrl ? `${base}${target.pathname}${target.search}${target.hash}` : base;
      },
      // OAuth: link or create our user by verified email, and carry our id from here on.
      async signIn({ user, account, profile }) {
        if (!account || account.type === 'credentials') return true;
        if (organizationSso && account.provider === organizationSso.provider.id) {
          try {
            const signedIn = await completeOrganizationSsoSignIn({ organizationId: organizationSso.organizationId, issuer: organizationSso.issuer, profile: { ...profile, sub: account.providerAccountId } });
            user.id = signedIn.userId;
            return (await userSuspended(user.id)) ? '/sign-in?error=AccessDenied' : true;
          } catch (err) {
            if (err instanceof SsoSignInRefused) return `/sign-in?error=${err.reason}`;
            if (isAppError(err) && err.code === 'forbidden') return '/sign-in?error=UnverifiedEmail';
            throw err;
          }
        }
        const email = (profile?.email as string | undefined) ?? user.email ?? null;
        const verified =
          account.provider === 'google' || account.provider === INSTANCE_PROVIDER_ID
            ? profile?.email_verified === true
            : account.provider === 'github' && email
              ? await githubEmailVerified(account.access_token, email)
              : false;
        try {
          const linked = await linkOAuthUser({
            provider: account.provider === INSTANCE_PROVIDER_ID && e.OIDC_ISSUER ? oidcIdentityProvider(e.OIDC_ISSUER) : account.provider,
            providerAccountId: account.providerAccountId,
            email,
            emailVerified: verified,
            name: user.name,
            image: user.image,
          });
          user.id = linked.userId;
          return (await userSuspended(user.id)) ? '/sign-in?error=AccessDenied' : true;
        } catch (err) {
          if (isAppError(err) && err.code === 'forbidden') return '/sign-in?error=UnverifiedEmail';
          throw err;
        }
      },
      // `user` is there only when signing in (any provider): a new browser session, its id in the cookie.
      async jwt({ token, user }) {
        if (user?.id) {
          token.uid = user.id;
          token.sid = (await createBrowserSession({ userId: user.id, client: await signInClient(p.request) })).id;
        }
        return token;
      },
      session({ session, token }) {
        if (typeof token.uid === 'string') session.user.id = token.uid;
        if (typeof token.sid === 'string') session.sid = token.sid;
        return session;
      },
    },
    events: {
      // Signing out ends this cookie's session for good: a copy of the cookie kept elsewhere no longer works.
      async signOut(message) {
        const token = 'token' in message ? message.token : null;
        if (typeof token?.uid === 'string' && typeof token.sid === 'string') await endSignedOutBrowserSession({ userId: token.uid, browserSessionId: token.sid });
      },
    },
    logger: {
      // A wrong password is not a server error; everything else is.
      error(error) {
        if (error instanceof CredentialsSignin || (error as { type?: string }).type === 'CredentialsSignin') return;
        console.error('[auth]', error);
      },
    },
  };
}

/** Suspended by an operator (admin API): OAuth and SSO sign-in are refused as password sign-in is. */
async function userSuspended(userId: string): Promise<boolean> {
  const u = await (await db()).user.findUnique({ where: { id: userId }, select: { suspendedAt: true } });
  return Boolean(u?.suspendedAt);
}

export const { handlers, auth, signIn, signOut } = NextAuth((request) =>
  buildConfig({ organizationId: request ? organizationIdInAuthPath(new URL(request.url).pathname) : null, request }),
);

/**
 * The session of a route handler's own request (tRPC, the playground), read from that request's cookies
 * rather than from Next's request scope, so the handler works wherever it is given a request (tests serve
 * route handlers on plain node:http). next-auth's "API route" form; a refreshed cookie it may produce is
 * dropped, as auth() drops it in server components.
 */
export async function authOfRequest(request: Request): Promise<Session | null> {
  const context = { req: request, res: { headers: new Headers() } };
  return (auth as unknown as (context: { req: Request; res: { headers: Headers } }) => Promise<Session | null>)(context);
}

/**
 * Sends the browser to an organization's issuer (the sign-in page's SSO step), with the email typed there as
 * `login_hint`. next-auth's own signIn() builds its configuration without a request, so this one is given the
 * organization's; the callback comes back to the route handler above, which builds the same provider.
 */
export async function signInWithOrganizationSso(organizationId: string, p: { redirectTo: string; loginHint?: string }): Promise<void> {
  const config = await buildConfig({ organizationId });
  const providerId = organizationProviderId(organizationId);
  if (!config.providers.some((provider) => typeof provider !== 'function' && provider.id === providerId)) {
    throw new AppError('not_found', 'Single sign-on is not set up for this organization');
  }
  await NextAuth(config).signIn(providerId, { redirectTo: p.redirectTo }, p.loginHint ? { login_hint: p.loginHint } : undefined);
}
