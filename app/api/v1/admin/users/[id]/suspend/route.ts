import { suspendUser } from '@/server/admin/admin-users';
import { adminRoute } from '@/server/http/admin-route';
import { parseBody } from '@/server/http/api-route';
import { z } from 'zod';

export const dynamic = 'force-dynamic';

/** Suspends the user: their keys, tokens and sign-in are refused (403 user_suspended) from the next request. */
export const POST = adminRoute<{ id: string }>(async ({ request, principal, params }) =>
  suspendUser({ operatorUserId: principal.userId, userId: params.id, body: await parseBody(request, z.unknown()) }),
);
