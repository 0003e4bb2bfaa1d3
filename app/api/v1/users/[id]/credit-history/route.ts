import { creditHistoryRoute } from '@/server/billing/http/billing-routes';

export const dynamic = 'force-dynamic';

export const GET = creditHistoryRoute('users');
