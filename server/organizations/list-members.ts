import { db } from '@/server/db';
import { memberSelect, toMemberDto, type MemberDto } from './member-dto';
import { assignableRoles, permissionsOf, ROLE_DESCRIPTIONS, ROLES, type Role } from './permissions';

/** Members, owners first then by join date. */
export async function listMembers(p: { organizationId: string }): Promise<MemberDto[]> {
  const prisma = await db();
  const rows = await prisma.membership.findMany({ where: { organizationId: p.organizationId }, select: memberSelect, orderBy: [{ createdAt: 'asc' }] });
  const rank = (r: Role) => ROLES.indexOf(r);
  return rows.sort((a, b) => rank(a.role) - rank(b.role) || a.createdAt.getTime() - b.createdAt.getTime()).map(toMemberDto);
}

/** Every role with what it may do, and whether the caller may give it to someone. */
export function listAvailableRoles(p: { callerRole: Role }) {
  const assignable = new Set(assignableRoles(p.callerRole));
  return ROLES.map((role) => ({
    role: role.toLowerCase(),
    description: ROLE_DESCRIPTIONS[role],
    permissions: permissionsOf(role),
    assignable: assignable.has(role),
  }));
}
