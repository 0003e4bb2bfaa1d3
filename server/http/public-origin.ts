// The origin of links the server builds (invites, device verification, checkout returns, e-mails, the landing
// page's snippets). A client chooses its Host and X-Forwarded-* headers, so they are never trusted by default:
// an invite link built from them could point a victim at the attacker's site. In order:
//   1. PUBLIC_URL when configured;
//   2. with TRUST_PROXY=1 (the operator says a proxy in front sets these headers), X-Forwarded-Host /
//      X-Forwarded-Proto, then Host;
//   3. otherwise the address the server is configured to listen on (HOST, PORT; 0.0.0.0 → localhost).
import { env } from '@/server/env';

const firstValue = (value: string | null): string | undefined => value?.split(',')[0]?.trim() || undefined;

/** A host name as a client may send it: letters, digits, dots, dashes, an optional port or bracketed IPv6. */
const HOST_SYNTAX = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(:\d{1,5})?$/i;

/** The origin the server listens on, from its configuration. */
export function listeningOrigin(): string {
  const e = env();
  const host = e.HOST === '0.0.0.0' || e.HOST === '::' || e.HOST === '' ? 'localhost' : e.HOST;
  return `http://${host.includes(':') ? `[${host}]` : host}:${e.PORT}`;
}

export function publicOrigin(headers: Headers): string {
  const e = env();
  if (e.PUBLIC_URL) return e.PUBLIC_URL.replace(/\/+$/, '');
  if (e.TRUST_PROXY) {
    const host = firstValue(headers.get('x-forwarded-host')) ?? firstValue(headers.get('host'));
    const proto = firstValue(headers.get('x-forwarded-proto')) === 'https' ? 'https' : 'http';
    if (host && HOST_SYNTAX.test(host)) return `${proto}://${host}`;
  }
  return listeningOrigin();
}

/** Whether pages reach the browser over https: PUBLIC_URL is https, or a trusted proxy says so. */
export function servedOverHttps(headers: Pick<Headers, 'get'>): boolean {
  const e = env();
  if (e.PUBLIC_URL) return e.PUBLIC_URL.startsWith('https:');
  return e.TRUST_PROXY && firstValue(headers.get('x-forwarded-proto')) === 'https';
}
