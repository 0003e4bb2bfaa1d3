import { getAdminUserOrThrow } from '@/server/admin/get-admin-user';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

/** One user with every account they can spend from: balance and latest credit movements. */
export const GET = adminRoute<{ id: string }>(async ({ params }) => getAdminUserOrThrow({ userId: params.id }));
