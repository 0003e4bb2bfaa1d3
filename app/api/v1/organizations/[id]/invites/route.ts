import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { publicOrigin } from '@/server/http/public-origin';
import { createInvites, createInvitesInput } from '@/server/invites/create-invites';
import { listPendingInvites } from '@/server/invites/list-invites';

export const dynamic = 'force-dynamic';

type Params = { id: string };

export const GET = apiRoute<Params>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'invites:read');
  return { data: await listPendingInvites({ organizationId: access.accountId }) };
});

/** One result per email (invited / already_member); 200 even when some were not invited. */
export const POST = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'invites:manage');
  const input = await parseBody(request, createInvitesInput);
  return createInvites({ organizationId: access.accountId, actor: { userId: principal.userId, role: access.role }, input, origin: publicOrigin(request.headers) });
});
