// The one authorization step for every /users/{id} and /organizations/{id} route. Policy:
//   - no or bad credential → 401 (apiRoute's authentication);
//   - another user's id, or an organization the caller does not belong to → 404, never its data
//     (we do not confirm that another tenant's resource exists);
//   - a member whose role lacks the permission → 403 naming the permission;
//   - an API key created for an organization acts for that organization only: its creator's personal routes
//     are a 403 saying so, another organization (even one its creator belongs to) a 404.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { assertAccountAccess, type AccountAccess } from '@/server/organizations/assert-account-access';
import type { Permission } from '@/server/organizations/permissions';

export interface UserScope {
  userId: string;
  personalAccountId: string;
}

async function personalAccountOf(principal: Principal): Promise<string> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: principal.userId }, select: { personalAccountId: true } });
  if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
  return user.personalAccountId;
}

/**
 * The organization an API key created for an organization is bound to; undefined for a personal key, an
 * account auth token or a console session (those act for the user, on any account the user may use).
 */
export async function boundOrganizationOf(principal: Principal): Promise<string | undefined> {
  if (principal.kind !== 'api_key') return undefined;
  return principal.accountId === (await personalAccountOf(principal)) ? undefined : principal.accountId;
}

function organizationKeyRefused(organizationId: string): AppError {
  return new AppError('forbidden', 'This API key belongs to an organization and acts for it only, not for its creator\'s personal account', { organization_id: organizationId });
}

/** Routes that act on the user (`/users/{id}`, `/auth/tokens`…): refused to a key bound to an organization. */
export async function authorizeUser(principal: Principal, id: string): Promise<UserScope> {
  if (id !== 'me' && id !== principal.userId) throw new AppError('not_found', 'User not found');
  const personalAccountId = await personalAccountOf(principal);
  if (principal.kind === 'api_key' && principal.accountId !== personalAccountId) throw organizationKeyRefused(principal.accountId);
  return { userId: principal.userId, personalAccountId };
}

/**
 * An `account_id` in a request body (key creation, code redemption) for a caller that may be a key bound to an
 * organization: such a key may only name its organization, and is taken to mean it when none is named.
 */
export async function accountWithinKeyScope(principal: Principal, accountId: string | undefined): Promise<string | undefined> {
  const bound = await boundOrganizationOf(principal);
  if (!bound) return accountId;
  if (accountId !== undefined && accountId !== bound) throw organizationKeyRefused(bound);
  return bound;
}

/** `/organizations/{id}`: the caller must be a member whose role grants `permission`. */
export async function authorizeOrganization(principal: Principal, organizationId: string, permission: Permission): Promise<AccountAccess> {
  if (principal.kind === 'api_key' && principal.accountId !== organizationId && (await boundOrganizationOf(principal))) {
    throw new AppError('not_found', 'Organization not found');
  }
  const access = await assertAccountAccess({ userId: principal.userId, accountId: organizationId, permission }).catch((err) => {
    if (err instanceof AppError && err.code === 'not_found') throw new AppError('not_found', 'Organization not found');
    throw err;
  });
  if (access.kind !== 'ORGANIZATION') throw new AppError('not_found', 'Organization not found');
  return access;
}
