import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { organizationSelect, toOrganizationDto, type OrganizationDto } from './organization-dto';
import type { Role } from './permissions';

/** An organization as seen by a member whose role the caller already established (authorizeOrganization). */
export async function getOrganization(p: { organizationId: string; role: Role }): Promise<OrganizationDto> {
  const prisma = await db();
  const org = await prisma.organization.findUnique({ where: { id: p.organizationId }, select: organizationSelect });
  if (!org) throw new AppError('not_found', 'Organization not found');
  return toOrganizationDto(org, p.role);
}
