// The profile of GET /api/v1/users/me (spec 2.7: id, email, name, active_account_id) plus what a client
// needs to act on it: the terms status and the organizations the active account can switch to.
import { z } from 'zod';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { toUserDto } from './create-user';
import { CURRENT_TERMS_VERSION, hasAcceptedCurrentTerms } from './terms';
import { lowBalanceUsd } from '@/server/organizations/organization-dto';

/** Settings of the user's personal account (an organization's are in its settings). Strict, like theirs. */
export const userSettingsSchema = z.strictObject({ low_balance_usd: lowBalanceUsd });

export const profileSelect = {
  id: true,
  email: true,
  name: true,
  image: true,
  emailVerifiedAt: true,
  activeAccountId: true,
  personalAccountId: true,
  termsVersion: true,
  termsAcceptedAt: true,
  settings: true,
  createdAt: true,
  memberships: { select: { role: true, createdAt: true, organization: { select: { id: true, name: true, slug: true } } }, orderBy: { createdAt: 'asc' } },
} as const;

type ProfileRow = {
  id: string;
  email: string;
  name: string;
  image: string | null;
  emailVerifiedAt: Date | null;
  activeAccountId: string | null;
  personalAccountId: string;
  termsVersion: string | null;
  termsAcceptedAt: Date | null;
  settings: unknown;
  createdAt: Date;
  memberships: { role: string; createdAt: Date; organization: { id: string; name: string; slug: string } }[];
};

export function toProfileDto(u: ProfileRow) {
  return {
    ...toUserDto(u),
    image: u.image,
    email_verified: u.emailVerifiedAt !== null,
    terms_version: u.termsVersion,
    terms_accepted_at: u.termsAcceptedAt?.toISOString() ?? null,
    terms_current_version: CURRENT_TERMS_VERSION,
    requires_terms_acceptance: !hasAcceptedCurrentTerms(u.termsVersion),
    organizations: u.memberships.map((m) => ({ id: m.organization.id, name: m.organization.name, slug: m.organization.slug, role: m.role.toLowerCase() })),
    settings: userSettingsSchema.safeParse(u.settings ?? {}).data ?? {},
  };
}
export type ProfileDto = ReturnType<typeof toProfileDto>;

export async function getUserProfile(p: { userId: string }): Promise<ProfileDto> {
  const prisma = await db();
  const user = await prisma.user.findUnique({ where: { id: p.userId }, select: profileSelect });
  if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
  return toProfileDto(user);
}
