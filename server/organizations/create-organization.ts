// POST /api/v1/organizations: an organization is a billable Account (kind ORGANIZATION) plus the
// Organization row with the same id, and the creator as its first OWNER — one transaction.
import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { recordAudit } from '@/server/audit/record-audit';
import { organizationAuditView, organizationSelect, slugify, slugSchema, toOrganizationDto, type OrganizationDto } from './organization-dto';

export const createOrganizationInput = z.object({
  name: safeString().trim().min(1, 'Name is required').max(100),
  slug: slugSchema.optional().describe('Unique URL name; derived from the name when omitted'),
});
export type CreateOrganizationInput = z.input<typeof createOrganizationInput>;

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

export async function createOrganization(p: { userId: string; input: CreateOrganizationInput }): Promise<OrganizationDto> {
  const input = createOrganizationInput.parse(p.input);
  const prisma = await db();
  const base = input.slug ?? slugify(input.name);
  for (let attempt = 0; attempt < 5; attempt++) {
    // A chosen slug is used as given (taken → 409); a derived one gets a short suffix on collision.
    const slug = attempt === 0 ? base : `${base.slice(0, 40)}-${randomBytes(3).toString('hex')}`;
    try {
      const org = await prisma.$transaction(async (tx) => {
        const account = await tx.account.create({ data: { kind: 'ORGANIZATION', name: input.name }, select: { id: true } });
        const created = await tx.organization.create({
          data: { id: account.id, name: input.name, slug, createdById: p.userId, memberships: { create: { userId: p.userId, role: 'OWNER' } } },
          select: organizationSelect,
        });
        await recordAudit(tx, { accountId: created.id, action: 'organization.create', target: { type: 'organization', id: created.id }, after: { ...organizationAuditView(created), owner_user_id: p.userId } });
        return created;
      });
      return toOrganizationDto(org, 'OWNER');
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      if (input.slug) throw new AppError('conflict', `The slug "${input.slug}" is taken`, { slug: input.slug });
    }
  }
  throw new AppError('conflict', 'Could not find a free slug for this name; choose one with "slug"');
}
