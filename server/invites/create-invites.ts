// POST /api/v1/organizations/{id}/invites {emails, role}: one result per email. The invite link is always
// returned to the inviter (who may share it themselves) and also mailed when SMTP is configured. Inviting
// an email that already has a pending invite replaces it (the old link stops working). Seats are checked
// when an invite is accepted, not here. Who is a member and which invite is replaced are decided under the
// organization's row lock, as acceptance is (accept-invite.ts): inviting again while the old link is being
// accepted either replaces it first (the acceptance is a 404) or sees them a member (already_member).
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { generateSecret, hashSecret, TOKEN_PREFIX } from '@/server/auth/secret-token';
import { AppError } from '@/server/errors';
import { lockOrganizations } from '@/server/organizations/lock-organization';
import { roleSchema, toRole } from '@/server/organizations/member-dto';
import { assignableRoles, type Role } from '@/server/organizations/permissions';
import { emailSchema } from '@/server/users/create-user';
import { INVITE_TTL_DAYS, inviteSelect, toInviteDto, type InviteDto } from './invite-dto';
import { mailConfigured, sendInviteEmails } from './send-invite-email';

export const createInvitesInput = z.object({
  emails: z.array(emailSchema).min(1, 'emails must hold at least one address').max(50, 'At most 50 emails per request'),
  role: roleSchema.default('member'),
});
export type CreateInvitesInput = z.input<typeof createInvitesInput>;

export type InviteResult =
  | { email: string; status: 'invited'; invite: InviteDto; link: string; emailed: boolean; email_error?: string }
  | { email: string; status: 'already_member' };

export async function createInvites(p: { organizationId: string; actor: { userId: string; role: Role }; input: CreateInvitesInput; origin: string }): Promise<{ data: InviteResult[]; invited: number; mail_configured: boolean }> {
  const input = createInvitesInput.parse(p.input);
  const role = toRole(input.role);
  if (!assignableRoles(p.actor.role).includes(role)) {
    throw new AppError('forbidden', `Your role (${p.actor.role.toLowerCase()}) cannot invite ${input.role}s`, { role: p.actor.role.toLowerCase() });
  }
  const emails = [...new Set(input.emails)];
  const prisma = await db();
  const org = await prisma.organization.findUniqueOrThrow({ where: { id: p.organizationId }, select: { name: true } });
  const inviter = await prisma.user.findUniqueOrThrow({ where: { id: p.actor.userId }, select: { name: true, email: true } });
  const expiresAt = new Date(Date.now() + INVITE_TTL_DAYS * 24 * 3600_000);

  const created: { email: string; invite: InviteDto; link: string }[] = [];
  await prisma.$transaction(async (tx) => {
    await lockOrganizations(tx, [p.organizationId]);
    const members = await tx.membership.findMany({ where: { organizationId: p.organizationId, user: { email: { in: emails } } }, select: { user: { select: { email: true } } } });
    const memberEmails = new Set(members.map((m) => m.user.email));
    const toInvite = emails.filter((e) => !memberEmails.has(e));
    const replaced = await tx.invite.findMany({ where: { organizationId: p.organizationId, email: { in: toInvite }, status: 'PENDING' }, select: inviteSelect });
    await tx.invite.updateMany({ where: { id: { in: replaced.map((r) => r.id) } }, data: { status: 'REVOKED', revokedAt: new Date() } });
    for (const email of toInvite) {
      const token = generateSecret(TOKEN_PREFIX.invite);
      const row = await tx.invite.create({
        data: { organizationId: p.organizationId, email, role, tokenHash: hashSecret(token), invitedById: p.actor.userId, expiresAt },
        select: inviteSelect,
      });
      const invite = toInviteDto(row);
      // Sending again replaces the pending invite (its link stops working): "before" is the one replaced.
      const previous = replaced.find((r) => r.email === email);
      await recordAudit(tx, { accountId: p.organizationId, action: 'invite.create', target: { type: 'invite', id: row.id }, before: previous ? toInviteDto(previous) : undefined, after: invite });
      created.push({ email, invite, link: `${p.origin}/invite/${token}` });
    }
  });

  const mailed = await sendInviteEmails(
    created.map((c) => ({ to: c.email, organizationName: org.name, inviterName: inviter.name || inviter.email, role: input.role, link: c.link, expiresAt })),
  );
  const data: InviteResult[] = emails.map((email) => {
    const c = created.find((x) => x.email === email);
    if (!c) return { email, status: 'already_member' as const };
    const error = mailed.get(email);
    return { email, status: 'invited' as const, invite: c.invite, link: c.link, emailed: mailed.has(email) && error === null, ...(error ? { email_error: error } : {}) };
  });
  return { data, invited: created.length, mail_configured: mailConfigured() };
}
