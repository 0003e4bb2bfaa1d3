import { listAdminUsers } from '@/server/admin/admin-users';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

/** Users by email or name substring, with their personal balance and organizations; cursor-paginated. */
export const GET = adminRoute(async ({ request }) => listAdminUsers(Object.fromEntries(new URL(request.url).searchParams)));
