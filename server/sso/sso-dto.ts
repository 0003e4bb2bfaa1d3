// An organization's single sign-on as the API shows it and takes it. The client secret is write-only: the
// DTO carries its hint. Each domain carries the DNS record that proves the organization controls it.
import { z } from 'zod';
import { env } from '@/server/env';
import { roleName } from '@/server/organizations/member-dto';
import type { Role } from '@/server/organizations/permissions';
import { isoOrNull, safeString } from '@/server/validation/fields';

/** Where the verification record lives, and what it says (server/sso/verify-sso-domains.ts checks it). */
export const VERIFICATION_RECORD_PREFIX = '_switchboard.';
export const VERIFICATION_VALUE_PREFIX = 'switchboard-verification=';

/** A DNS host name of two labels or more (no IP address, no trailing dot), lower-cased. */
export const ssoDomainSchema = safeString()
  .trim()
  .toLowerCase()
  .max(253)
  .regex(/^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/, 'must be a domain name such as acme.com');

/** The issuer as OpenID Connect compares it (exactly), without query or fragment; https unless allowed. */
const issuerSchema = safeString()
  .trim()
  .max(500)
  .url('issuer must be a URL, e.g. https://login.acme.com')
  .superRefine((value, ctx) => {
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      return;
    }
    if (url.search || url.hash || url.username || url.password) ctx.addIssue({ code: 'custom', message: 'issuer must have no query, fragment or credentials' });
    if (url.protocol !== 'https:' && !(url.protocol === 'http:' && env().SSO_ALLOW_HTTP_ISSUERS)) ctx.addIssue({ code: 'custom', message: 'issuer must be an https:// URL' });
  });

export const ssoRoleSchema = z.enum(['member', 'billing', 'admin']);

export const setOrganizationSsoInput = z.object({
  issuer: issuerSchema,
  client_id: safeString().trim().min(1, 'client_id is required').max(500),
  client_secret: safeString().min(1).max(4000).optional().describe('Write-only. Required when SSO is first set up; omit it to keep the stored one.'),
  domains: z
    .array(ssoDomainSchema)
    .min(1, 'domains must hold at least one email domain')
    .max(50, 'At most 50 domains')
    .describe('Email domains whose people sign in through this issuer; each takes effect once verified'),
  default_role: ssoRoleSchema.default('member').describe('The role of people who join through SSO'),
});
export type SetOrganizationSsoInput = z.input<typeof setOrganizationSsoInput>;

export const ssoDomainSelect = { domain: true, verificationToken: true, verifiedAt: true, lastCheckedAt: true, lastCheckError: true } as const;
export const organizationSsoSelect = {
  organizationId: true,
  issuer: true,
  clientId: true,
  clientSecretHint: true,
  defaultRole: true,
  createdAt: true,
  updatedAt: true,
  domains: { select: ssoDomainSelect, orderBy: { domain: 'asc' } },
} as const;

interface SsoRow {
  organizationId: string;
  issuer: string;
  clientId: string;
  clientSecretHint: string;
  defaultRole: Role;
  createdAt: Date;
  updatedAt: Date;
  domains: { domain: string; verificationToken: string; verifiedAt: Date | null; lastCheckedAt: Date | null; lastCheckError: string | null }[];
}

/** next-auth's provider id of an organization's issuer; its callback is /api/auth/callback/<id>. */
export const organizationProviderId = (organizationId: string) => `sso-${organizationId}`;
export const organizationIdOfProvider = (providerId: string): string | null => (/^sso-([A-Za-z0-9_-]{1,100})$/.exec(providerId)?.[1] ?? null);

export function toOrganizationSsoDto(row: SsoRow, origin: string) {
  return {
    organization_id: row.organizationId,
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_hint: row.clientSecretHint,
    redirect_uri: `${origin}/api/auth/callback/${organizationProviderId(row.organizationId)}`,
    default_role: roleName(row.defaultRole) as z.infer<typeof ssoRoleSchema>,
    domains: row.domains.map((d) => ({
      domain: d.domain,
      verified: d.verifiedAt !== null,
      verified_at: isoOrNull(d.verifiedAt),
      verification: { type: 'TXT' as const, name: `${VERIFICATION_RECORD_PREFIX}${d.domain}`, value: `${VERIFICATION_VALUE_PREFIX}${d.verificationToken}` },
      last_checked_at: isoOrNull(d.lastCheckedAt),
      last_check_error: d.lastCheckError,
    })),
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type OrganizationSsoDto = ReturnType<typeof toOrganizationSsoDto>;
