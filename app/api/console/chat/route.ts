// The console playground's chat endpoint: the real gateway (the same admission, reservation, streaming and
// settlement as /api/v1/chat/completions) for the signed-in user, billed to their active account. The
// browser reads the SSE stream with fetch. Cookie-authenticated, so it refuses cross-site requests: the
// session cookie is SameSite=Lax already, and a request whose Origin is another site is a 403 as well.
import { clientOf } from '@/server/audit/audit-actors';
import { authOfRequest } from '@/server/auth/next-auth';
import { sessionPrincipal } from '@/server/console/session-principal';
import { AppError } from '@/server/errors';
import { handleChatRequest } from '@/server/gateway/route-handler';
import { errorResponse } from '@/server/http/api-route';
import { publicOrigin } from '@/server/http/public-origin';
import { requestIdFor } from '@/server/http/request-id';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

export async function POST(request: Request): Promise<Response> {
  // Its own refusals carry the request's id (metadata.request_id and x-request-id), as every other error does:
  // the one server/main.ts assigned (requestIdFor), so the body, the header and the access log agree.
  const origin = request.headers.get('origin');
  if (origin && origin !== publicOrigin(request.headers) && origin !== new URL(request.url).origin) {
    return errorResponse(new AppError('forbidden', 'Cross-site requests are not allowed'), requestIdFor(request));
  }
  const session = await authOfRequest(request);
  const userId = session?.user?.id;
  const principal = userId ? await sessionPrincipal({ userId, browserSessionId: session.sid, client: clientOf(request.headers) }) : null;
  if (!principal) return errorResponse(new AppError('unauthorized', 'Sign in to use the playground'), requestIdFor(request));
  return handleChatRequest(processRuntime(), request, principal);
}
