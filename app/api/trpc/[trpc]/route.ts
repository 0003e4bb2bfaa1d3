import { fetchRequestHandler } from '@trpc/server/adapters/fetch';
import { errorReply } from '@/server/errors';
import { requestIdFor } from '@/server/http/request-id';
import { appRouter } from '@/server/trpc/root';
import { createTrpcContext } from '@/server/trpc/init';

export const dynamic = 'force-dynamic';

function handler(request: Request) {
  return fetchRequestHandler({
    endpoint: '/api/trpc',
    req: request,
    router: appRouter,
    createContext: ({ req }) => createTrpcContext({ req }),
    // A server fault is logged where every other edge logs it (errorReply decides; AppErrors are not faults).
    onError: ({ error, req }) => {
      if (error.code === 'INTERNAL_SERVER_ERROR') errorReply(error.cause ?? error, requestIdFor(req), 'tRPC');
    },
  });
}

export { handler as GET, handler as POST };
