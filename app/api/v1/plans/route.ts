import { listPlansRoute } from '@/server/billing/http/plan-routes';

export const dynamic = 'force-dynamic';

export const GET = listPlansRoute;
