import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { appRouter } from '@/server/trpc/root';
import { createTrpcContext } from '@/server/trpc/init';

export const dynamic = 'force-dynamic';

function handler(request: Request) {
  return fetchRequestHandler({ endpoint: '/api/trpc', req: request, router: appRouter, createContext: ({ req }) => createTrpcContext({ req }) });
}

export { handler as GET, handler as POST };
