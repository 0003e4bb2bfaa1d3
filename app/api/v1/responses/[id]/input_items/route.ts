import { listInputItemsOrThrow, parseInputItemsQuery } from '@/server/formats/openai-responses/input-items';
import { storedResponseRoute } from '@/server/formats/openai-responses/stored-response-route';

export const dynamic = 'force-dynamic';

/** GET /api/v1/responses/{id}/input_items: the items a stored response was generated from, as OpenAI's cursor page. */
export const GET = storedResponseRoute(({ id, principal, query }) => listInputItemsOrThrow({ id, accountId: principal.accountId, query: parseInputItemsQuery(query) }));
