import { AppError } from '@/server/errors';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

// Anything else under /api/v1/admin/: 403 for everyone but an operator (no route list leaks), 404 for operators.
const unknownAdminPath = adminRoute<{ path: string[] }>(async ({ request }) => {
  throw new AppError('not_found', `No endpoint ${request.method} ${new URL(request.url).pathname}. See /docs (or /api/v1/openapi.json) for the API reference.`);
});

export { unknownAdminPath as GET, unknownAdminPath as POST, unknownAdminPath as PUT, unknownAdminPath as PATCH, unknownAdminPath as DELETE };
