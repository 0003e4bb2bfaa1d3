// Test support: a Google-like OpenID Connect issuer (the `oidc-provider` package, a certified OpenID Provider)
// for AUTH_GOOGLE_ISSUER. One registered client, one account; the login and consent steps complete by
// themselves, as for a user already signed in to Google who has approved the app before. Everything else —
// discovery, PKCE and state, the client secret, redirect_uri checks, single-use codes, signed ID tokens — is
// the provider's own.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface FakeGoogleAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
}

export interface FakeGoogle {
  issuer: string;
  clientId: string;
  clientSecret: string;
  account: FakeGoogleAccount;
  close(): Promise<void>;
}

export async function startFakeGoogle(p: { callbackUrl: string; account: FakeGoogleAccount }): Promise<FakeGoogle> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake = { issuer, clientId: 'switchboard-test.apps.googleusercontent.com', clientSecret: `GOCSPX-${Math.random().toString(36).slice(2)}`, account: p.account };

  const provider = new Provider(issuer, {
    clients: [{ client_id: fake.clientId, client_secret: fake.clientSecret, redirect_uris: [p.callbackUrl], grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    // Like Google: the scopes' claims (email, email_verified, name) are in the ID token itself.
    conformIdTokenClaims: false,
    cookies: { keys: ['fake-google-cookie-key'] },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      if (sub !== fake.account.sub) return undefined;
      return { accountId: sub, claims: async () => ({ ...fake.account }) };
    },
  });

  // The login and consent pages: the user is signed in and approves.
  async function interaction(req: http.IncomingMessage, res: http.ServerResponse) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      return provider.interactionFinished(req, res, { login: { accountId: fake.account.sub } }, { mergeWithLastSubmission: false });
    }
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url?.startsWith('/interaction/')) {
      interaction(req, res).catch((err: Error) => res.writeHead(500).end(err.message));
      return;
    }
    callback(req, res);
  });

  return Object.assign(fake, {
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  });
}
