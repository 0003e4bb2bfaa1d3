// The organization record as the API shows it, and the inputs shared by create and update.
import { z } from 'zod';
import { safeString, usdNumber } from '@/server/validation/fields';
import type { Role } from './permissions';

export const slugSchema = safeString()
  .trim()
  .toLowerCase()
  .regex(/^[a-z0-9](?:[a-z0-9-]{0,46}[a-z0-9])?$/, 'slug: 1–48 lowercase letters, digits and dashes, not starting or ending with a dash');

/** The balance.low alert's threshold, an account setting (organizations' settings and personal users' settings). */
export const lowBalanceUsd = usdNumber({ min: 0, max: 1_000_000, decimals: 2, exclusiveMin: true })
  .nullable()
  .optional()
  .describe('USD: the balance.low alert (webhooks and email) is sent when the balance falls below this; null turns it off');

/** Organization-wide defaults. Strict: an unknown setting is a 400, not silently stored. */
export const organizationSettingsSchema = z.strictObject({
  default_model: safeString().min(1).max(200).nullable().optional().describe('Model the first-party clients preselect'),
  allowed_models: z.array(safeString().min(1).max(200)).max(200).optional().describe('Models members may use; empty = all'),
  allowed_providers: z.array(safeString().min(1).max(100)).max(100).optional().describe('Provider ids (of GET /models/{author}/{slug}/endpoints) members’ requests may be routed to; empty = all'),
  default_member_limit_usd: usdNumber({ min: 0, max: 1_000_000, decimals: 6 })
    .nullable()
    .optional()
    .describe('Spend limit in USD given to members who join from now on (PUT …/members/{memberId}/limit changes one member’s); null = none'),
  default_member_limit_reset: z
    .enum(['daily', 'weekly', 'monthly'])
    .nullable()
    .optional()
    .describe('When that default limit’s window restarts (UTC day, ISO week, month); null or absent = never'),
  low_balance_usd: lowBalanceUsd,
});
export type OrganizationSettings = z.infer<typeof organizationSettingsSchema>;

export const organizationSelect = {
  id: true,
  name: true,
  slug: true,
  settings: true,
  createdAt: true,
  updatedAt: true,
  _count: { select: { memberships: true } },
} as const;

type OrganizationRow = { id: string; name: string; slug: string; settings: unknown; createdAt: Date; updatedAt: Date; _count: { memberships: number } };

export function toOrganizationDto(o: OrganizationRow, role: Role) {
  const settings = organizationSettingsSchema.safeParse(o.settings ?? {});
  return {
    id: o.id,
    name: o.name,
    slug: o.slug,
    settings: settings.success ? settings.data : {},
    /** The caller's role in this organization. */
    role: role.toLowerCase() as Lowercase<Role>,
    member_count: o._count.memberships,
    created_at: o.createdAt.toISOString(),
    updated_at: o.updatedAt.toISOString(),
  };
}
export type OrganizationDto = ReturnType<typeof toOrganizationDto>;

/** The organization as the audit log keeps it: what an update may change (settings through their schema). */
export function organizationAuditView(o: OrganizationRow) {
  const { id, name, slug, settings } = toOrganizationDto(o, 'OWNER');
  return { id, name, slug, settings };
}

/** "Acme Research, Inc." → "acme-research-inc" */
export function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/g, '');
  return s || 'organization';
}
