// The first sign-in of a person through their organization's issuer makes them a member with the SSO
// configuration's default role; later sign-ins change nothing (an owner may have changed their role since).
// Like accepting an invite, the seat check and the insert happen under the organization's row lock, so two
// first sign-ins cannot share the last seat. The joined organization becomes the user's active account.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { lockOrganizations } from '@/server/organizations/lock-organization';
import { memberSelect, toMemberDto, type MemberDto } from '@/server/organizations/member-dto';
import { defaultMemberLimit } from '@/server/organizations/member-limit';
import { organizationSeatLimit } from '@/server/organizations/seat-limit';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';

export async function joinOrganizationBySso(p: { organizationId: string; userId: string }): Promise<{ joined: boolean; member: MemberDto }> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    const existing = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: p.organizationId, userId: p.userId } }, select: memberSelect });
    if (existing) return { joined: false, member: toMemberDto(existing) };
    const sso = await tx.organizationSso.findUnique({ where: { organizationId: p.organizationId }, select: { defaultRole: true, organization: { select: { name: true, settings: true } } } });
    if (!sso) throw new AppError('not_found', 'Single sign-on is not set up for this organization');
    const seats = await organizationSeatLimit(tx, p.organizationId);
    const members = await tx.membership.count({ where: { organizationId: p.organizationId } });
    if (seats.limit !== null && members >= seats.limit) {
      throw new AppError('conflict', `${sso.organization.name} has no free seat: ${seats.reason}, and all ${members} are taken. Ask an owner to add seats or remove a member.`, {
        seat_limit: seats.limit,
        members,
        plan_id: seats.plan_id,
      });
    }
    // Never an owner by SSO, whatever the row says (the API refuses it; this holds for rows written otherwise).
    const role = sso.defaultRole === 'OWNER' ? 'MEMBER' : sso.defaultRole;
    // The organization's default spend limit for new members, as for invites.
    const created = await tx.membership.create({ data: { organizationId: p.organizationId, userId: p.userId, role, ...defaultMemberLimit(sso.organization.settings) }, select: memberSelect });
    await tx.user.update({ where: { id: p.userId }, data: { activeAccountId: p.organizationId } });
    const member = toMemberDto(created);
    await recordAccountEvent(tx, { accountId: p.organizationId, type: 'member.joined', data: { member: { user_id: p.userId, email: member.email, role: role.toLowerCase() }, via: 'sso' } });
    await recordAudit(tx, {
      accountId: p.organizationId,
      action: 'member.join_sso',
      target: { type: 'member', id: member.id },
      after: member,
      actor: { userId: p.userId, kind: 'user', label: member.email, via: 'console' },
    });
    return { joined: true, member };
  });
}
