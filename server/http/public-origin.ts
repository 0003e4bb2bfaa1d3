import { env } from '@/server/env';

/**
 * The origin for links we hand out (invites, device verification): PUBLIC_URL when configured, otherwise
 * the host the request came in on (X-Forwarded-* first, for deployments behind a proxy).
 */
export function publicOrigin(headers: Headers, requestUrl: string): string {
  const configured = env().PUBLIC_URL;
  if (configured) return configured.replace(/\/+$/, '');
  const host = headers.get('x-forwarded-host')?.split(',')[0]?.trim() || headers.get('host');
  const proto = headers.get('x-forwarded-proto')?.split(',')[0]?.trim() || new URL(requestUrl).protocol.replace(':', '');
  return host ? `${proto}://${host}` : new URL(requestUrl).origin;
}
