import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { acceptInvite, acceptInviteInput } from '@/server/invites/accept-invite';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(async ({ request, principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  const input = await parseBody(request, acceptInviteInput);
  return acceptInvite({ userId, input });
});
