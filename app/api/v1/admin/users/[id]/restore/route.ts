import { restoreUser } from '@/server/admin/admin-users';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

/** Lifts a suspension. */
export const POST = adminRoute<{ id: string }>(async ({ principal, params }) => restoreUser({ operatorUserId: principal.userId, userId: params.id }));
