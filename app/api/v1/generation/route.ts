import { apiRoute, parseQuery } from '@/server/http/api-route';
import { boundOrganizationOf } from '@/server/http/authorize';
import { generationQuery, getGeneration } from '@/server/usage/get-generation';

export const dynamic = 'force-dynamic';

/** GET /api/v1/generation?id=gen-… (OpenRouter's shape): to the user who made it, or who may read all usage of its account. */
export const GET = apiRoute(async ({ request, principal }) => {
  const { id } = parseQuery(request, generationQuery);
  return { data: await getGeneration({ userId: principal.userId, generationId: id, withinAccountId: await boundOrganizationOf(principal) }) };
});
