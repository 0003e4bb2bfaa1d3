import { updateSeatsRoute } from '@/server/billing/http/plan-routes';

export const dynamic = 'force-dynamic';

export const PUT = updateSeatsRoute;
