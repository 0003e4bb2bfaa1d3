'use client';

// A row deleted from a list (a key, a session, an invite) disappears at once; if the server refuses, it
// comes back and the error is shown. Spread into a tRPC mutation's options.
import { useQueryClient, type QueryKey } from '@tanstack/react-query';
import { errorMessage } from './errors';
import { useToast } from './toast';

/**
 * @param listKey the query holding the list the row is removed from
 * @param success what to say once the server agreed
 * @param refreshKey what to refetch afterwards (default: the list)
 */
export function useOptimisticRemoval<Row extends { id: string }>(listKey: QueryKey, success: string, refreshKey: QueryKey = listKey) {
  const queryClient = useQueryClient();
  const toast = useToast();
  return {
    onMutate: async ({ id }: { id: string }) => {
      await queryClient.cancelQueries({ queryKey: listKey });
      const previous = queryClient.getQueryData<Row[]>(listKey);
      queryClient.setQueryData<Row[]>(listKey, (old) => old?.filter((r) => r.id !== id));
      return { previous };
    },
    onError: (err: unknown, _vars: unknown, context: { previous?: Row[] } | undefined) => {
      if (context?.previous) queryClient.setQueryData(listKey, context.previous);
      toast(errorMessage(err), 'error');
    },
    onSuccess: () => toast(success),
    onSettled: () => queryClient.invalidateQueries({ queryKey: refreshKey }),
  };
}
