import { cancelPlanRoute, planDetailsRoute } from '@/server/billing/http/plan-routes';

export const dynamic = 'force-dynamic';

export const GET = planDetailsRoute;
export const DELETE = cancelPlanRoute;
