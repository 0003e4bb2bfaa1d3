// The OpenAI Chat Completions wire format (POST /api/v1/chat/completions), the gateway's own.
import { errorReply } from '@/server/errors';
import type { ChatRequest } from '@/server/providers/types';
import { ChunkWriter, completionBody, DONE, KEEPALIVE, usageOut } from './chat-chunks';
import { choicesOf } from './choices';
import { parseChatRequest } from './chat-request-schema';
import { defaultPromptCacheKey } from './prompt-cache-key';
import type { WireFormat } from './wire-format';

/**
 * `stream` left out means a stream (the spec's default), except for a client that asks for JSON only:
 * `Accept` naming application/json and not text/event-stream (what the OpenAI SDKs send on a plain
 * `create()`). Clients that send `Accept: *\/*` (curl, Vercel's AI SDK) get the spec's default.
 */
export function wantsJsonOnly(accept: string | undefined): boolean {
  if (!accept) return false;
  const a = accept.toLowerCase();
  return a.includes('application/json') && !a.includes('text/event-stream');
}

export const chatFormat: WireFormat = {
  id: 'chat',
  parse(json, header): ChatRequest {
    const body = json.stream === undefined && wantsJsonOnly(header('accept')) ? { ...json, stream: false } : json;
    return defaultPromptCacheKey(parseChatRequest(body), header);
  },
  errorReply: (err, requestId, where) => errorReply(err, requestId, where),
  complete(ctx, answer) {
    return completionBody({
      id: ctx.generationId,
      model: ctx.model,
      provider: ctx.provider,
      message: answer.message,
      finishReason: answer.finishReason,
      logprobs: answer.logprobs,
      usage: usageOut(answer.usage, answer.costMicros),
      error: answer.error,
      created: ctx.created,
      otherChoices: answer.otherChoices,
    });
  },
  stream(ctx) {
    const w = new ChunkWriter(ctx.generationId, ctx.model, ctx.provider, ctx.created);
    const choices = choicesOf(ctx.req);
    return {
      keepAlive: KEEPALIVE,
      // Each choice opens with the assistant role, as OpenAI's do.
      start: () => Array.from({ length: choices }, (_, choice) => w.delta({ role: 'assistant', content: '', ...(choice ? { choice } : {}) })).join(''),
      delta: (d) => w.delta(d),
      finish: (reason, final, details) => w.finish(reason, usageOut(final.usage, final.costMicros), details?.otherChoices) + DONE,
      error: (err, final, metadata) => w.error(err, usageOut(final.usage, final.costMicros), metadata) + DONE,
    };
  },
};
