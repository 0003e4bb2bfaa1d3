import { purchaseRoute } from '@/server/billing/http/billing-routes';

export const dynamic = 'force-dynamic';

export const POST = purchaseRoute('organizations');
