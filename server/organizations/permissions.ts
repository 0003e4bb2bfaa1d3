// The permission matrix, in one place (README "Accounts, organizations and keys" lists it per role; a test
// holds the two together). Personal accounts: the owner may do everything. Organizations:
//   member  — use the organization's models (keys of their own), see their own usage and the members
//   billing — a member's, plus pay (credits, card, auto top-up, promotion codes, plans); all usage; pending invites
//   admin   — everything but paying, plans, owners, single sign-on and deleting the organization: members,
//             invites, everyone's keys, provider keys, settings, webhooks, the audit log; reads billing
//   owner   — everything
// Admins do not pay: spending the organization's money is the billing role's (GitHub's billing manager,
// Contentful's admin-without-billing), so finance and administration can be given to different people.
export type Role = 'OWNER' | 'ADMIN' | 'BILLING' | 'MEMBER';

export const PERMISSIONS = {
  'org:read': ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'],
  'org:update': ['OWNER', 'ADMIN'],
  'org:delete': ['OWNER'],
  'members:read': ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'],
  'members:manage': ['OWNER', 'ADMIN'],
  /** Grant, revoke or remove the owner role (on top of members:manage). */
  'members:manage-owners': ['OWNER'],
  /** Pending invites and their count (billing sees them: pending invites become seats). */
  'invites:read': ['OWNER', 'ADMIN', 'BILLING'],
  'invites:manage': ['OWNER', 'ADMIN'],
  'keys:create': ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'],
  'keys:manage-all': ['OWNER', 'ADMIN'],
  /** The organization's own provider keys (bring your own key): set, list masked, delete. */
  'provider-keys:manage': ['OWNER', 'ADMIN'],
  'usage:read-own': ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'],
  'usage:read-all': ['OWNER', 'ADMIN', 'BILLING'],
  'billing:read': ['OWNER', 'ADMIN', 'BILLING'],
  'billing:manage': ['OWNER', 'BILLING'],
  'plan:manage': ['OWNER', 'BILLING'],
  'chat:use': ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'],
  /** Webhooks (their URLs, events and delivery log). */
  'webhooks:manage': ['OWNER', 'ADMIN'],
  /** The audit log: who changed what, from where. */
  'audit:read': ['OWNER', 'ADMIN'],
  /** The organization's single sign-on: its issuer, client secret, domains and the role people join with. */
  'sso:manage': ['OWNER'],
} as const satisfies Record<string, readonly Role[]>;

export type Permission = keyof typeof PERMISSIONS;

export function roleAllows(role: Role, permission: Permission): boolean {
  return (PERMISSIONS[permission] as readonly Role[]).includes(role);
}

export const ROLE_DESCRIPTIONS: Record<Role, string> = {
  OWNER: 'Everything, including deleting the organization and managing owners',
  ADMIN: 'Manage members, invites, API keys, provider keys, webhooks and settings; see all usage, billing and the audit log (paying and plans are for owners and billing)',
  BILLING: 'Manage payments, credits, auto top-up and plans; see all usage',
  MEMBER: "Use the organization's models with their own keys and see their own usage",
};

export const ROLES: readonly Role[] = ['OWNER', 'ADMIN', 'BILLING', 'MEMBER'];

/** The permissions a role holds, in matrix order. */
export function permissionsOf(role: Role): Permission[] {
  return (Object.keys(PERMISSIONS) as Permission[]).filter((p) => roleAllows(role, p));
}

/**
 * Roles a member may give to others (by invite or role change): owners any role; whoever may manage
 * members any role but owner; everyone else none.
 */
export function assignableRoles(role: Role): Role[] {
  if (roleAllows(role, 'members:manage-owners')) return [...ROLES];
  if (roleAllows(role, 'members:manage')) return ROLES.filter((r) => r !== 'OWNER');
  return [];
}
