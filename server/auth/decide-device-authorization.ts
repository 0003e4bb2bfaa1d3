// The user's side of the device flow: look up a user code on the approval page, then approve or deny it.
// The signed-in browser user is the actor; approval binds the device to them and the next poll receives
// a token for them.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { normalizeUserCode } from './start-device-authorization';

export interface PendingDeviceDto {
  user_code: string;
  client_name: string;
  client_kind: 'cli' | 'editor' | 'other';
  status: 'pending' | 'approved' | 'denied' | 'consumed' | 'expired';
  expires_at: string;
  created_at: string;
}

async function findByUserCode(raw: string) {
  const userCode = normalizeUserCode(raw);
  if (!userCode) throw new AppError('bad_request', 'That is not a valid code: it looks like WDJB-MJHT');
  const prisma = await db();
  const row = await prisma.deviceAuthorization.findUnique({
    where: { userCode },
    select: { id: true, userCode: true, clientName: true, clientKind: true, status: true, userId: true, expiresAt: true, createdAt: true },
  });
  if (!row) throw new AppError('not_found', `No device is waiting for code ${userCode}; check the code your device shows`);
  return row;
}

export async function findDeviceAuthorization(p: { userCode: string; now?: Date }): Promise<PendingDeviceDto> {
  const row = await findByUserCode(p.userCode);
  const expired = row.status !== 'CONSUMED' && row.expiresAt <= (p.now ?? new Date());
  return {
    user_code: row.userCode,
    client_name: row.clientName,
    client_kind: row.clientKind.toLowerCase() as PendingDeviceDto['client_kind'],
    status: expired ? 'expired' : (row.status.toLowerCase() as PendingDeviceDto['status']),
    expires_at: row.expiresAt.toISOString(),
    created_at: row.createdAt.toISOString(),
  };
}

/** Approves or denies a waiting device. Expired → 410; already decided → 409. */
export async function decideDeviceAuthorization(p: { userCode: string; userId: string; approve: boolean; now?: Date }): Promise<PendingDeviceDto> {
  const now = p.now ?? new Date();
  const row = await findByUserCode(p.userCode);
  if (row.status === 'PENDING' && row.expiresAt <= now) throw new AppError('gone', 'This code has expired; start the sign-in on your device again');
  const prisma = await db();
  const r = await prisma.deviceAuthorization.updateMany({
    where: { id: row.id, status: 'PENDING', expiresAt: { gt: now } },
    data: { status: p.approve ? 'APPROVED' : 'DENIED', userId: p.userId, decidedAt: now },
  });
  if (r.count === 0) throw new AppError('conflict', 'This device has already been approved or denied');
  return findDeviceAuthorization({ userCode: row.userCode, now });
}
