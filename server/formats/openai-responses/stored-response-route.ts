// GET and DELETE /api/v1/responses/{id} and GET /api/v1/responses/{id}/input_items as route handlers: authenticate (Bearer or x-api-key, as on the POST),
// act for the caller's account (and only on a response the caller may see: assertStoredResponseVisible), answer in OpenAI's shapes (errors included, like the POST).
import { z } from 'zod';
import { authenticateBearer, type Principal } from '@/server/auth/authenticate-bearer';
import { badRequestFromZod } from '@/server/errors';
import { authorizationHeader } from '@/server/gateway/admit';
import { json } from '@/server/http/api-route';
import { requestIdFor } from '@/server/http/request-id';
import { safeString } from '@/server/validation/fields';
import { responsesErrorReply } from './responses-error-reply';
import { assertStoredResponseVisible } from './stored-responses';

const params = z.object({ id: safeString().min(1).max(200) });

export function storedResponseRoute(handler: (input: { id: string; principal: Principal; query: URLSearchParams }) => Promise<unknown>) {
  return async (request: Request, context: { params: Promise<{ id: string }> }): Promise<Response> => {
    const requestId = requestIdFor(request);
    try {
      const principal = await authenticateBearer(authorizationHeader({ header: (name) => request.headers.get(name) ?? undefined }));
      const parsed = params.safeParse(await context.params);
      if (!parsed.success) throw badRequestFromZod(parsed.error);
      // Another member's response (without usage:read-all) answers as a missing one.
      await assertStoredResponseVisible(parsed.data.id, principal);
      return json(await handler({ id: parsed.data.id, principal, query: new URL(request.url).searchParams }), 200, { 'x-request-id': requestId });
    } catch (err) {
      const { status, body, headers } = responsesErrorReply(err, requestId);
      return json(body, status, { ...headers, 'x-request-id': requestId });
    }
  };
}
