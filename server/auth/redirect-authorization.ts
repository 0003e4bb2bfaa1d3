// The redirect flow for editors and local CLIs: /authorize?redirect_uri=&state=&client_name= shows the
// signed-in user who is asking; on approval a new account auth token goes back to the redirect URI as
// `token` plus the client's `state`. Only editor URI schemes and loopback HTTP URIs are accepted, so a
// token can never be sent to a web site.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { AppError } from '@/server/errors';
import { issueAuthToken } from './auth-tokens';

export const EDITOR_SCHEMES = ['vscode:', 'vscode-insiders:', 'cursor:', 'windsurf:'] as const;
const LOOPBACK_HOSTS = new Set(['127.0.0.1', 'localhost']);

/** The redirect URI when it is one we may hand a token to, else null. */
export function allowedRedirectUri(raw: string | null | undefined): URL | null {
  if (!raw || raw.length > 2000) return null;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return null;
  }
  if (url.username || url.password) return null;
  if ((EDITOR_SCHEMES as readonly string[]).includes(url.protocol)) return url.host ? url : null;
  // Loopback: plain http to this machine on an explicit port (RFC 8252 §7.3).
  if (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname) && url.port !== '') return url;
  return null;
}

export const redirectAuthorizationInput = z.object({
  redirect_uri: safeString().refine((v) => allowedRedirectUri(v) !== null, 'redirect_uri must be a vscode://, vscode-insiders://, cursor:// or windsurf:// URI, or http://127.0.0.1:<port>/… or http://localhost:<port>/…'),
  state: safeString().min(1, 'state is required').max(500),
  client_name: safeString().trim().max(100).optional(),
});
export type RedirectAuthorizationInput = z.input<typeof redirectAuthorizationInput>;

/** Editors are named by their scheme when they do not say who they are. */
export function defaultClientName(uri: URL): string {
  const byScheme: Record<string, string> = { 'vscode:': 'VS Code', 'vscode-insiders:': 'VS Code Insiders', 'cursor:': 'Cursor', 'windsurf:': 'Windsurf' };
  return byScheme[uri.protocol] ?? `Local app on port ${uri.port}`;
}

function withParams(uri: URL, params: Record<string, string>): string {
  const out = new URL(uri.toString());
  for (const [k, v] of Object.entries(params)) out.searchParams.set(k, v);
  return out.toString();
}

/** Approval: issues a token for the user and returns where to send the browser. */
export async function approveRedirectAuthorization(p: { userId: string; input: RedirectAuthorizationInput }): Promise<{ redirect: string; tokenId: string }> {
  const input = redirectAuthorizationInput.parse(p.input);
  const uri = allowedRedirectUri(input.redirect_uri);
  if (!uri) throw new AppError('bad_request', 'redirect_uri is not allowed');
  const kind = uri.protocol === 'http:' ? 'cli' : 'editor';
  const { token, authToken } = await issueAuthToken({ userId: p.userId, deviceName: input.client_name || defaultClientName(uri), clientKind: kind });
  return { redirect: withParams(uri, { token, state: input.state }), tokenId: authToken.id };
}

/** Denial: the client learns it was refused (OAuth's error=access_denied), with its state. */
export function denyRedirectAuthorization(p: { input: RedirectAuthorizationInput }): { redirect: string } {
  const input = redirectAuthorizationInput.parse(p.input);
  const uri = allowedRedirectUri(input.redirect_uri);
  if (!uri) throw new AppError('bad_request', 'redirect_uri is not allowed');
  return { redirect: withParams(uri, { error: 'access_denied', state: input.state }) };
}
