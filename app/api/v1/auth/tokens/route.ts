import { listAuthTokens } from '@/server/auth/auth-tokens';
import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(async ({ principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  return { data: await listAuthTokens({ userId }) };
});
