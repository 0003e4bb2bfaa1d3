// The error shape of a path, for the errors the production server answers itself (405, 408, 431, …) rather than
// a route: the Anthropic Messages routes answer in Anthropic's shape, the OpenAI Responses routes in OpenAI's
// (as their own handlers do, README "Claude Code and the Anthropic SDK", "Codex CLI and the Responses API"),
// every other path in the spec's `{ error: { code, message, metadata } }`.
import { errorReply } from '@/server/errors';
import { messagesErrorReply } from '@/server/formats/anthropic-messages/messages-errors';
import { responsesErrorReply } from '@/server/formats/openai-responses/responses-error-reply';
import type { ErrorReplyOf } from '@/server/gateway/wire-format';

/**
 * /api/v1/messages and everything under it (count_tokens, and any path there that names no route: a client of
 * the Anthropic SDK gets its 404 in the shape the SDK reads). Not /api/v1/messagesX.
 */
const MESSAGES_ROUTE = /^\/api\/v1\/messages(\/|$)/;
/** /api/v1/responses, /api/v1/responses/{id} and everything under them (an unknown sub-path's 404 included). */
const RESPONSES_ROUTE = /^\/api\/v1\/responses(\/|$)/;

export type ErrorReplyRenderer = (err: unknown, requestId: string, where?: string) => ErrorReplyOf;

export function errorReplyForPath(pathname: string): ErrorReplyRenderer {
  if (MESSAGES_ROUTE.test(pathname)) return (err, requestId, where = 'request') => messagesErrorReply(err, requestId, where);
  if (RESPONSES_ROUTE.test(pathname)) return responsesErrorReply;
  return errorReply;
}

/**
 * The reply for an HTTP status outside our error vocabulary (408, 431): `err` gives the message and the type
 * (bad_request), `status` the status; the spec's body says the status in `error.code`, as for every plain
 * HTTP error. The native shapes carry no status in their body.
 */
export function errorReplyWithStatus(pathname: string, err: unknown, requestId: string, status: number): ErrorReplyOf {
  const reply = errorReplyForPath(pathname)(err, requestId);
  const body = reply.body as { error?: { code?: unknown; metadata?: unknown } };
  if (body.error && typeof body.error.metadata === 'object') body.error.code = status;
  return { ...reply, status };
}
