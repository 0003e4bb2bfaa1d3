// PUT /api/v1/organizations/{id}: name, slug and settings (settings merge key by key; null clears one).
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { recordAudit } from '@/server/audit/record-audit';
import { lockOrganizations } from './lock-organization';
import { organizationAuditView, organizationSelect, organizationSettingsSchema, slugSchema, toOrganizationDto, type OrganizationDto } from './organization-dto';
import type { Role } from './permissions';

export const updateOrganizationInput = z
  .strictObject({
    name: safeString().trim().min(1, 'Name must not be empty').max(100).optional(),
    slug: slugSchema.optional(),
    settings: organizationSettingsSchema.optional(),
  })
  .refine((v) => v.name !== undefined || v.slug !== undefined || v.settings !== undefined, 'Nothing to update: send name, slug and/or settings');
export type UpdateOrganizationInput = z.input<typeof updateOrganizationInput>;

export async function updateOrganization(p: { organizationId: string; role: Role; input: UpdateOrganizationInput }): Promise<OrganizationDto> {
  const input = updateOrganizationInput.parse(p.input);
  const prisma = await db();
  try {
    const org = await prisma.$transaction(async (tx) => {
      // Locked, so the settings merge and the audit entry's "before" are those this update replaced.
      await lockOrganizations(tx, [p.organizationId]);
      const current = await tx.organization.findUnique({ where: { id: p.organizationId }, select: organizationSelect });
      if (!current) throw new AppError('not_found', 'Organization not found');
      let settings: Record<string, unknown> | undefined;
      if (input.settings) {
        settings = { ...((current.settings as Record<string, unknown>) ?? {}) };
        for (const [k, v] of Object.entries(input.settings)) {
          if (v === null) delete settings[k];
          else if (v !== undefined) settings[k] = v;
        }
      }
      if (input.name) await tx.account.update({ where: { id: p.organizationId }, data: { name: input.name } });
      const updated = await tx.organization.update({
        where: { id: p.organizationId },
        data: { ...(input.name ? { name: input.name } : {}), ...(input.slug ? { slug: input.slug } : {}), ...(settings ? { settings: settings as object } : {}) },
        select: organizationSelect,
      });
      await recordAudit(tx, {
        accountId: p.organizationId,
        action: 'organization.update',
        target: { type: 'organization', id: p.organizationId },
        before: organizationAuditView(current),
        after: organizationAuditView(updated),
      });
      return updated;
    });
    return toOrganizationDto(org, p.role);
  } catch (err) {
    if ((err as { code?: string }).code === 'P2002') throw new AppError('conflict', `The slug "${input.slug}" is taken`, { slug: input.slug });
    throw err;
  }
}
