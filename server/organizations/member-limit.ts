// A member's spend limit on an organization: GET/PUT /api/v1/organizations/{id}/members/{memberId}/limit.
// The limit caps what the member's keys and tokens acting for the organization spend per window (the UTC day,
// ISO week or month of `reset`, or for ever); admission enforces it like an API key's (Membership's window
// columns). Reading: owners, admins and billing members (usage:read-all) any member's, every member their own.
// Setting: owners and admins (members:manage, checked by the route); an owner's limit only by an owner.
// The spend of the current window is kept when the limit or its reset changes.
import { z } from 'zod';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { AppError } from '@/server/errors';
import { microsToUsd, usdToMicros } from '@/server/ledger/money';
import type { LimitReset } from '@/server/ledger/reserve';
import { limitResetName, remainingInWindow, spendInCurrentWindow } from '@/server/ledger/spend-window';
import { usdNumber } from '@/server/validation/fields';
import type { AccountAccess } from './assert-account-access';
import { organizationSettingsSchema } from './organization-dto';
import { roleAllows } from './permissions';

const resetSchema = z.enum(['daily', 'weekly', 'monthly']).nullable();

export const setMemberLimitInput = z.strictObject({
  amount_usd: usdNumber({ min: 0, max: 1_000_000, decimals: 6 }).nullable().describe('USD the member may spend per window; 0 stops their spending; null removes the limit'),
  reset: resetSchema.default(null).describe('When the window restarts (UTC day, ISO week, month); null or absent = never'),
});
export type SetMemberLimitInput = z.input<typeof setMemberLimitInput>;

export interface MemberLimitDto {
  member_id: string;
  amount_usd: number | null;
  reset: 'daily' | 'weekly' | 'monthly' | null;
  /** Spent (and held by requests in flight) in the current window. */
  usage_usd: number;
  remaining_usd: number | null;
  window_started_at: string | null;
}

const limitSelect = { userId: true, role: true, spendLimitMicros: true, limitReset: true, windowSpentMicros: true, windowStartedAt: true } as const;

type LimitRow = { userId: string; spendLimitMicros: bigint | null; limitReset: LimitReset; windowSpentMicros: bigint; windowStartedAt: Date };

function toMemberLimitDto(m: LimitRow, now: Date): MemberLimitDto {
  const spent = spendInCurrentWindow(m, now);
  const remaining = remainingInWindow(m.spendLimitMicros, m, now);
  return {
    member_id: m.userId,
    amount_usd: m.spendLimitMicros === null ? null : microsToUsd(m.spendLimitMicros),
    reset: limitResetName(m.limitReset),
    usage_usd: microsToUsd(spent),
    remaining_usd: remaining === null ? null : microsToUsd(remaining),
    // A rolled-over window has not been rewritten yet: it would start at the next request.
    window_started_at: spent === 0n ? null : m.windowStartedAt.toISOString(),
  };
}

const toLimitReset = (reset: 'daily' | 'weekly' | 'monthly' | null): LimitReset => (reset === null ? 'NEVER' : (reset.toUpperCase() as LimitReset));

/**
 * The limit a member joining now gets from the organization's settings (`default_member_limit_usd`,
 * `default_member_limit_reset`), as Membership columns to spread into the row's create data. Used by invite
 * acceptance and by whatever else creates memberships (SSO).
 */
export function defaultMemberLimit(settings: unknown): { spendLimitMicros: bigint | null; limitReset: LimitReset } {
  const parsed = organizationSettingsSchema.safeParse(settings ?? {});
  const s = parsed.success ? parsed.data : {};
  if (s.default_member_limit_usd === undefined || s.default_member_limit_usd === null) return { spendLimitMicros: null, limitReset: 'NEVER' };
  return { spendLimitMicros: usdToMicros(s.default_member_limit_usd), limitReset: toLimitReset(s.default_member_limit_reset ?? null) };
}

const notFound = () => new AppError('not_found', 'Member not found');

export async function getMemberLimit(p: { access: AccountAccess; actorUserId: string; memberId: string; now?: Date }): Promise<MemberLimitDto> {
  if (p.memberId !== p.actorUserId && !roleAllows(p.access.role, 'usage:read-all')) {
    throw new AppError('forbidden', `Your role (${p.access.role.toLowerCase()}) may see only your own limit`, { required_permission: 'usage:read-all', role: p.access.role.toLowerCase() });
  }
  const prisma = await db();
  const m = await prisma.membership.findUnique({ where: { organizationId_userId: { organizationId: p.access.accountId, userId: p.memberId } }, select: limitSelect });
  if (!m) throw notFound();
  return toMemberLimitDto(m, p.now ?? new Date());
}

/** The route has checked members:manage. */
export async function setMemberLimit(p: { access: AccountAccess; memberId: string; input: SetMemberLimitInput; now?: Date }): Promise<MemberLimitDto> {
  const input = setMemberLimitInput.parse(p.input);
  const now = p.now ?? new Date();
  const prisma = await db();
  return prisma.$transaction(async (tx) => {
    const where = { organizationId_userId: { organizationId: p.access.accountId, userId: p.memberId } };
    const before = await tx.membership.findUnique({ where, select: limitSelect });
    if (!before) throw notFound();
    if (before.role === 'OWNER' && !roleAllows(p.access.role, 'members:manage-owners')) {
      throw new AppError('forbidden', 'Only owners can set an owner’s spend limit', { required_permission: 'members:manage-owners', role: p.access.role.toLowerCase() });
    }
    const after = await tx.membership.update({
      where,
      data: { spendLimitMicros: input.amount_usd === null ? null : usdToMicros(input.amount_usd), limitReset: toLimitReset(input.reset) },
      select: limitSelect,
    });
    const dto = toMemberLimitDto(after, now);
    await recordAudit(tx, { accountId: p.access.accountId, action: 'member.limit_update', target: { type: 'member', id: p.memberId }, before: toMemberLimitDto(before, now), after: dto });
    return dto;
  });
}
