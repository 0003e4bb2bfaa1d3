'use client';

// Client state for the console (used by app/(console)/layout.tsx only, so marketing and auth pages ship no
// query client): TanStack Query + the tRPC client over one batched HTTP link to /api/trpc. A session that
// ends while a page is open (signed out elsewhere) sends the browser to sign in and back.
import { MutationCache, QueryCache, QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { createTRPCClient, httpBatchLink, TRPCClientError } from '@trpc/client';
import { useState, type ReactNode } from 'react';
import { z } from 'zod';
import type { AppRouter } from '@/server/trpc/root';
import { TRPCProvider } from './console/trpc';

// Pages run under a Content-Security-Policy without 'unsafe-eval' (server/http/security-headers.ts). Zod would
// probe for eval (Function("")) to compile faster parsers, which the browser reports as a policy violation.
z.config({ jitless: true });

function signInAgainOnUnauthorized(error: unknown) {
  if (error instanceof TRPCClientError && error.data?.code === 'UNAUTHORIZED' && typeof window !== 'undefined') {
    const here = window.location.pathname + window.location.search;
    // A full navigation on purpose: the sign-in page and the layout's session check run on the server.
    // eslint-disable-next-line @next/next/no-location-assign-relative-destination
    window.location.assign(`/sign-in?callbackUrl=${encodeURIComponent(here)}`);
  }
}

function makeQueryClient() {
  return new QueryClient({
    queryCache: new QueryCache({ onError: signInAgainOnUnauthorized }),
    mutationCache: new MutationCache({ onError: signInAgainOnUnauthorized }),
    defaultOptions: {
      queries: {
        // Refetch on mount and focus: spend, balances and last-used times move while the console is open.
        staleTime: 0,
        // A 4xx will not fix itself; retry only what may be transient.
        retry: (count, error) => count < 2 && !(error instanceof TRPCClientError && typeof error.data?.httpStatus === 'number' && error.data.httpStatus < 500),
        refetchOnWindowFocus: true,
      },
    },
  });
}

export function Providers({ children }: { children: ReactNode }) {
  const [queryClient] = useState(makeQueryClient);
  const [trpcClient] = useState(() => createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: '/api/trpc' })] }));
  return (
    <QueryClientProvider client={queryClient}>
      <TRPCProvider trpcClient={trpcClient} queryClient={queryClient}>
        {children}
      </TRPCProvider>
    </QueryClientProvider>
  );
}
