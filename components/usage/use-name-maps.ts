'use client';

// Names for the ids usage rows carry: API keys of the active account, and members of an organization when
// the caller may see everyone's usage.
import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { useConsoleSession } from '@/components/console/console-session';
import { useTRPC } from '@/components/console/trpc';

export function useNameMaps() {
  const trpc = useTRPC();
  const { can, isOrganization } = useConsoleSession();
  const showMembers = isOrganization && can('usage:read-all');
  const keys = useQuery({ ...trpc.apiKeys.list.queryOptions(), enabled: can('keys:create') });
  const members = useQuery({ ...trpc.organization.members.queryOptions(), enabled: showMembers });
  return useMemo(
    () => ({
      keys: keys.data ?? [],
      members: members.data ?? [],
      keyNames: new Map((keys.data ?? []).map((k) => [k.id, k.name])),
      memberNames: showMembers ? new Map((members.data ?? []).map((m) => [m.id, m.name || m.email])) : undefined,
    }),
    [keys.data, members.data, showMembers],
  );
}
