import { getCurrentPlanRoute, subscribeRoute } from '@/server/billing/http/plan-routes';

export const dynamic = 'force-dynamic';

export const GET = getCurrentPlanRoute;
export const POST = subscribeRoute;
