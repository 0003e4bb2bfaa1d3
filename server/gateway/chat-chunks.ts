// OpenAI-shaped output: chunk and response serialisation. Each chunk is a precomputed prefix (id, object,
// created, model) plus the JSON of its delta, so writing a chunk costs one small JSON.stringify.
import { microsToUsd } from '@/server/ledger/money';
import type { AssistantMessage, ChoiceLogprobs, FinishReason, MidStreamError, NormalizedUsage, StreamDelta } from '@/server/providers/types';

export interface UsageOut {
  prompt_tokens: number;
  completion_tokens: number;
  total_tokens: number;
  prompt_tokens_details: { cached_tokens: number; cache_write_tokens: number };
  completion_tokens_details: { reasoning_tokens: number };
  cost: number;
}

export function usageOut(u: NormalizedUsage, costMicros: bigint): UsageOut {
  return {
    prompt_tokens: u.promptTokens,
    completion_tokens: u.completionTokens,
    total_tokens: u.promptTokens + u.completionTokens,
    prompt_tokens_details: { cached_tokens: u.cachedTokens, cache_write_tokens: u.cacheWriteTokens },
    completion_tokens_details: { reasoning_tokens: u.reasoningTokens },
    cost: microsToUsd(costMicros),
  };
}

export class ChunkWriter {
  private readonly prefix: string;

  constructor(id: string, model: string, provider: string, created = Math.floor(Date.now() / 1000)) {
    this.prefix = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"provider":${JSON.stringify(provider)},"choices":[{"index":0,"delta":`;
  }

  delta(d: StreamDelta | { role: 'assistant'; content: string }): string {
    if ('logprobs' in d && d.logprobs) {
      // OpenAI puts a chunk's log probabilities on the choice, beside the delta.
      const { logprobs, ...delta } = d;
      return `${this.prefix}${JSON.stringify(delta)},"logprobs":${JSON.stringify(logprobs)},"finish_reason":null}]}\n\n`;
    }
    return `${this.prefix}${JSON.stringify(d)},"finish_reason":null}]}\n\n`;
  }

  finish(reason: FinishReason, usage: UsageOut): string {
    return `${this.prefix}{},"finish_reason":${JSON.stringify(reason)}}],"usage":${JSON.stringify(usage)}}\n\n`;
  }

  error(err: MidStreamError, usage: UsageOut, metadata: Record<string, unknown>): string {
    const e = JSON.stringify({ code: err.code, message: err.message, metadata });
    return `${this.prefix}{},"finish_reason":"error","error":${e}}],"error":${e},"usage":${JSON.stringify(usage)}}\n\n`;
  }
}

export const DONE = 'data: [DONE]\n\n';
export const KEEPALIVE = ': keep-alive\n\n';

export function completionBody(p: {
  id: string;
  model: string;
  provider: string;
  message: AssistantMessage;
  finishReason: FinishReason;
  logprobs?: ChoiceLogprobs;
  usage: UsageOut;
  error?: MidStreamError;
  created?: number;
}) {
  const message: Record<string, unknown> = { role: 'assistant', content: p.message.content ?? null };
  if (p.message.tool_calls?.length) message.tool_calls = p.message.tool_calls;
  if (p.message.reasoning) message.reasoning = p.message.reasoning;
  if (p.message.reasoning_details?.length) message.reasoning_details = p.message.reasoning_details;
  return {
    id: p.id,
    object: 'chat.completion',
    created: p.created ?? Math.floor(Date.now() / 1000),
    model: p.model,
    provider: p.provider,
    choices: [{ index: 0, message, ...(p.logprobs ? { logprobs: p.logprobs } : {}), finish_reason: p.finishReason, ...(p.error ? { error: { code: p.error.code, message: p.error.message, metadata: {} } } : {}) }],
    usage: p.usage,
  };
}
