import { listAuthTokens } from '@/server/auth/auth-tokens';
import { apiRoute } from '@/server/http/api-route';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(async ({ principal }) => ({ data: await listAuthTokens({ userId: principal.userId }) }));
