import { apiRoute } from '@/server/http/api-route';
import { getCredits } from '@/server/ledger/get-credits';

export const dynamic = 'force-dynamic';

/** Total credit added to and used from the caller's account (OpenRouter's GET /api/v1/credits). */
export const GET = apiRoute(async ({ principal }) => ({ data: await getCredits({ userId: principal.userId, accountId: principal.accountId }) }));
