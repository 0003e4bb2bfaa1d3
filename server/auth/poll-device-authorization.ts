// The client's side of the device flow: poll with the device code until the user decides. Approval is
// turned into a token here, exactly once: the row moves APPROVED → CONSUMED in one conditional update, so
// two racing polls cannot both receive a token, and a later poll gets a distinct "already used" answer.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { toUserDto, userSelect, type UserDto } from '@/server/users/create-user';
import { issueAuthToken } from './auth-tokens';
import { hashSecret, isWellFormedSecret, TOKEN_PREFIX } from './secret-token';

export const pollDeviceAuthorizationInput = z.object({ device_code: safeString().min(1).max(200) });

/** The grant_type OAuth clients poll with (RFC 8628 §3.4). */
export const DEVICE_CODE_GRANT_TYPE = 'urn:ietf:params:oauth:grant-type:device_code';

const MAX_INTERVAL_SECONDS = 60;

/**
 * Every answer but success, with its HTTP status and the string `error.code` clients branch on.
 * 428 and 429 follow HTTP's meaning (not yet / too fast) for our JSON clients; OAuth clients get every one
 * as a 400 with the same code (server/http/device-flow-http.ts).
 */
export const DEVICE_POLL_ERRORS = {
  authorization_pending: { status: 428, message: 'The user has not approved this device yet; keep polling at the given interval' },
  slow_down: { status: 429, message: 'Polling too fast; wait the new interval between polls' },
  access_denied: { status: 403, message: 'The user denied this device' },
  expired_token: { status: 410, message: 'The device code expired; start again with POST /api/v1/auth/device/code' },
  device_code_used: { status: 409, message: 'A token was already issued for this device code; it can be used only once' },
  invalid_grant: { status: 400, message: 'Unknown device code' },
} as const;
export type DevicePollError = keyof typeof DEVICE_POLL_ERRORS;

export type PollResult =
  | { ok: true; token: string; token_type: 'Bearer'; user: UserDto }
  | { ok: false; error: DevicePollError; interval?: number };

export async function pollDeviceAuthorization(p: { deviceCode: string; now?: Date }): Promise<PollResult> {
  const now = p.now ?? new Date();
  if (!isWellFormedSecret(p.deviceCode, TOKEN_PREFIX.device)) return { ok: false, error: 'invalid_grant' };
  const prisma = await db();
  const row = await prisma.deviceAuthorization.findUnique({
    where: { deviceCodeHash: hashSecret(p.deviceCode) },
    select: { id: true, status: true, userId: true, clientName: true, clientKind: true, intervalSecs: true, lastPolledAt: true, expiresAt: true },
  });
  if (!row) return { ok: false, error: 'invalid_grant' };
  if (row.status === 'CONSUMED') return { ok: false, error: 'device_code_used' };
  if (row.expiresAt <= now) return { ok: false, error: 'expired_token' };

  // Too fast: the interval grows by 5 s (RFC 8628 §3.5). The update is conditional on the lastPolledAt we
  // read, so of two simultaneous polls only one counts as on time.
  const early = row.lastPolledAt !== null && now.getTime() - row.lastPolledAt.getTime() < row.intervalSecs * 1000;
  const interval = early ? Math.min(row.intervalSecs + 5, MAX_INTERVAL_SECONDS) : row.intervalSecs;
  const counted = await prisma.deviceAuthorization.updateMany({
    where: { id: row.id, lastPolledAt: row.lastPolledAt },
    data: { lastPolledAt: now, intervalSecs: interval },
  });
  if (early || counted.count === 0) return { ok: false, error: 'slow_down', interval };

  if (row.status === 'DENIED') return { ok: false, error: 'access_denied' };
  if (row.status === 'PENDING' || !row.userId) return { ok: false, error: 'authorization_pending', interval };

  const userId = row.userId;
  const issued = await prisma.$transaction(async (tx) => {
    const claimed = await tx.deviceAuthorization.updateMany({ where: { id: row.id, status: 'APPROVED' }, data: { status: 'CONSUMED' } });
    if (claimed.count === 0) return null;
    const { token, authToken } = await issueAuthToken({ userId, deviceName: row.clientName, clientKind: row.clientKind.toLowerCase() as 'cli' | 'editor' | 'other', tx });
    await tx.deviceAuthorization.update({ where: { id: row.id }, data: { authTokenId: authToken.id } });
    const user = await tx.user.findUniqueOrThrow({ where: { id: userId }, select: userSelect });
    return { token, user: toUserDto(user) };
  });
  if (!issued) return { ok: false, error: 'device_code_used' };
  return { ok: true, token: issued.token, token_type: 'Bearer', user: issued.user };
}
