// The console playground's chat endpoint: the real gateway (the same admission, reservation, streaming and
// settlement as /api/v1/chat/completions) for the signed-in user, billed to their active account. The
// browser reads the SSE stream with fetch. Cookie-authenticated, so it refuses cross-site requests: the
// session cookie is SameSite=Lax already, and a request whose Origin is another site is a 403 as well.
import { clientOf } from '@/server/audit/audit-actors';
import { authOfRequest } from '@/server/auth/next-auth';
import { sessionPrincipal } from '@/server/console/session-principal';
import { AppError, toErrorBody } from '@/server/errors';
import { handleChatRequest } from '@/server/gateway/route-handler';
import { publicOrigin } from '@/server/http/public-origin';
import { processRuntime } from '@/server/runtime/process-runtime';

export const dynamic = 'force-dynamic';

function errorResponse(err: AppError): Response {
  const { status, body, headers } = toErrorBody(err);
  return Response.json(body, { status, headers });
}

export async function POST(request: Request): Promise<Response> {
  const origin = request.headers.get('origin');
  if (origin && origin !== publicOrigin(request.headers) && origin !== new URL(request.url).origin) {
    return errorResponse(new AppError('forbidden', 'Cross-site requests are not allowed'));
  }
  const session = await authOfRequest(request);
  const userId = session?.user?.id;
  const principal = userId ? await sessionPrincipal({ userId, browserSessionId: session.sid, client: clientOf(request.headers) }) : null;
  if (!principal) return errorResponse(new AppError('unauthorized', 'Sign in to use the playground'));
  return handleChatRequest(processRuntime(), request, principal);
}
