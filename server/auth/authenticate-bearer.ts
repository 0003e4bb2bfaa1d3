// Bearer authentication shared by the gateway and every /api/v1 route. API keys and account auth tokens use
// the same header; both are looked up by SHA-256 hash through a unique index on every request (no cache),
// so a deleted key or revoked token fails on the very next request, whichever server instance serves it.
import { database, db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { LimitReset } from '@/server/ledger/reserve';
import { hashSecret, isWellFormedSecret, secretsEqual, TOKEN_PREFIX } from './secret-token';

export interface Principal {
  kind: 'api_key' | 'auth_token' | 'session';
  userId: string;
  /** The account that pays: the key's account, or for tokens and sessions the user's active account. */
  accountId: string;
  apiKey?: { id: string; limitReset: LimitReset; allowedModels: string[]; hasCreditLimit: boolean };
  authTokenId?: string;
  /** A console session: its browser session row (server/auth/browser-sessions/), "This device" in the list. */
  browserSessionId?: string;
}

const LAST_USED_THROTTLE_MS = 60_000;

export function bearerFromHeader(header: string | null | undefined): string | null {
  if (!header) return null;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return m ? m[1] : null;
}

const unauthorized = (message: string) => new AppError('unauthorized', message);

/** The refusal of every credential of a suspended user (REST routes here, sign-in; the gateway's admission gives the same). */
export function suspendedUserError(): AppError {
  return new AppError('forbidden', 'This account is suspended. Contact the operators of this instance.', { reason: 'user_suspended' });
}

/** The one refusal of a disabled API key (REST routes here; the gateway's admission gives the same). */
export function disabledApiKeyError(keyId: string): AppError {
  return new AppError('forbidden', `This API key is disabled. Its creator or an organization admin can enable it again with PATCH /api/v1/api-keys/${keyId} {"disabled": false}.`, {
    reason: 'key_disabled',
    key_id: keyId,
  });
}

export async function authenticateBearer(authorization: string | null | undefined, now = new Date()): Promise<Principal> {
  const token = bearerFromHeader(authorization);
  if (!token) throw unauthorized('Missing credentials: send an API key as "Authorization: Bearer <key>"');
  if (token.startsWith(TOKEN_PREFIX.apiKey)) return authenticateApiKey(token, now);
  if (token.startsWith(TOKEN_PREFIX.authToken)) return authenticateAuthToken(token, now);
  throw unauthorized('Invalid API key');
}

interface ApiKeyRow {
  id: string;
  keyHash: string;
  userId: string;
  accountId: string;
  deleted: boolean;
  disabled: boolean;
  expiresAtMs: number | string | null;
  limitReset: LimitReset;
  allowedModels: string[] | null;
  hasCreditLimit: boolean;
  suspended: boolean;
}

// The per-request key lookup, in plain SQL on the database's own pool (PostgreSQL) or instance (PGlite): one
// round trip and no ORM work on the hot path. Timestamps come back as epoch milliseconds (the columns hold
// UTC) and the credit limit as a flag, so no driver-specific date or bigint parsing is involved.
// The key's user is joined for the suspension flag (an operator's suspend takes effect on the next request).
// A rotated key's previous secret (previousKeyHash) finds the same row until its grace period ends
// (rotate-api-key.ts); "keyHash" is the hash that matched, for the constant-time check.
const API_KEY_BY_HASH = `
  SELECT k.id, k."matchedHash" AS "keyHash", k."userId", k."accountId", k."deletedAt" IS NOT NULL AS deleted, k."disabledAt" IS NOT NULL AS disabled,
         floor(extract(epoch FROM k."expiresAt") * 1000)::float8 AS "expiresAtMs",
         k."limitReset"::text AS "limitReset", k."allowedModels", k."creditLimitMicros" IS NOT NULL AS "hasCreditLimit",
         u."suspendedAt" IS NOT NULL AS suspended
  FROM (SELECT *, "keyHash" AS "matchedHash" FROM "ApiKey" WHERE "keyHash" = $1
        UNION ALL SELECT *, "previousKeyHash" FROM "ApiKey" WHERE "previousKeyHash" = $1 AND "previousKeyExpiresAt" > $2::timestamp(3)) k
  JOIN "User" u ON u.id = k."userId"`;

async function authenticateApiKey(token: string, now: Date): Promise<Principal> {
  if (!isWellFormedSecret(token, TOKEN_PREFIX.apiKey)) throw unauthorized('Invalid API key');
  const hash = hashSecret(token);
  const { rows } = await (await database()).sql.query<ApiKeyRow>(API_KEY_BY_HASH, [hash, now.toISOString()], { name: 'sb_api_key_by_hash' });
  const key = rows[0];
  if (!key || !secretsEqual(key.keyHash, hash) || key.deleted) throw unauthorized('Invalid API key');
  if (key.expiresAtMs !== null && Number(key.expiresAtMs) <= now.getTime()) throw unauthorized('This API key has expired');
  // A real key, switched off by its owner or an organization admin (PATCH /api/v1/api-keys/{id}): 403, not 401,
  // so clients do not take it for a typo and the owner knows it can be enabled again.
  if (key.suspended) throw suspendedUserError();
  if (key.disabled) throw disabledApiKeyError(key.id);
  return {
    kind: 'api_key',
    userId: key.userId,
    accountId: key.accountId,
    apiKey: { id: key.id, limitReset: key.limitReset, allowedModels: key.allowedModels ?? [], hasCreditLimit: key.hasCreditLimit },
  };
}

async function authenticateAuthToken(token: string, now: Date): Promise<Principal> {
  if (!isWellFormedSecret(token, TOKEN_PREFIX.authToken)) throw unauthorized('Invalid token');
  const hash = hashSecret(token);
  const prisma = await db();
  const t = await prisma.authToken.findUnique({
    where: { tokenHash: hash },
    select: { id: true, tokenHash: true, userId: true, revokedAt: true, expiresAt: true, lastUsedAt: true, user: { select: { activeAccountId: true, personalAccountId: true, suspendedAt: true } } },
  });
  if (!t || !secretsEqual(t.tokenHash, hash) || t.revokedAt) throw unauthorized('Invalid token');
  if (t.expiresAt && t.expiresAt <= now) throw unauthorized('This token has expired; sign in again');
  if (t.user.suspendedAt) throw suspendedUserError();
  if (!t.lastUsedAt || now.getTime() - t.lastUsedAt.getTime() > LAST_USED_THROTTLE_MS) {
    // Throttled, and off the request's critical path: a failed write only delays the timestamp.
    prisma.authToken.update({ where: { id: t.id }, data: { lastUsedAt: now } }).catch(() => {});
  }
  return { kind: 'auth_token', userId: t.userId, accountId: t.user.activeAccountId ?? t.user.personalAccountId, authTokenId: t.id };
}
