import { AppError } from '@/server/errors';
import { json } from '@/server/http/api-route';
import { errorReplyForPath } from '@/server/http/error-reply-for-path';
import { requestIdFor } from '@/server/http/request-id';

export const dynamic = 'force-dynamic';

// Unknown /api/v1 paths answer with a JSON error rather than an HTML page, in the path's error shape: the
// spec's body, but Anthropic's under /api/v1/messages and OpenAI's under /api/v1/responses, as every other
// error on those paths (server/http/error-reply-for-path.ts).
function notFound(request: Request) {
  const path = new URL(request.url).pathname;
  const requestId = requestIdFor(request);
  const err = new AppError('not_found', `No endpoint ${request.method} ${path}. See /docs (or /api/v1/openapi.json) for the API reference.`);
  const { status, body, headers } = errorReplyForPath(path)(err, requestId);
  return json(body, status, { ...headers, 'x-request-id': requestId });
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
