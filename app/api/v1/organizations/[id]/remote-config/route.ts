import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { resolveRemoteConfig } from '@/server/remote-config/resolve-remote-config';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'org:read');
  return resolveRemoteConfig({ accountId: access.accountId, organizationId: access.accountId });
});
