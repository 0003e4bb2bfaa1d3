// POST /api/v1/users/me/accept-terms and the terms page: records which version was accepted, when, and
// from where (TermsAcceptance keeps every acceptance; the user row keeps the latest).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { profileSelect, toProfileDto, type ProfileDto } from './get-user-profile';
import { CURRENT_TERMS_VERSION } from './terms';

export const acceptTermsInput = z.object({ version: safeString().trim().min(1, 'version is required').max(50) });
export type AcceptTermsInput = z.input<typeof acceptTermsInput>;

export async function acceptTerms(p: { userId: string; input: AcceptTermsInput; ip?: string; userAgent?: string }): Promise<ProfileDto> {
  const input = acceptTermsInput.parse(p.input);
  if (input.version !== CURRENT_TERMS_VERSION) {
    throw new AppError('bad_request', `Terms version ${input.version} is not the current one (${CURRENT_TERMS_VERSION}); read and accept the current terms`, {
      current_version: CURRENT_TERMS_VERSION,
    });
  }
  const prisma = await db();
  const now = new Date();
  const [, user] = await prisma.$transaction([
    prisma.termsAcceptance.create({ data: { userId: p.userId, version: input.version, acceptedAt: now, ip: p.ip?.slice(0, 100) ?? null, userAgent: p.userAgent?.slice(0, 500) ?? null } }),
    prisma.user.update({ where: { id: p.userId }, data: { termsVersion: input.version, termsAcceptedAt: now }, select: profileSelect }),
  ]);
  return toProfileDto(user);
}
