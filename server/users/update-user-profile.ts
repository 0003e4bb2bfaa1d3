// PATCH /api/v1/users/me: the profile fields a user may change themselves, and their personal account's settings. Everything else (email and its
// verification, roles, balances) is refused by the strict schema with a 400 naming the field.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { profileSelect, toProfileDto, userSettingsSchema, type ProfileDto } from './get-user-profile';

export const updateUserProfileInput = z
  .strictObject({
    name: safeString().trim().min(1, 'Name must not be empty').max(100).optional(),
    image: z.url({ protocol: /^https?$/, message: 'image must be an http(s) URL' }).max(2000).nullable().optional(),
    settings: userSettingsSchema.optional().describe('Settings of your personal account; merged key by key, null clears one'),
  })
  .refine((v) => v.name !== undefined || v.image !== undefined || v.settings !== undefined, 'Nothing to update: send name, image and/or settings');
export type UpdateUserProfileInput = z.input<typeof updateUserProfileInput>;

export async function updateUserProfile(p: { userId: string; input: UpdateUserProfileInput }): Promise<ProfileDto> {
  const input = updateUserProfileInput.parse(p.input);
  const prisma = await db();
  const user = await prisma.$transaction(async (tx) => {
    const before = await tx.user.findUnique({ where: { id: p.userId }, select: { name: true, image: true, settings: true } });
    let settings: Record<string, unknown> | undefined;
    if (input.settings) {
      settings = { ...((before?.settings as Record<string, unknown>) ?? {}) };
      for (const [k, v] of Object.entries(input.settings)) {
        if (v === null) delete settings[k];
        else if (v !== undefined) settings[k] = v;
      }
    }
    const updated = await tx.user.update({
      where: { id: p.userId },
      data: { ...(input.name !== undefined ? { name: input.name } : {}), ...(input.image !== undefined ? { image: input.image } : {}), ...(settings ? { settings: settings as object } : {}) },
      select: profileSelect,
    });
    await recordAudit(tx, {
      accountId: updated.personalAccountId,
      action: 'user.update',
      target: { type: 'user', id: p.userId },
      before,
      after: { name: updated.name, image: updated.image, settings: updated.settings },
    });
    return updated;
  });
  return toProfileDto(user);
}
