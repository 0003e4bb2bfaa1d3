// The one authorization step for every /users/{id} and /organizations/{id} route. Policy:
//   - no or bad credential → 401 (apiRoute's authentication);
//   - another user's id, or an organization the caller does not belong to → 404, never its data
//     (we do not confirm that another tenant's resource exists);
//   - a member whose role lacks the permission → 403 naming the permission.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess, type AccountAccess } from '@/server/organizations/assert-account-access';
import type { Permission } from '@/server/organizations/permissions';

export interface UserScope {
  userId: string;
  personalAccountId: string;
}

/** `/users/{id}`: `id` must be "me" or the caller's own id. */
export async function authorizeUser(principal: Principal, id: string): Promise<UserScope> {
  if (id !== 'me' && id !== principal.userId) throw new AppError('not_found', 'User not found');
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: principal.userId }, select: { id: true, personalAccountId: true } });
  if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
  return { userId: user.id, personalAccountId: user.personalAccountId };
}

/** `/organizations/{id}`: the caller must be a member whose role grants `permission`. */
export async function authorizeOrganization(principal: Principal, organizationId: string, permission: Permission): Promise<AccountAccess> {
  const access = await assertAccountAccess({ userId: principal.userId, accountId: organizationId, permission }).catch((err) => {
    if (err instanceof AppError && err.code === 'not_found') throw new AppError('not_found', 'Organization not found');
    throw err;
  });
  if (access.kind !== 'ORGANIZATION') throw new AppError('not_found', 'Organization not found');
  return access;
}
