// The OpenAI Responses API (POST /api/v1/responses) as a wire format of the one gateway use case
// (server/gateway/wire-format.ts): what Codex CLI speaks. `store: false` is stateless (reasoning travels in
// encrypted_content); `store: true` keeps the response 30 days for its account (stored-responses.ts), and
// `previous_response_id` continues from it.
import type { FinalAnswer, RenderContext, WireFormat } from '@/server/gateway/wire-format';
import { parseResponsesRequest, responsesStateOf } from './parse-responses-request';
import { withInputItemIds } from './input-items';
import { completeResponse, outputItems, responseIdOf } from './render-response';
import { ResponsesStreamWriter } from './render-stream';
import { responsesErrorReply } from './responses-error-reply';
import { mayAccessStoredResponse, responseNotFound, saveStoredResponse } from './stored-responses';

/** The writer of each stream, so that `beforeFinal` stores exactly the items the client was sent. */
const writers = new WeakMap<RenderContext, ResponsesStreamWriter>();

export const openaiResponsesFormat: WireFormat = {
  id: 'openai-responses',
  parse: (json) => parseResponsesRequest(json),
  errorReply: (err, requestId, where) => responsesErrorReply(err, requestId, where),
  complete: (ctx, answer) => completeResponse(ctx, answer, responsesStateOf(ctx.req)?.includeEncrypted ?? false),
  stream(ctx) {
    const writer = new ResponsesStreamWriter(ctx);
    writers.set(ctx, writer);
    return writer;
  },
  async afterAdmission(req, principal) {
    const state = responsesStateOf(req);
    // Someone else's response answers exactly as a missing one: its existence is not told.
    if (state?.previousOwner !== undefined && !(await mayAccessStoredResponse(state.previousOwner, principal))) throw responseNotFound(state.request.previous_response_id!, 'previous_response_id');
  },
  async beforeFinal(ctx, principal, answer: FinalAnswer) {
    const state = responsesStateOf(ctx.req);
    if (!state?.request.store) return;
    const writer = writers.get(ctx);
    let output: Record<string, unknown>[];
    let response: Record<string, unknown>;
    if (writer) {
      writer.closeAll(answer.finishReason, answer.error);
      output = writer.items;
      // What the stream's terminal event will carry (finish/error render the same object).
      response = { ...completeResponse(ctx, answer, state.includeEncrypted), output: writer.visibleItems() };
    } else {
      // Kept with encrypted reasoning whatever `include` said: a continuation needs it.
      output = outputItems(ctx, answer.message, true, answer.finishReason, answer.error);
      response = completeResponse(ctx, answer, state.includeEncrypted);
    }
    const id = responseIdOf(ctx.generationId);
    await saveStoredResponse({
      id,
      accountId: principal.accountId,
      userId: principal.userId,
      apiKeyId: principal.apiKey?.id ?? null,
      model: ctx.model,
      conversation: withInputItemIds(state.conversation, id),
      output,
      response,
    });
  },
};
