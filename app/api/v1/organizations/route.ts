import { apiRoute, parseBody } from '@/server/http/api-route';
import { authorizeUser } from '@/server/http/authorize';
import { createOrganization, createOrganizationInput } from '@/server/organizations/create-organization';

export const dynamic = 'force-dynamic';

export const POST = apiRoute(
  async ({ request, principal }) => {
    const { userId } = await authorizeUser(principal, 'me');
    const input = await parseBody(request, createOrganizationInput);
    return createOrganization({ userId, input });
  },
  { status: 201 },
);
