import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { setActiveAccount, setActiveAccountInput } from '@/server/users/set-active-account';

export const dynamic = 'force-dynamic';

export const PUT = apiRoute(async ({ request, principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  const input = await parseBody(request, setActiveAccountInput);
  return setActiveAccount({ userId, input });
});
