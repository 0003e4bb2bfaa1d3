// The one authorization step for anything that acts on a billable account (personal or organization).
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { roleAllows, type Permission, type Role } from './permissions';

export interface AccountAccess {
  accountId: string;
  kind: 'PERSONAL' | 'ORGANIZATION';
  /** The caller's role; OWNER for their own personal account. */
  role: Role;
}

/**
 * Resolves the caller's role on an account and checks the permission. Another tenant's account is a 404
 * (we do not confirm it exists); a member without the permission gets 403.
 */
export async function assertAccountAccess(p: { userId: string; accountId: string; permission: Permission }): Promise<AccountAccess> {
  const prisma = await db();
  const account = await prisma.account.findUnique({
    where: { id: p.accountId },
    select: { id: true, kind: true, personalOwner: { select: { id: true } }, organization: { select: { memberships: { where: { userId: p.userId }, select: { role: true } } } } },
  });
  if (!account) throw new AppError('not_found', 'Account not found');
  let role: Role | undefined;
  if (account.kind === 'PERSONAL') role = account.personalOwner?.id === p.userId ? 'OWNER' : undefined;
  else role = account.organization?.memberships[0]?.role;
  if (!role) throw new AppError('not_found', 'Account not found');
  if (!roleAllows(role, p.permission)) throw new AppError('forbidden', `Your role (${role.toLowerCase()}) does not allow this (${p.permission})`, { required_permission: p.permission, role: role.toLowerCase() });
  return { accountId: account.id, kind: account.kind, role };
}
