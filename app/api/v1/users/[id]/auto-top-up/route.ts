import { getAutoTopUpRoute, putAutoTopUpRoute } from '@/server/billing/http/billing-routes';

export const dynamic = 'force-dynamic';

export const GET = getAutoTopUpRoute('users');
export const PUT = putAutoTopUpRoute('users');
