'use client';

// The console's typed tRPC hooks (@trpc/tanstack-react-query): `const trpc = useTRPC()` then
// `useQuery(trpc.apiKeys.list.queryOptions())`. Only the router's type crosses into the browser bundle.
import type { inferRouterOutputs } from '@trpc/server';
import { createTRPCContext } from '@trpc/tanstack-react-query';
import type { AppRouter } from '@/server/trpc/root';

export const { TRPCProvider, useTRPC, useTRPCClient } = createTRPCContext<AppRouter>();

export type RouterOutputs = inferRouterOutputs<AppRouter>;
