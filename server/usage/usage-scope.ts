// Which usage rows a caller may see, decided once per request after authorization (server/http/authorize.ts):
//   /users/{id}/usages                        the caller's own generations, on any account they used
//   /organizations/{id}/usages                every member's rows with usage:read-all, else only the caller's
//   /organizations/{id}/members/{m}/usages    that member's rows; usage:read-all, or m is the caller
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import type { AccountAccess } from '@/server/organizations/assert-account-access';
import { roleAllows } from '@/server/organizations/permissions';

export interface UsageScope {
  /** Only rows billed to this account. */
  accountId?: string;
  /** Only rows made by this user. */
  userId?: string;
  /** What the caller may see (echoed in responses): every row of the account, or only their own. */
  visibility: 'account' | 'own';
}

export function userUsageScope(userId: string, accountId?: string): UsageScope {
  return { userId, accountId, visibility: 'own' };
}

export function organizationUsageScope(access: AccountAccess, callerId: string, requestedUserId?: string): UsageScope {
  const readAll = roleAllows(access.role, 'usage:read-all');
  if (readAll) return { accountId: access.accountId, userId: requestedUserId, visibility: 'account' };
  if (requestedUserId && requestedUserId !== callerId) throw forbiddenOthers(access);
  return { accountId: access.accountId, userId: callerId, visibility: 'own' };
}

/** `memberId` is the member's user id (as in the members API). A former member's usage stays in the org's list. */
export async function memberUsageScope(access: AccountAccess, callerId: string, memberId: string): Promise<UsageScope> {
  const prisma = await db();
  const member = await prisma.membership.findUnique({
    where: { organizationId_userId: { organizationId: access.accountId, userId: memberId } },
    select: { userId: true },
  });
  if (!member) throw new AppError('not_found', 'Member not found');
  if (member.userId !== callerId && !roleAllows(access.role, 'usage:read-all')) throw forbiddenOthers(access);
  return { accountId: access.accountId, userId: member.userId, visibility: roleAllows(access.role, 'usage:read-all') ? 'account' : 'own' };
}

function forbiddenOthers(access: AccountAccess): AppError {
  return new AppError('forbidden', `Your role (${access.role.toLowerCase()}) may see only your own usage (usage:read-all is needed for other members')`, {
    required_permission: 'usage:read-all',
    role: access.role.toLowerCase(),
  });
}
