import { storedResponseRoute } from '@/server/formats/openai-responses/stored-response-route';
import { deleteStoredResponse, getStoredResponseOrThrow } from '@/server/formats/openai-responses/stored-responses';

export const dynamic = 'force-dynamic';

/** GET /api/v1/responses/{id}: a response kept with `store: true`, to the user who made it (and roles that see everyone's usage). */
export const GET = storedResponseRoute(({ id, principal }) => getStoredResponseOrThrow({ id, accountId: principal.accountId }));

/** DELETE /api/v1/responses/{id}. */
export const DELETE = storedResponseRoute(({ id, principal }) => deleteStoredResponse({ id, accountId: principal.accountId }));
