// The sign-in page's SSO step: the email's domain picks the organization whose SSO has verified it; any other
// address goes to the instance-wide issuer when there is one. Exact domains only (a verified acme.com does not
// cover eu.acme.com: each subdomain's DNS is verified on its own).
import { db } from '@/server/db';
import { emailSchema } from '@/server/users/create-user';
import { organizationProviderId } from './sso-dto';
import { instanceOidcProvider, INSTANCE_PROVIDER_ID } from './sso-providers';

export type SsoRoute = { kind: 'organization'; organizationId: string; providerId: string; organizationName: string } | { kind: 'instance'; providerId: string };

export async function findSsoForEmail(rawEmail: string): Promise<SsoRoute | null> {
  const parsed = emailSchema.safeParse(rawEmail);
  if (!parsed.success) return null;
  const domain = parsed.data.slice(parsed.data.lastIndexOf('@') + 1);
  const prisma = await db();
  const found = await prisma.organizationSsoDomain.findUnique({ where: { verifiedDomain: domain }, select: { organizationId: true, sso: { select: { organization: { select: { name: true } } } } } });
  if (found) return { kind: 'organization', organizationId: found.organizationId, providerId: organizationProviderId(found.organizationId), organizationName: found.sso.organization.name };
  return instanceOidcProvider() ? { kind: 'instance', providerId: INSTANCE_PROVIDER_ID } : null;
}

/** Whether the sign-in page offers the SSO step: an instance-wide issuer, or an organization's verified domain. */
export async function ssoAvailable(): Promise<boolean> {
  if (instanceOidcProvider()) return true;
  const prisma = await db();
  return (await prisma.organizationSsoDomain.findFirst({ where: { verifiedAt: { not: null } }, select: { id: true } })) !== null;
}
