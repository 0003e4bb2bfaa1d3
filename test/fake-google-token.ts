// Test support: Google's OAuth 2.0 token endpoint for service accounts (the JWT bearer grant, RFC 7523), as
// documented in developers.google.com/identity/protocols/oauth2/service-account ("Preparing to make an
// authorized API call" → HTTP/REST): POST form grant_type=urn:ietf:params:oauth:grant-type:jwt-bearer and
// assertion=<RS256 JWT {iss, scope, aud, exp, iat}>, answered {access_token, expires_in, token_type: "Bearer"}
// or 400 {error: "invalid_grant", error_description}. It checks what Google checks: the signature against
// the account's public key, the audience, the times (exp at most an hour after iat) and the scope. Its
// tokens expire after `lifetimeSeconds` (60 by default) by Date.now(), which tests may fake.
import { createPublicKey, createVerify, generateKeyPairSync, randomBytes, type KeyObject } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const GOOGLE_TOKEN_AUDIENCE = 'https://oauth2.googleapis.com/token';

export interface FakeServiceAccount {
  client_email: string;
  private_key: string;
  private_key_id: string;
  project_id: string;
  /** The JSON key as Google's console writes it. */
  json: string;
}

export interface FakeGoogleToken {
  /** The token endpoint: the token_uri to put in a key. */
  url: string;
  /** Every POST, with what was answered. */
  requests: { status: number; error?: string }[];
  /** A fresh service account registered here (its public key known), its key JSON pointing at this endpoint. */
  createServiceAccount(project?: string): FakeServiceAccount;
  /** Writes a key JSON to a temporary file and returns its path. */
  writeKeyFile(account: FakeServiceAccount): string;
  /** 'valid', 'expired' or 'unknown' for an Authorization header, as Google's APIs judge it. */
  checkBearer(authorization: string | string[] | undefined): 'valid' | 'expired' | 'unknown';
  close(): Promise<void>;
}

export async function startFakeGoogleToken(o: { lifetimeSeconds?: number } = {}): Promise<FakeGoogleToken> {
  const lifetime = o.lifetimeSeconds ?? 60;
  const publicKeys = new Map<string, KeyObject>();
  const issued = new Map<string, number>(); // token → expiry (ms)
  const requests: FakeGoogleToken['requests'] = [];
  const server = http.createServer((req, res) => {
    const parts: Buffer[] = [];
    req.on('data', (c: Buffer) => parts.push(c));
    req.on('end', () => {
      const answer = (status: number, body: object) => {
        requests.push({ status, ...('error' in body ? { error: String(body.error) } : {}) });
        res.writeHead(status, { 'content-type': 'application/json; charset=utf-8' }).end(JSON.stringify(body));
      };
      if (req.method !== 'POST') return answer(405, { error: 'invalid_request', error_description: 'POST only' });
      const form = new URLSearchParams(Buffer.concat(parts).toString('utf8'));
      if (form.get('grant_type') !== 'urn:ietf:params:oauth:grant-type:jwt-bearer') return answer(400, { error: 'unsupported_grant_type', error_description: 'Invalid grant_type: ' + form.get('grant_type') });
      const refusal = checkAssertion(form.get('assertion') ?? '', publicKeys, [GOOGLE_TOKEN_AUDIENCE, url]);
      if (refusal) return answer(400, { error: 'invalid_grant', error_description: refusal });
      const token = `ya29.fake-${randomBytes(12).toString('hex')}`;
      issued.set(token, Date.now() + lifetime * 1000);
      answer(200, { access_token: token, expires_in: lifetime, token_type: 'Bearer' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/token`;

  return {
    url,
    requests,
    createServiceAccount(project = 'switchboard-test') {
      const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
      const id = randomBytes(4).toString('hex');
      const account = {
        type: 'service_account',
        project_id: project,
        private_key_id: randomBytes(20).toString('hex'),
        private_key: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
        client_email: `gateway-${id}@${project}.iam.gserviceaccount.com`,
        client_id: String(100000000000000000000n + BigInt(parseInt(id, 16))),
        auth_uri: 'https://accounts.google.com/o/oauth2/auth',
        token_uri: url,
      };
      publicKeys.set(account.client_email, createPublicKey(publicKey.export({ type: 'spki', format: 'pem' })));
      return { ...account, json: JSON.stringify(account, null, 2) };
    },
    writeKeyFile(account) {
      const file = path.join(os.tmpdir(), `sb-sa-${account.private_key_id.slice(0, 8)}.json`);
      writeFileSync(file, account.json, { mode: 0o600 });
      return file;
    },
    checkBearer(authorization) {
      const value = Array.isArray(authorization) ? authorization[0] : authorization;
      const token = /^Bearer (\S+)$/.exec(value ?? '')?.[1];
      const expiry = token ? issued.get(token) : undefined;
      if (expiry === undefined) return 'unknown';
      return Date.now() < expiry ? 'valid' : 'expired';
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
}

function b64json(segment: string | undefined): Record<string, unknown> | undefined {
  try {
    return JSON.parse(Buffer.from(segment ?? '', 'base64url').toString('utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
}

/** Google's own error descriptions for each refusal. */
function checkAssertion(assertion: string, publicKeys: Map<string, KeyObject>, audiences: string[]): string | null {
  const [h, p, s] = assertion.split('.');
  const header = b64json(h);
  const claims = b64json(p);
  if (!header || !claims || s === undefined) return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe.';
  if (header.alg !== 'RS256') return 'Invalid JWT Signature.';
  const key = publicKeys.get(String(claims.iss));
  if (!key) return 'Invalid grant: account not found';
  const verifier = createVerify('RSA-SHA256');
  verifier.update(`${h}.${p}`);
  if (!verifier.verify(key, Buffer.from(s, 'base64url'))) return 'Invalid JWT Signature.';
  if (!audiences.includes(String(claims.aud))) return 'Invalid JWT: Failed audience check.';
  const now = Date.now() / 1000;
  const iat = Number(claims.iat);
  const exp = Number(claims.exp);
  if (!(iat <= now + 60 && exp > now && exp - iat <= 3600)) return 'Invalid JWT: Token must be a short-lived token (60 minutes) and in a reasonable timeframe. Check your iat and exp values in the JWT claim.';
  if (!String(claims.scope ?? '').split(' ').includes('https://www.googleapis.com/auth/cloud-platform')) return 'Invalid OAuth scope or ID token audience provided.';
  return null;
}
