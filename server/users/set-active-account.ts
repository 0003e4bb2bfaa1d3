// PUT /api/v1/users/active-account: which account the user works in — their personal account or an
// organization they belong to. Account auth tokens bill to it, and the console opens on it.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { profileSelect, toProfileDto, type ProfileDto } from './get-user-profile';

export const setActiveAccountInput = z.object({ account_id: safeString().trim().min(1, 'account_id is required').max(100) });
export type SetActiveAccountInput = z.input<typeof setActiveAccountInput>;

export async function setActiveAccount(p: { userId: string; input: SetActiveAccountInput }): Promise<ProfileDto> {
  const input = setActiveAccountInput.parse(p.input);
  const prisma = await db();
  const user = await prisma.user.findUnique({
    where: { id: p.userId },
    select: { personalAccountId: true, memberships: { where: { organizationId: input.account_id }, select: { id: true } } },
  });
  if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
  if (input.account_id !== user.personalAccountId && user.memberships.length === 0) {
    throw new AppError('forbidden', 'You can switch only to your personal account or an organization you are a member of', { account_id: input.account_id });
  }
  const updated = await prisma.user.update({ where: { id: p.userId }, data: { activeAccountId: input.account_id }, select: profileSelect });
  return toProfileDto(updated);
}
