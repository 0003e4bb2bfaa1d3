import { createApiKey, createApiKeyInput } from '@/server/api-keys/create-api-key';
import { listAccountApiKeys, listApiKeys } from '@/server/api-keys/list-api-keys';
import { apiRoute, parseBody } from '@/server/http/api-route';
import { accountWithinKeyScope, boundOrganizationOf } from '@/server/http/authorize';

export const dynamic = 'force-dynamic';

/** The caller's keys; for a key bound to an organization, that organization's keys only. */
export const GET = apiRoute(async ({ principal }) => {
  const organizationId = await boundOrganizationOf(principal);
  if (organizationId) return { data: await listAccountApiKeys({ userId: principal.userId, accountId: organizationId }) };
  return { data: await listApiKeys({ userId: principal.userId }) };
});

export const POST = apiRoute(
  async ({ request, principal }) => {
    const input = await parseBody(request, createApiKeyInput);
    const accountId = await accountWithinKeyScope(principal, input.account_id);
    const { key, apiKey } = await createApiKey({ userId: principal.userId, input: { ...input, account_id: accountId } });
    // The only time the secret is ever returned.
    return { key, data: apiKey };
  },
  { status: 201 },
);
