import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { deleteUser } from '@/server/users/delete-user';
import { getUserProfile } from '@/server/users/get-user-profile';
import { updateUserProfile, updateUserProfileInput } from '@/server/users/update-user-profile';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(async ({ principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  return getUserProfile({ userId });
});

export const PATCH = apiRoute(async ({ request, principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  const input = await parseBody(request, updateUserProfileInput);
  return updateUserProfile({ userId, input });
});

export const DELETE = apiRoute(async ({ principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  return deleteUser({ userId });
});
