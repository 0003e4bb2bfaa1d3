// POST /api/v1/organizations/{id}/sso/verify: an organization's SSO domain takes effect only once the
// organization proves it controls the domain's DNS — a TXT record `switchboard-verification=<token>` at
// `_switchboard.<domain>`, the token drawn for this organization and domain. Without this, an owner could list
// someone else's domain (gmail.com, a competitor's) and have its people sign in through, and join, their
// organization, or link their existing accounts to an issuer the owner controls.
// A verified domain belongs to one organization only (unique OrganizationSsoDomain.verifiedDomain); it stays
// verified until removed from the configuration. The resolver is node:dns's, on SSO_DNS_SERVERS when set.
import { Resolver } from 'node:dns/promises';
import { recordAudit } from '@/server/audit/record-audit';
import { db } from '@/server/db';
import { env } from '@/server/env';
import { AppError } from '@/server/errors';
import { organizationSsoSelect, toOrganizationSsoDto, VERIFICATION_RECORD_PREFIX, VERIFICATION_VALUE_PREFIX, type OrganizationSsoDto } from './sso-dto';

const isUniqueViolation = (err: unknown) => (err as { code?: string }).code === 'P2002';

/** The TXT strings at `name` (each record's character-strings joined), or why there are none. */
export async function lookupTxt(name: string): Promise<{ values: string[] } | { error: string }> {
  const resolver = new Resolver({ timeout: 3_000, tries: 2 });
  const servers = env().SSO_DNS_SERVERS;
  if (servers.length) resolver.setServers(servers);
  try {
    return { values: (await resolver.resolveTxt(name)).map((chunks) => chunks.join('')) };
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'ENOTFOUND' || code === 'ENODATA') return { error: `No TXT record found at ${name}` };
    return { error: `The DNS lookup of ${name} failed (${code ?? 'error'}); try again later` };
  }
}

export async function verifySsoDomains(p: { organizationId: string; origin: string; now?: Date }): Promise<OrganizationSsoDto> {
  const prisma = await db();
  const sso = await prisma.organizationSso.findUnique({ where: { organizationId: p.organizationId }, select: { domains: { where: { verifiedAt: null }, select: { id: true, domain: true, verificationToken: true } } } });
  if (!sso) throw new AppError('not_found', 'Single sign-on is not set up for this organization');
  const now = p.now ?? new Date();
  for (const d of sso.domains) {
    const name = `${VERIFICATION_RECORD_PREFIX}${d.domain}`;
    const expected = `${VERIFICATION_VALUE_PREFIX}${d.verificationToken}`;
    const found = await lookupTxt(name);
    let error: string | null = null;
    if ('error' in found) error = found.error;
    else if (!found.values.some((v) => v.trim() === expected)) error = `The TXT records at ${name} do not include ${expected}`;
    if (error) {
      await prisma.organizationSsoDomain.update({ where: { id: d.id }, data: { lastCheckedAt: now, lastCheckError: error } });
      continue;
    }
    try {
      await prisma.$transaction(async (tx) => {
        await tx.organizationSsoDomain.update({ where: { id: d.id }, data: { lastCheckedAt: now, lastCheckError: null, verifiedAt: now, verifiedDomain: d.domain } });
        await recordAudit(tx, { accountId: p.organizationId, action: 'sso.domain_verify', target: { type: 'sso_domain', id: d.domain }, after: { domain: d.domain, verified: true } });
      });
    } catch (err) {
      if (!isUniqueViolation(err)) throw err;
      await prisma.organizationSsoDomain.update({ where: { id: d.id }, data: { lastCheckedAt: now, lastCheckError: `${d.domain} is already verified by another organization` } });
    }
  }
  const row = await prisma.organizationSso.findUniqueOrThrow({ where: { organizationId: p.organizationId }, select: organizationSsoSelect });
  return toOrganizationSsoDto(row, p.origin);
}
