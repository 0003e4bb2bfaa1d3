import { AppError } from '@/server/errors';
import { errorResponse } from '@/server/http/api-route';
import { requestIdFor } from '@/server/http/request-id';

export const dynamic = 'force-dynamic';

// Unknown /api/v1 paths answer with the spec's error body rather than an HTML page.
function notFound(request: Request) {
  const path = new URL(request.url).pathname;
  return errorResponse(new AppError('not_found', `No endpoint ${request.method} ${path}. See /docs (or /api/v1/openapi.json) for the API reference.`), requestIdFor(request));
}

export { notFound as GET, notFound as POST, notFound as PUT, notFound as PATCH, notFound as DELETE };
