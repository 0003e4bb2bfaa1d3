// POST /api/v1/invites/accept {token}, and the invite page's Accept button. The signed-in invitee's email
// must be the invited one (case-insensitive). Answers: expired → 410, revoked or unknown → 404, already
// accepted or already a member → 409, no seat left → 409 naming the limit. The seat check and the
// membership insert happen under the organization's row lock, so two acceptances cannot share the last seat.
import { z } from 'zod';
import { safeString } from '@/server/validation/fields';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { hashSecret, isWellFormedSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { AppError } from '@/server/errors';
import { lockOrganizations } from '@/server/organizations/lock-organization';
import { memberSelect, roleName, toMemberDto, type MemberDto } from '@/server/organizations/member-dto';
import { defaultMemberLimit } from '@/server/organizations/member-limit';
import { organizationSeatLimit } from '@/server/organizations/seat-limit';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';

export const acceptInviteInput = z.object({ token: safeString().trim().min(1, 'token is required').max(200) });
export type AcceptInviteInput = z.input<typeof acceptInviteInput>;

export interface AcceptedInviteDto {
  organization: { id: string; name: string; slug: string };
  member: MemberDto;
}

const notFound = () => new AppError('not_found', 'This invite does not exist or was revoked');

export async function acceptInvite(p: { userId: string; input: AcceptInviteInput; now?: Date }): Promise<AcceptedInviteDto> {
  const { token } = acceptInviteInput.parse(p.input);
  if (!isWellFormedSecret(token, TOKEN_PREFIX.invite)) throw notFound();
  const now = p.now ?? new Date();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const found = await tx.invite.findUnique({ where: { tokenHash: hashSecret(token) }, select: { id: true, organizationId: true } });
    if (!found) throw notFound();
    await lockOrganizations(tx, [found.organizationId]);
    const invite = await tx.invite.findUniqueOrThrow({
      where: { id: found.id },
      select: { id: true, email: true, role: true, status: true, expiresAt: true, organization: { select: { id: true, name: true, slug: true } } },
    });
    if (invite.status === 'REVOKED') throw notFound();
    if (invite.status === 'ACCEPTED') throw new AppError('conflict', 'This invite was already used');
    if (invite.status === 'EXPIRED' || invite.expiresAt <= now) {
      throw new AppError('gone', `This invite expired on ${invite.expiresAt.toUTCString()}; ask for a new one`, { expired_at: invite.expiresAt.toISOString() });
    }
    const user = await tx.user.findUnique({ where: { id: p.userId }, select: { email: true } });
    if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
    if (user.email.toLowerCase() !== invite.email.toLowerCase()) {
      throw new AppError('forbidden', `This invite was sent to ${invite.email}; sign in with that email to accept it`, { invited_email: invite.email });
    }
    const existing = await tx.membership.findUnique({ where: { organizationId_userId: { organizationId: invite.organization.id, userId: p.userId } }, select: { id: true } });
    if (existing) throw new AppError('conflict', `You are already a member of ${invite.organization.name}`);
    const seats = await organizationSeatLimit(tx, invite.organization.id);
    const members = await tx.membership.count({ where: { organizationId: invite.organization.id } });
    if (seats.limit !== null && members >= seats.limit) {
      throw new AppError('conflict', `${invite.organization.name} has no free seat: ${seats.reason}, and all ${members} are taken. Ask an owner to add seats or remove a member.`, {
        seat_limit: seats.limit,
        members,
        plan_id: seats.plan_id,
      });
    }
    // The organization's default spend limit for new members, as set when they join.
    const { settings } = await tx.organization.findUniqueOrThrow({ where: { id: invite.organization.id }, select: { settings: true } });
    const member = await tx.membership.create({
      data: { organizationId: invite.organization.id, userId: p.userId, role: invite.role, ...defaultMemberLimit(settings) },
      select: memberSelect,
    });
    await tx.invite.update({ where: { id: invite.id }, data: { status: 'ACCEPTED', acceptedById: p.userId, acceptedAt: now } });
    await recordAccountEvent(tx, { accountId: invite.organization.id, type: 'member.joined', data: { member: { user_id: p.userId, email: user.email, role: invite.role.toLowerCase() }, via: 'invite' } });
    const dto = toMemberDto(member);
    await recordAudit(tx, { accountId: invite.organization.id, action: 'invite.accept', target: { type: 'invite', id: invite.id }, before: { email: invite.email, role: roleName(invite.role), status: 'pending' }, after: { status: 'accepted', member: dto } });
    return { organization: invite.organization, member: dto };
  });
}

export interface InvitePreviewDto {
  organization_name: string;
  email: string;
  role: string;
  status: 'pending' | 'accepted' | 'expired';
  invited_by: string | null;
  expires_at: string;
}

/** What the invite page shows before accepting; a revoked or unknown token is a 404. */
export async function previewInvite(p: { token: string; now?: Date }): Promise<InvitePreviewDto> {
  if (!isWellFormedSecret(p.token, TOKEN_PREFIX.invite)) throw notFound();
  const prisma = await db();
  const invite = await prisma.invite.findUnique({
    where: { tokenHash: hashSecret(p.token) },
    select: { email: true, role: true, status: true, expiresAt: true, organization: { select: { name: true } }, invitedBy: { select: { name: true, email: true } } },
  });
  if (!invite || invite.status === 'REVOKED') throw notFound();
  const expired = invite.status === 'EXPIRED' || (invite.status === 'PENDING' && invite.expiresAt <= (p.now ?? new Date()));
  return {
    organization_name: invite.organization.name,
    email: invite.email,
    role: invite.role.toLowerCase(),
    status: expired ? 'expired' : invite.status === 'ACCEPTED' ? 'accepted' : 'pending',
    invited_by: invite.invitedBy ? invite.invitedBy.name || invite.invitedBy.email : null,
    expires_at: invite.expiresAt.toISOString(),
  };
}
