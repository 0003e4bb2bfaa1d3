// PUT /api/v1/organizations/{id}/sso (owners): creates or replaces the organization's OpenID Connect issuer,
// its client, the email domains it serves and the role people join with. The client secret is encrypted at
// rest (secret-box) and never returned; omitted on a later PUT, the stored one stays. Domains kept from the
// previous configuration keep their verification; new ones get a token to publish (verify-sso-domains.ts).
import { randomBytes } from 'node:crypto';
import { encryptSecret, SecretBoxError, secretHint } from '@/server/crypto/secret-box';
import { recordAudit } from '@/server/audit/record-audit';
import { db, type Prisma } from '@/server/db';
import { AppError } from '@/server/errors';
import { toRole } from '@/server/organizations/member-dto';
import { checkIssuerDiscovery } from './check-issuer-discovery';
import { organizationSsoSelect, setOrganizationSsoInput, toOrganizationSsoDto, type OrganizationSsoDto, type SetOrganizationSsoInput } from './sso-dto';

/** What the audit log keeps of a configuration: no secret, no token. */
export function ssoAuditShape(row: { issuer: string; clientId: string; clientSecretHint: string; defaultRole: string; domains: { domain: string; verifiedAt: Date | null }[] }) {
  return {
    issuer: row.issuer,
    client_id: row.clientId,
    client_secret_hint: row.clientSecretHint,
    default_role: row.defaultRole.toLowerCase(),
    domains: row.domains.map((d) => ({ domain: d.domain, verified: d.verifiedAt !== null })),
  };
}

function encryptClientSecret(secret: string): { encryptedClientSecret: string; clientSecretHint: string } {
  try {
    return { encryptedClientSecret: encryptSecret(secret), clientSecretHint: secretHint(secret) };
  } catch (err) {
    if (err instanceof SecretBoxError) throw new AppError('service_unavailable', 'The server cannot store secrets: its operator must set ENCRYPTION_KEY');
    throw err;
  }
}

export async function setOrganizationSso(p: { organizationId: string; input: SetOrganizationSsoInput; origin: string }): Promise<OrganizationSsoDto> {
  const input = setOrganizationSsoInput.parse(p.input);
  const issuer = await checkIssuerDiscovery(input.issuer);
  const domains = [...new Set(input.domains)];
  const secret = input.client_secret !== undefined ? encryptClientSecret(input.client_secret) : undefined;
  const prisma = await db();
  const row = await prisma.$transaction(async (tx: Prisma.TransactionClient) => {
    const before = await tx.organizationSso.findUnique({ where: { organizationId: p.organizationId }, select: organizationSsoSelect });
    if (!before && !secret) throw new AppError('bad_request', 'client_secret is required when single sign-on is first set up');
    const fields = { issuer, clientId: input.client_id, defaultRole: toRole(input.default_role), ...secret };
    if (before) await tx.organizationSso.update({ where: { organizationId: p.organizationId }, data: fields });
    else await tx.organizationSso.create({ data: { organizationId: p.organizationId, ...fields, encryptedClientSecret: secret!.encryptedClientSecret, clientSecretHint: secret!.clientSecretHint } });
    await tx.organizationSsoDomain.deleteMany({ where: { organizationId: p.organizationId, domain: { notIn: domains } } });
    const kept = new Set(before?.domains.map((d) => d.domain));
    const added = domains.filter((d) => !kept.has(d));
    if (added.length) {
      await tx.organizationSsoDomain.createMany({ data: added.map((domain) => ({ organizationId: p.organizationId, domain, verificationToken: randomBytes(24).toString('base64url') })) });
    }
    const after = await tx.organizationSso.findUniqueOrThrow({ where: { organizationId: p.organizationId }, select: organizationSsoSelect });
    await recordAudit(tx, {
      accountId: p.organizationId,
      action: before ? 'sso.update' : 'sso.create',
      target: { type: 'sso', id: p.organizationId },
      before: before ? ssoAuditShape(before) : undefined,
      after: ssoAuditShape(after),
    });
    return after;
  });
  return toOrganizationSsoDto(row, p.origin);
}
