'use client';

// Switching the active account: the server remembers it (set-active-account), then every cached query is
// dropped and refetched (they all belong to the previous account) and the layout re-renders on the server.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouter } from 'next/navigation';
import { useTRPC, useTRPCClient } from './trpc';

export function useSwitchAccount() {
  const trpc = useTRPC();
  const client = useTRPCClient();
  const queryClient = useQueryClient();
  const router = useRouter();
  return useMutation({
    mutationFn: async (accountId: string) => {
      await client.account.setActive.mutate({ account_id: accountId });
      const session = await client.account.session.query();
      const sessionKey = trpc.account.session.queryKey();
      queryClient.setQueryData(sessionKey, session);
      await queryClient.resetQueries({ predicate: (q) => JSON.stringify(q.queryKey) !== JSON.stringify(sessionKey) });
      router.refresh();
      return session;
    },
  });
}
