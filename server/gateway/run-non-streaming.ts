import { AppError, errorReply } from '@/server/errors';
import type { AssistantMessage, ConvertedResponse } from '@/server/providers/types';
import type { Admission } from './admit';
import { maxOutputTokens } from './cost';
import { chargeFor, type GenerationOutcome } from './outcome';
import { capCompleteAnswer } from './output-limit';
import { openRoute } from './open-route';
import type { Runtime } from '@/server/runtime/runtime';
import type { ChatTransport } from './transport';
import type { FinalAnswer, RenderContext, WireFormat } from './wire-format';

/** @param commit settles the generation; called before the answer (with its usage) is sent (handle-chat.ts). */
export async function runNonStreaming(rt: Runtime, t: ChatTransport, format: WireFormat, a: Admission, requestId: string, commit: (o: GenerationOutcome) => void): Promise<GenerationOutcome> {
  const served = await (a.upstream ?? openRoute(rt, a.route, t.signal));
  const { endpoint, model } = served.candidate;
  const adapter = endpoint.provider.adapter;
  let body: unknown;
  if (!served.response) {
    body = adapter.local!.complete(a.req);
  } else {
    const text = await served.response.body.text();
    try {
      body = JSON.parse(text);
    } catch {
      throw new AppError('upstream_error', `The provider (${endpoint.provider.id}) returned a response that is not JSON`, { provider: endpoint.provider.id });
    }
  }
  const converted: ConvertedResponse = adapter.convertResponse(body, served.ctx);
  // An upstream that ignored max_tokens: the answer is cut to the limit the reservation was computed for.
  const others = converted.otherChoices ?? [];
  const limited = capCompleteAnswer([converted.message, ...others.map((c) => c.message)], converted.usage, maxOutputTokens(a.req, endpoint));
  const finishReason = limited.capped ? 'length' : converted.finishReason;
  const visible = limited.messages.map((m) => withoutHiddenReasoning(m, !!a.req.reasoning?.exclude));
  const message = visible[0]!;
  const otherMessages = visible.slice(1);
  const produced = visible.some((m) => !!(m.content || m.tool_calls?.length || m.reasoning || m.reasoning_details?.length));
  const outcome: GenerationOutcome = {
    usage: limited.usage,
    upstreamUsage: limited.capped ? converted.usage : undefined,
    produced,
    finishReason,
    status: converted.error ? 'ERROR' : 'SUCCESS',
    error: converted.error,
    upstreamId: converted.upstreamId,
    streamed: false,
    served,
    attempts: served.attempts,
  };
  const { costMicros } = chargeFor(endpoint, outcome, a.reservedMicros);
  commit(outcome); // journaled before the client can see usage.cost
  const ctx: RenderContext = { generationId: a.generationId, requestId, model: model.id, provider: endpoint.provider.id, req: a.req, created: Math.floor(Date.now() / 1000) };
  const answer: FinalAnswer = { message, finishReason, usage: limited.usage, costMicros, error: converted.error };
  if (converted.logprobs) answer.logprobs = converted.logprobs;
  if (others.length > 0) answer.otherChoices = others.map((c, i) => ({ ...c, message: otherMessages[i]!, finishReason: limited.capped ? 'length' : c.finishReason }));
  if (converted.stopSequence !== undefined && finishReason === 'stop') answer.stopSequence = converted.stopSequence;
  // The answer is charged and valid whatever happens here: a failure to keep it is logged, not answered.
  await format.beforeFinal?.(ctx, a.principal, answer).catch((err: unknown) => void errorReply(err, requestId, 'keeping the answer'));
  t.sendJson(200, format.complete(ctx, answer), { ...format.answerHeaders?.(requestId), 'x-request-id': requestId, 'x-generation-id': a.generationId });
  return outcome;
}

/** `reasoning.exclude`: the client asked not to see the reasoning (it was generated and is billed all the same). */
function withoutHiddenReasoning(m: AssistantMessage, exclude: boolean): AssistantMessage {
  const message = { ...m };
  if (exclude) {
    delete message.reasoning;
    delete message.reasoning_details;
  }
  return message;
}
