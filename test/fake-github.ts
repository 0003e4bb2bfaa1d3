// Test support: a local GitHub speaking its OAuth web-flow wire format, at GitHub Enterprise Server's paths
// (what AUTH_GITHUB_URL points next-auth's GitHub provider at):
//   GET  /login/oauth/authorize       → 302 to redirect_uri with ?code&state (the user has authorized the app)
//   POST /login/oauth/access_token    → { access_token, token_type, scope } or GitHub's 200 { error } body
//   GET  /api/v3/user, /api/v3/user/emails  (Bearer token)
// It checks what GitHub checks: a known client_id, the client secret (Basic or in the body), a redirect_uri
// under the registered callback and equal to the one authorized, a code used once and within 10 minutes, and
// the PKCE verifier when a challenge was sent. Rejections are recorded for tests to assert on.
import { createHash, randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface FakeGitHubUser {
  id: number;
  login: string;
  name: string;
  /** Public email on the profile; null makes the client ask /user/emails, as for most real accounts. */
  email: string | null;
  emails: { email: string; primary: boolean; verified: boolean }[];
}

interface Grant {
  clientId: string;
  redirectUri: string;
  challenge?: string;
  issuedAt: number;
  used: boolean;
}

export interface FakeGitHub {
  url: string;
  clientId: string;
  clientSecret: string;
  /** Who is signed in to GitHub in the browser: the next authorization is for this user. */
  user: FakeGitHubUser;
  /** Every refusal, e.g. 'bad_verification_code', 'incorrect_client_credentials', 'redirect_uri_mismatch'. */
  rejections: string[];
  tokenRequests: number;
  close(): Promise<void>;
}

const CODE_TTL_MS = 10 * 60_000;

export async function startFakeGitHub(p: { callbackUrl: string; user: FakeGitHubUser }): Promise<FakeGitHub> {
  const grants = new Map<string, Grant>();
  const tokens = new Map<string, FakeGitHubUser>();
  const fake = {
    url: '',
    clientId: `Iv1.${randomBytes(8).toString('hex')}`,
    clientSecret: randomBytes(20).toString('hex'),
    user: p.user,
    rejections: [] as string[],
    tokenRequests: 0,
  };
  const json = (res: http.ServerResponse, status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
  // GitHub allows a redirect_uri whose host and port equal the registered callback's and whose path is below it.
  const redirectAllowed = (uri: string | null) => {
    if (!uri) return false;
    const registered = new URL(p.callbackUrl);
    const given = new URL(uri);
    return given.origin === registered.origin && (given.pathname === registered.pathname || given.pathname.startsWith(`${registered.pathname}/`));
  };

  function authorize(url: URL, res: http.ServerResponse) {
    const q = url.searchParams;
    if (q.get('client_id') !== fake.clientId) return fake.rejections.push('unknown_client'), res.writeHead(404).end('Not Found');
    const redirectUri = q.get('redirect_uri') ?? p.callbackUrl;
    if (!redirectAllowed(redirectUri)) return fake.rejections.push('redirect_uri_mismatch'), res.writeHead(400).end('The redirect_uri is not associated with this application.');
    const method = q.get('code_challenge_method');
    if (q.get('code_challenge') && method !== 'S256') return fake.rejections.push('invalid_challenge_method'), res.writeHead(400).end('code_challenge_method must be S256');
    const code = randomBytes(10).toString('hex');
    grants.set(code, { clientId: fake.clientId, redirectUri, challenge: q.get('code_challenge') ?? undefined, issuedAt: Date.now(), used: false });
    const back = new URL(redirectUri);
    back.searchParams.set('code', code);
    if (q.get('state') !== null) back.searchParams.set('state', q.get('state')!);
    res.writeHead(302, { location: back.toString() }).end();
  }

  function accessToken(req: http.IncomingMessage, body: string, res: http.ServerResponse) {
    fake.tokenRequests++;
    const form = req.headers['content-type']?.includes('json') ? new URLSearchParams(JSON.parse(body) as Record<string, string>) : new URLSearchParams(body);
    let clientId = form.get('client_id');
    let clientSecret = form.get('client_secret');
    const basic = /^Basic (.+)$/i.exec(req.headers.authorization ?? '');
    if (basic) {
      const [id, secret] = Buffer.from(basic[1], 'base64').toString().split(':').map(decodeURIComponent);
      clientId = id;
      clientSecret = secret;
    }
    const refuse = (error: string, description: string) => {
      fake.rejections.push(error);
      json(res, 200, { error, error_description: description, error_uri: 'https://docs.github.com/apps/managing-oauth-apps/troubleshooting-oauth-app-access-token-request-errors' });
    };
    if (clientId !== fake.clientId || clientSecret !== fake.clientSecret) return refuse('incorrect_client_credentials', 'The client_id and/or client_secret passed are incorrect.');
    const code = form.get('code') ?? '';
    const grant = grants.get(code);
    if (!grant || grant.used || Date.now() - grant.issuedAt > CODE_TTL_MS || grant.clientId !== clientId) {
      if (grant) grant.used = true;
      return refuse('bad_verification_code', 'The code passed is incorrect or expired.');
    }
    grant.used = true;
    if (form.get('redirect_uri') !== null && form.get('redirect_uri') !== grant.redirectUri) return refuse('redirect_uri_mismatch', 'The redirect_uri MUST match the registered callback URL for this application.');
    if (grant.challenge) {
      const verifier = form.get('code_verifier') ?? '';
      if (createHash('sha256').update(verifier).digest('base64url') !== grant.challenge) return refuse('bad_verification_code', 'The code_verifier does not match the challenge.');
    }
    const token = `gho_${randomBytes(18).toString('hex')}`;
    tokens.set(token, fake.user);
    const out = { access_token: token, token_type: 'bearer', scope: 'read:user,user:email' };
    if (req.headers.accept?.includes('application/json')) json(res, 200, out);
    else res.writeHead(200, { 'content-type': 'application/x-www-form-urlencoded' }).end(new URLSearchParams(out).toString());
  }

  function api(req: http.IncomingMessage, path: string, res: http.ServerResponse) {
    const token = /^(?:Bearer|token) (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const user = token ? tokens.get(token) : undefined;
    if (!user) return json(res, 401, { message: 'Requires authentication', documentation_url: 'https://docs.github.com/rest' });
    if (path === '/api/v3/user') return json(res, 200, { id: user.id, login: user.login, name: user.name, email: user.email, avatar_url: `https://avatars.githubusercontent.com/u/${user.id}` });
    if (path === '/api/v3/user/emails') return json(res, 200, user.emails.map((e) => ({ ...e, visibility: e.primary ? 'private' : null })));
    json(res, 404, { message: 'Not Found' });
  }

  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://github.test');
      if (req.method === 'GET' && url.pathname === '/login/oauth/authorize') return authorize(url, res);
      if (req.method === 'POST' && url.pathname === '/login/oauth/access_token') return accessToken(req, Buffer.concat(chunks).toString(), res);
      if (req.method === 'GET' && url.pathname.startsWith('/api/v3/')) return api(req, url.pathname, res);
      res.writeHead(404).end('Not Found');
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fake.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return Object.assign(fake, {
    close: () => new Promise<void>((r) => {
      server.closeAllConnections();
      server.close(() => r());
    }),
  });
}
