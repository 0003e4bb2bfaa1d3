import { apiRoute } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { resolveUserRemoteConfig } from '@/server/remote-config/resolve-remote-config';

export const dynamic = 'force-dynamic';

export const GET = apiRoute(async ({ principal }) => {
  const { userId } = await authorizeUser(principal, 'me');
  return resolveUserRemoteConfig({ userId });
});
