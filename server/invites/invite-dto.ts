import { roleName } from '@/server/organizations/member-dto';
import type { Role } from '@/server/organizations/permissions';

/** Invites expire 7 days after they are sent; sending again to the same email replaces the old link. */
export const INVITE_TTL_DAYS = 7;

export const inviteSelect = {
  id: true,
  email: true,
  role: true,
  status: true,
  expiresAt: true,
  createdAt: true,
  invitedBy: { select: { id: true, name: true, email: true } },
} as const;

type InviteRow = { id: string; email: string; role: Role; status: string; expiresAt: Date; createdAt: Date; invitedBy: { id: string; name: string; email: string } | null };

export function toInviteDto(i: InviteRow, now = new Date()) {
  const expired = i.status === 'EXPIRED' || (i.status === 'PENDING' && i.expiresAt <= now);
  return {
    id: i.id,
    email: i.email,
    role: roleName(i.role),
    status: (expired ? 'expired' : i.status.toLowerCase()) as 'pending' | 'accepted' | 'revoked' | 'expired',
    invited_by: i.invitedBy ? { id: i.invitedBy.id, name: i.invitedBy.name, email: i.invitedBy.email } : null,
    expires_at: i.expiresAt.toISOString(),
    created_at: i.createdAt.toISOString(),
  };
}
export type InviteDto = ReturnType<typeof toInviteDto>;
