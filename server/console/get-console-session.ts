// What the console shell needs on every page: who is signed in, the accounts they can switch between
// (their personal account and each organization they belong to), the active one and what their role there
// allows. Permissions come from the one matrix (server/organizations/permissions.ts), so the console hides
// exactly the buttons the server would refuse.
import { isOperatorUser } from '@/server/auth/operator';
import { permissionsOf, type Permission, type Role } from '@/server/organizations/permissions';
import { getUserProfile } from '@/server/users/get-user-profile';

export type ConsoleRole = Lowercase<Role>;

export interface ConsoleAccount {
  id: string;
  kind: 'personal' | 'organization';
  name: string;
  slug: string | null;
  /** The caller's role; owner of their personal account. */
  role: ConsoleRole;
}

export interface ConsoleSession {
  user: { id: string; email: string; name: string; image: string | null };
  /** Runs this instance (server/auth/operator.ts): the console shows the Operator pages. */
  operator: boolean;
  /** The account every console page acts on. */
  active: ConsoleAccount & { permissions: Permission[] };
  accounts: ConsoleAccount[];
}

const ROLE_NAMES = new Set<string>(['owner', 'admin', 'billing', 'member']);

export async function getConsoleSession(p: { userId: string }): Promise<ConsoleSession> {
  const [profile, operator] = await Promise.all([getUserProfile({ userId: p.userId }), isOperatorUser(p.userId)]);
  const accounts: ConsoleAccount[] = [
    { id: profile.personal_account_id, kind: 'personal', name: 'Personal', slug: null, role: 'owner' },
    ...profile.organizations
      .filter((o) => ROLE_NAMES.has(o.role))
      .map((o) => ({ id: o.id, kind: 'organization' as const, name: o.name, slug: o.slug, role: o.role as ConsoleRole })),
  ];
  // An active account the user no longer belongs to (a race with removal) falls back to the personal one,
  // the same account the server would switch them back to.
  const active = accounts.find((a) => a.id === profile.active_account_id) ?? accounts[0];
  return {
    user: { id: profile.id, email: profile.email, name: profile.name, image: profile.image },
    operator,
    active: { ...active, permissions: permissionsOf(active.role.toUpperCase() as Role) },
    accounts,
  };
}
