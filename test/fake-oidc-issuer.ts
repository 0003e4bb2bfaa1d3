// Test support: an enterprise-like OpenID Connect issuer (the `oidc-provider` package, a certified OpenID
// Provider) for single sign-on: instance-wide (OIDC_ISSUER) and organizations' own issuers. One registered
// client; accounts with passwords; a real login page (a form at /interaction/<uid>) that a browser fills in;
// consent is granted by the organization's administrator, so it completes by itself. Discovery, PKCE, state,
// nonce, the client secret, redirect_uri checks, single-use codes, signed ID tokens and the `iss`
// authorization response parameter are the provider's own. Claims follow the spec strictly: the ID token
// holds `sub`, the email and name come from the userinfo endpoint.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

export interface FakeOidcAccount {
  sub: string;
  email: string;
  email_verified: boolean;
  name: string;
  password: string;
}

export interface FakeOidcIssuer {
  issuer: string;
  clientId: string;
  clientSecret: string;
  accounts: FakeOidcAccount[];
  /** Emails that signed in on the login page, in order. */
  logins: string[];
  close(): Promise<void>;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

function loginPage(uid: string, error?: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Acme Identity</title></head><body>
<h1>Sign in to Acme Identity</h1>
${error ? `<p role="alert">${escapeHtml(error)}</p>` : ''}
<form method="post" action="/interaction/${escapeHtml(uid)}/login">
<label>Username <input name="email" type="email" autocomplete="username" required></label>
<label>Passphrase <input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Log in</button>
</form></body></html>`;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
}

export async function startFakeOidcIssuer(p: { redirectUris: string[]; accounts: FakeOidcAccount[]; clientId?: string }): Promise<FakeOidcIssuer> {
  const server = http.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const fake = {
    issuer,
    clientId: p.clientId ?? `switchboard-${Math.random().toString(36).slice(2, 8)}`,
    clientSecret: `cs-${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`,
    accounts: p.accounts,
    logins: [] as string[],
  };

  const provider = new Provider(issuer, {
    clients: [{ client_id: fake.clientId, client_secret: fake.clientSecret, redirect_uris: p.redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
    cookies: { keys: [`fake-oidc-cookie-key-${fake.clientSecret}`] },
    // Explicit lifetimes (seconds), which also keeps the provider from printing a notice per default it uses.
    ttl: { Session: 3600, Grant: 3600, Interaction: 600, AuthorizationCode: 60, AccessToken: 600, IdToken: 600 },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
    async findAccount(_ctx: unknown, sub: string) {
      const account = fake.accounts.find((a) => a.sub === sub);
      if (!account) return undefined;
      return { accountId: sub, claims: async () => ({ sub, email: account.email, email_verified: account.email_verified, name: account.name }) };
    },
  });

  async function interaction(req: http.IncomingMessage, res: http.ServerResponse, uid: string, action: string | undefined) {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      if (action !== 'login' || req.method !== 'POST') {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid));
        return;
      }
      const form = await readForm(req);
      const account = fake.accounts.find((a) => a.email.toLowerCase() === (form.get('email') ?? '').toLowerCase() && a.password === form.get('password'));
      if (!account) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(loginPage(uid, 'Wrong username or passphrase'));
        return;
      }
      fake.logins.push(account.email);
      return provider.interactionFinished(req, res, { login: { accountId: account.sub } }, { mergeWithLastSubmission: false });
    }
    // Consent: granted by the organization for its users.
    const grant = details.grantId ? await provider.Grant.find(details.grantId) : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    const missing = details.prompt.details as { missingOIDCScope?: string[]; missingOIDCClaims?: string[] };
    if (missing.missingOIDCScope) grant.addOIDCScope(missing.missingOIDCScope.join(' '));
    if (missing.missingOIDCClaims) grant.addOIDCClaims(missing.missingOIDCClaims);
    const grantId = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }

  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const m = /^\/interaction\/([^/?]+)(?:\/([a-z]+))?/.exec(req.url ?? '');
    if (m) {
      interaction(req, res, m[1], m[2]).catch((err: Error) => res.writeHead(500).end(err.message));
      return;
    }
    callback(req, res);
  });

  return Object.assign(fake, {
    close: () =>
      new Promise<void>((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  });
}
