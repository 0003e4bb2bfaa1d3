// OpenAI-shaped output: chunk and response serialisation. Each chunk is a precomputed prefix (id, object,
// created, model) plus the JSON of its delta, so writing a chunk costs one small JSON.stringify. With n > 1
// a chunk names its choice by index, and each choice gets its own finish chunk (usage on the last).
import { microsToUsd } from '@/server/ledger/money';
import type { AssistantMessage, ChoiceLogprobs, ConvertedChoice, FinishReason, MidStreamError, NormalizedUsage, StreamDelta } from '@/server/providers/types';

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
  /** Up to the choice's index. */
  private readonly head: string;
  /** Choice 0's prefix, up to its delta. */
  private readonly prefix: string;

  constructor(id: string, model: string, provider: string, created = Math.floor(Date.now() / 1000)) {
    this.head = `data: {"id":${JSON.stringify(id)},"object":"chat.completion.chunk","created":${created},"model":${JSON.stringify(model)},"provider":${JSON.stringify(provider)},"choices":[{"index":`;
    this.prefix = `${this.head}0,"delta":`;
  }

  private prefixOf(choice: number | undefined): string {
    return choice ? `${this.head}${choice},"delta":` : this.prefix;
  }

  delta(d: StreamDelta | { role: 'assistant'; content: string; choice?: number }): string {
    if ('choice' in d) {
      const { choice, ...delta } = d;
      return this.deltaOf(this.prefixOf(choice), delta);
    }
    return this.deltaOf(this.prefix, d);
  }

  private deltaOf(prefix: string, d: StreamDelta | { role: 'assistant'; content: string }): string {
    if ('logprobs' in d && d.logprobs) {
      // OpenAI puts a chunk's log probabilities on the choice, beside the delta.
      const { logprobs, ...delta } = d;
      return `${prefix}${JSON.stringify(delta)},"logprobs":${JSON.stringify(logprobs)},"finish_reason":null}]}\n\n`;
    }
    return `${prefix}${JSON.stringify(d)},"finish_reason":null}]}\n\n`;
  }

  /** Choice 0's finish reason, then those of choices 1 … n − 1 (n > 1), each in its chunk; usage rides on the last. */
  finish(reason: FinishReason, usage: UsageOut, others: { index: number; finishReason: FinishReason }[] = []): string {
    const all = [{ index: 0, finishReason: reason }, ...others];
    let out = '';
    for (const [i, c] of all.entries()) {
      const tail = i === all.length - 1 ? `,"usage":${JSON.stringify(usage)}` : '';
      out += `${this.prefixOf(c.index)}{},"finish_reason":${JSON.stringify(c.finishReason)}}]${tail}}\n\n`;
    }
    return out;
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
  /** Choices 1 … n − 1 of a request with n > 1. */
  otherChoices?: ConvertedChoice[];
}) {
  const choice = { index: 0, message: messageBody(p.message), ...(p.logprobs ? { logprobs: p.logprobs } : {}), finish_reason: p.finishReason, ...(p.error ? { error: { code: p.error.code, message: p.error.message, metadata: {} } } : {}) };
  const others = (p.otherChoices ?? []).map((c) => ({ index: c.index, message: messageBody(c.message), ...(c.logprobs ? { logprobs: c.logprobs } : {}), finish_reason: c.finishReason }));
  return {
    id: p.id,
    object: 'chat.completion',
    created: p.created ?? Math.floor(Date.now() / 1000),
    model: p.model,
    provider: p.provider,
    choices: [choice, ...others],
    usage: p.usage,
  };
}

function messageBody(m: AssistantMessage): Record<string, unknown> {
  const message: Record<string, unknown> = { role: 'assistant', content: m.content ?? null };
  if (m.tool_calls?.length) message.tool_calls = m.tool_calls;
  if (m.reasoning) message.reasoning = m.reasoning;
  if (m.reasoning_details?.length) message.reasoning_details = m.reasoning_details;
  return message;
}
