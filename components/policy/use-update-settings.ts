'use client';

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useToast } from '@/components/console/toast';
import { useTRPC } from '@/components/console/trpc';

/** organization.update for settings only, refreshing the organization and toasting `success`. */
export function useUpdateSettings(success: string) {
  const trpc = useTRPC();
  const queryClient = useQueryClient();
  const toast = useToast();
  return useMutation(
    trpc.organization.update.mutationOptions({
      onSuccess: () => {
        toast(success);
        return queryClient.invalidateQueries({ queryKey: trpc.organization.get.queryKey() });
      },
    }),
  );
}
