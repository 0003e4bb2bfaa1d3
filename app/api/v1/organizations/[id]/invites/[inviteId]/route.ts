import { apiRoute } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { revokeInvite } from '@/server/invites/revoke-invite';

export const dynamic = 'force-dynamic';

export const DELETE = apiRoute<{ id: string; inviteId: string }>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'invites:manage');
  return { deleted: true, invite: await revokeInvite({ organizationId: access.accountId, inviteId: params.inviteId }) };
});
