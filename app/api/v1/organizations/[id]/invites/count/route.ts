import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { countPendingInvites } from '@/server/invites/list-invites';

export const dynamic = 'force-dynamic';

export const GET = apiRoute<{ id: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'invites:read');
  return countPendingInvites({ organizationId: access.accountId });
});
