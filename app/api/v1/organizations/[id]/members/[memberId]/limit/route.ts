import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeOrganization } from '@/server/http/authorize';
import { getMemberLimit, setMemberLimit, setMemberLimitInput } from '@/server/organizations/member-limit';

export const dynamic = 'force-dynamic';

type Params = { id: string; memberId: string };

/** A member's spend limit and window spend: usage:read-all, or your own. `memberId` is the member's user id. */
export const GET = apiRoute<Params>(async ({ principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:read');
  return getMemberLimit({ access, actorUserId: principal.userId, memberId: params.memberId });
});

export const PUT = apiRoute<Params>(async ({ request, principal, params }) => {
  const access = await authorizeOrganization(principal, params.id, 'members:manage');
  const input = await parseBody(request, setMemberLimitInput);
  return setMemberLimit({ access, memberId: params.memberId, input });
});
