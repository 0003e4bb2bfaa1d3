import { adminUsage } from '@/server/admin/admin-usage';
import { adminRoute } from '@/server/http/admin-route';

export const dynamic = 'force-dynamic';

/** Usage of every account: requests, tokens, charged, provider cost and margin, grouped by model, provider or account. */
export const GET = adminRoute(async ({ request }) => adminUsage(Object.fromEntries(new URL(request.url).searchParams)));
