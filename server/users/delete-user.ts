// DELETE /api/v1/users/me. Refused (409) while the user is the only owner of an organization: its members
// would be left with nobody able to manage it. Otherwise, in one transaction: the user row goes, and with
// it (cascades) their memberships, OAuth identities, API keys, account auth tokens, browser sessions and pending device
// approvals, so every credential stops working on the next request. The personal billing account and its
// ledger stay (financial records), anonymised and unreachable; a remaining balance is forfeited.
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { countOwners, lockOrganizations } from '@/server/organizations/lock-organization';
import { recordAccountEvent } from '@/server/webhooks/record-account-event';
import { toMemberDto } from '@/server/organizations/member-dto';

export interface DeletedUserDto {
  deleted: true;
  id: string;
  revoked_api_keys: number;
  revoked_auth_tokens: number;
  left_organizations: number;
}

export async function deleteUser(p: { userId: string }): Promise<DeletedUserDto> {
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const user = await tx.user.findUnique({
      where: { id: p.userId },
      select: {
        id: true,
        email: true,
        name: true,
        image: true,
        personalAccountId: true,
        memberships: { select: { organizationId: true, role: true, createdAt: true, organization: { select: { name: true } } } },
      },
    });
    if (!user) throw new AppError('unauthorized', 'This credential belongs to a deleted user');
    const owned = user.memberships.filter((m) => m.role === 'OWNER');
    await lockOrganizations(tx, owned.map((m) => m.organizationId));
    const soleOwner: { id: string; name: string }[] = [];
    for (const m of owned) if ((await countOwners(tx, m.organizationId)) <= 1) soleOwner.push({ id: m.organizationId, name: m.organization.name });
    if (soleOwner.length > 0) {
      throw new AppError(
        'conflict',
        `You are the only owner of ${soleOwner.map((o) => `"${o.name}"`).join(', ')}. Make another member an owner, or delete the organization, before deleting your account.`,
        { organizations: soleOwner },
      );
    }
    const revokedKeys = await tx.apiKey.count({ where: { userId: user.id, deletedAt: null } });
    const revokedTokens = await tx.authToken.count({ where: { userId: user.id, revokedAt: null } });
    // The organizations hear of it as of a member leaving (webhooks), with the keys that stop working.
    const organizationKeys = await tx.apiKey.findMany({ where: { userId: user.id, deletedAt: null, accountId: { in: user.memberships.map((m) => m.organizationId) } }, select: { id: true, name: true, hint: true, accountId: true } });
    for (const m of user.memberships) {
      const keys = organizationKeys.filter((k) => k.accountId === m.organizationId);
      for (const k of keys) {
        await recordAccountEvent(tx, { accountId: m.organizationId, type: 'key.deleted', data: { api_key: { id: k.id, name: k.name, hint: k.hint, user_id: user.id }, deleted_by: user.id, reason: 'member_removed' } });
      }
      await recordAccountEvent(tx, { accountId: m.organizationId, type: 'member.removed', data: { member: { user_id: user.id, email: user.email, role: m.role.toLowerCase() }, removed_by: user.id, revoked_api_keys: keys.length } });
    }
    await tx.remoteConfig.deleteMany({ where: { scope: 'USER', scopeId: user.id } });
    // Recorded before the row goes, so the actor's label (the email) can still be read.
    await recordAudit(tx, {
      accountId: user.personalAccountId,
      action: 'user.delete',
      target: { type: 'user', id: user.id },
      before: { id: user.id, organizations: user.memberships.map((m) => ({ id: m.organizationId, role: m.role.toLowerCase() })) },
      after: { revoked_api_keys: revokedKeys, revoked_auth_tokens: revokedTokens },
    });
    // Each organization loses a member with the user (the membership cascades): its own log says so.
    for (const m of user.memberships) {
      await recordAudit(tx, {
        accountId: m.organizationId,
        action: 'member.leave',
        target: { type: 'member', id: user.id },
        before: toMemberDto({ role: m.role, createdAt: m.createdAt, user }),
        after: { reason: 'user deleted' },
      });
    }
    await tx.user.delete({ where: { id: user.id } });
    await tx.account.update({ where: { id: user.personalAccountId }, data: { name: 'Deleted user' } });
    return { deleted: true as const, id: user.id, revoked_api_keys: revokedKeys, revoked_auth_tokens: revokedTokens, left_organizations: user.memberships.length };
  });
}
