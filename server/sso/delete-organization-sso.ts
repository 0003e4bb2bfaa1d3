// DELETE /api/v1/organizations/{id}/sso (owners): the issuer, its secret and the domains (verified ones too)
// are removed; members who joined through it stay members and keep their other ways to sign in.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { ssoAuditShape } from './set-organization-sso';
import { organizationSsoSelect } from './sso-dto';

export async function deleteOrganizationSso(p: { organizationId: string }): Promise<{ deleted: true }> {
  const prisma = await db();
  await prisma.$transaction(async (tx) => {
    const before = await tx.organizationSso.findUnique({ where: { organizationId: p.organizationId }, select: organizationSsoSelect });
    if (!before) throw new AppError('not_found', 'Single sign-on is not set up for this organization');
    await tx.organizationSso.delete({ where: { organizationId: p.organizationId } });
    await recordAudit(tx, { accountId: p.organizationId, action: 'sso.delete', target: { type: 'sso', id: p.organizationId }, before: ssoAuditShape(before) });
  });
  return { deleted: true };
}
