// The actor of each edge, built from what the edge already knows (no database query: the label is looked
// up by recordAudit, in its transaction, only when an entry is written).
import { userInfo } from 'node:os';
import type { Principal } from '@/server/auth/authenticate-bearer';
import { clientIp } from '@/server/auth/sign-in-throttle';
import type { AuditActor } from './audit-context';

const MAX_USER_AGENT = 500;

/** The client's address and user agent; the address is X-Forwarded-For as server/http/client-address.ts pins it. */
export function clientOf(headers: Headers): { ip?: string; userAgent?: string } {
  const ip = clientIp(headers);
  const userAgent = headers.get('user-agent')?.slice(0, MAX_USER_AGENT) || undefined;
  return { ...(ip !== 'unknown' ? { ip: ip.slice(0, 100) } : {}), ...(userAgent ? { userAgent } : {}) };
}

/** A REST call: the credential's user, as an API key (labelled by its hint), an auth token or a console session. */
export function restActor(principal: Principal | null, headers: Headers): AuditActor {
  const client = clientOf(headers);
  if (!principal) return { kind: 'anonymous', via: 'rest', ...client };
  if (principal.kind === 'api_key') return { kind: 'api_key', via: 'rest', userId: principal.userId, apiKeyId: principal.apiKey?.id, ...client };
  return { kind: principal.kind === 'auth_token' ? 'auth_token' : 'user', via: 'rest', userId: principal.userId, ...client };
}

/** The console (tRPC, server actions): the signed-in user. */
export function consoleActor(userId: string, client: { ip?: string; userAgent?: string } = {}): AuditActor {
  return { kind: 'user', via: 'console', userId, ...client };
}

/** The operating-system account running a CLI command (kept as the label: the CLI has no user of ours). */
export function localOperatorName(): string {
  try {
    return userInfo().username || 'unknown';
  } catch {
    return 'unknown';
  }
}

/**
 * `npm run cli`: an operator at the server's shell. `operator` is the OS account that ran the command (sent
 * along when the command goes through the server's /internal/cli endpoint, from 127.0.0.1).
 */
export function cliActor(operator: string = localOperatorName(), ip?: string): AuditActor {
  return { kind: 'operator', via: 'cli', label: `${operator.slice(0, 100)} (cli)`, ...(ip ? { ip } : {}) };
}

/** A provider's webhook or another automatic caller: the system, with where the call came from. */
export function systemActor(label: string, headers?: Headers): AuditActor {
  return { kind: 'system', via: 'system', label, ...(headers ? clientOf(headers) : {}) };
}
