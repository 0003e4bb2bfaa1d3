// GET /api/v1/organizations/{id}/sso (owners): the configuration, its redirect URI to register at the issuer,
// and each domain's verification record. 404 when single sign-on is not set up.
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { organizationSsoSelect, toOrganizationSsoDto, type OrganizationSsoDto } from './sso-dto';

export async function getOrganizationSso(p: { organizationId: string; origin: string }): Promise<OrganizationSsoDto> {
  const prisma = await db();
  const row = await prisma.organizationSso.findUnique({ where: { organizationId: p.organizationId }, select: organizationSsoSelect });
  if (!row) throw new AppError('not_found', 'Single sign-on is not set up for this organization');
  return toOrganizationSsoDto(row, p.origin);
}
