// Test support for the account endpoints: users holding an account auth token, an organization with one
// member per role plus a stranger, and a tiny JSON client for the API test server.
import { issueAuthToken } from '@/server/auth/auth-tokens';
import { db } from '@/server/db';
import { createOrganization } from '@/server/organizations/create-organization';
import type { Role } from '@/server/organizations/permissions';
import { createUser } from '@/server/users/create-user';

export interface TestUser {
  id: string;
  email: string;
  personalAccountId: string;
  /** An account auth token (sb-at-v1-…). */
  token: string;
  tokenId: string;
}

let n = 0;
export const uniqueEmail = (label = 'u') => `${label}-${process.pid}-${++n}-${Math.random().toString(36).slice(2, 7)}@example.com`;

export async function testUser(label = 'u', email = uniqueEmail(label)): Promise<TestUser> {
  const user = await createUser({ email, name: label });
  const { token, authToken } = await issueAuthToken({ userId: user.id, deviceName: `${label} test`, clientKind: 'cli' });
  return { id: user.id, email: user.email, personalAccountId: user.personal_account_id, token, tokenId: authToken.id };
}

export async function addMember(organizationId: string, userId: string, role: Role): Promise<void> {
  const prisma = await db();
  await prisma.membership.create({ data: { organizationId, userId, role } });
}

export type Persona = 'stranger' | 'member' | 'billing' | 'admin' | 'owner';
export const PERSONAS: Persona[] = ['stranger', 'member', 'billing', 'admin', 'owner'];

export interface OrganizationWorld {
  organizationId: string;
  owner: TestUser;
  admin: TestUser;
  billing: TestUser;
  member: TestUser;
  stranger: TestUser;
}

/** An organization with an owner, an admin, a billing manager and a member, and a user outside it. */
export async function organizationWorld(name = 'Acme'): Promise<OrganizationWorld> {
  const [owner, admin, billing, member, stranger] = await Promise.all(['owner', 'admin', 'billing', 'member', 'stranger'].map((l) => testUser(l)));
  const org = await createOrganization({ userId: owner.id, input: { name } });
  await addMember(org.id, admin.id, 'ADMIN');
  await addMember(org.id, billing.id, 'BILLING');
  await addMember(org.id, member.id, 'MEMBER');
  return { organizationId: org.id, owner, admin, billing, member, stranger };
}

export interface JsonResponse {
  status: number;
  body: any;
  headers: Headers;
}

/** `call('GET', '/users/me', token)` against `${origin}/api/v1`. */
export function jsonClient(origin: () => string) {
  return async (method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}): Promise<JsonResponse> => {
    const res = await fetch(`${origin()}/api/v1${path}`, {
      method,
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': 'application/json', ...headers },
      body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = await res.text();
    let parsed: unknown = null;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, headers: res.headers };
  };
}
