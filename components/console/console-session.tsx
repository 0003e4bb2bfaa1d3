'use client';

// The signed-in user, the active account and what their role there allows, for every console component.
// The layout renders it on the server (no flash of the wrong account); the query keeps it fresh.
import { useQuery } from '@tanstack/react-query';
import { createContext, useContext, type ReactNode } from 'react';
import type { ConsoleSession } from '@/server/console/get-console-session';
import type { Permission } from '@/server/organizations/permissions';
import { useTRPC } from './trpc';

const InitialSession = createContext<ConsoleSession | null>(null);

export function ConsoleSessionProvider({ initial, children }: { initial: ConsoleSession; children: ReactNode }) {
  return <InitialSession.Provider value={initial}>{children}</InitialSession.Provider>;
}

export function useConsoleSession() {
  const initial = useContext(InitialSession);
  const trpc = useTRPC();
  const query = useQuery({ ...trpc.account.session.queryOptions(), initialData: initial ?? undefined, staleTime: 60_000 });
  const session = query.data ?? initial;
  if (!session) throw new Error('useConsoleSession outside the console layout');
  const permissions = new Set<Permission>(session.active.permissions);
  return {
    session,
    account: session.active,
    isOrganization: session.active.kind === 'organization',
    /** Whether the caller's role on the active account allows `permission` (the server checks again). */
    can: (permission: Permission) => permissions.has(permission),
  };
}
