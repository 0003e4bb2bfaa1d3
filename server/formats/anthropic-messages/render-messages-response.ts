// A complete answer as Anthropic's `message` object (platform.claude.com/docs/en/api/messages, "Response").
import type { FinalAnswer, RenderContext } from '@/server/gateway/wire-format';
import type { AssistantMessage, FinishReason, NormalizedUsage } from '@/server/providers/types';
import { detailMeta, isAnthropicDetail, sealDetail } from './reasoning-envelope';
import { mergeReasoningFragments } from '@/server/providers/replay-reasoning';

export type StopReason = 'end_turn' | 'max_tokens' | 'stop_sequence' | 'tool_use' | 'refusal';

/**
 * Our finish reason → Anthropic's stop_reason. `stop` with the stop sequence that ended it (only Anthropic's
 * upstreams say which) is stop_sequence; otherwise end_turn. Tool calls under `stop` (some providers say
 * so) are `tool_use`, which is what an agent loop waits for.
 */
export function stopReasonOf(reason: FinishReason, hasToolCalls: boolean, stopSequence?: string): StopReason {
  if (reason === 'stop' && stopSequence !== undefined && !hasToolCalls) return 'stop_sequence';
  switch (reason) {
    case 'length':
      return 'max_tokens';
    case 'tool_calls':
      return 'tool_use';
    case 'content_filter':
      return 'refusal';
    default:
      return hasToolCalls ? 'tool_use' : 'end_turn';
  }
}

/** Anthropic's input_tokens excludes the prompt's cache reads and writes, which it reports apart. */
export function usageOf(u: NormalizedUsage) {
  return {
    input_tokens: Math.max(0, u.promptTokens - u.cachedTokens - u.cacheWriteTokens),
    cache_creation_input_tokens: u.cacheWriteTokens,
    cache_read_input_tokens: u.cachedTokens,
    output_tokens: u.completionTokens,
  };
}

type ThinkingBlock = { type: 'thinking'; thinking: string; signature: string };
type RedactedBlock = { type: 'redacted_thinking'; data: string };

/** Reasoning details → thinking / redacted_thinking blocks (another provider's sealed: reasoning-envelope.ts). */
export function reasoningBlocks(message: Pick<AssistantMessage, 'reasoning' | 'reasoning_details'>): (ThinkingBlock | RedactedBlock)[] {
  const details = message.reasoning_details ?? [];
  if (details.length === 0) return message.reasoning ? [{ type: 'thinking', thinking: message.reasoning, signature: '' }] : [];
  return mergeReasoningFragments(details).map((detail): ThinkingBlock | RedactedBlock => {
    if (isAnthropicDetail(detail)) {
      if (detail.type === 'reasoning.encrypted') return { type: 'redacted_thinking', data: detail.data };
      if (detail.type === 'reasoning.text') return { type: 'thinking', thinking: detail.text, signature: detail.signature ?? '' };
    }
    if (detail.type === 'reasoning.encrypted') return { type: 'redacted_thinking', data: sealDetail(detail) };
    const thinking = detail.type === 'reasoning.text' ? detail.text : detail.summary;
    return { type: 'thinking', thinking, signature: sealDetail(detailMeta(detail)) };
  });
}

/** Tool arguments as the object Anthropic's `input` is ({} when a provider sent something else). */
export function toolInput(args: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(args || '{}');
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

export function renderMessagesResponse(ctx: RenderContext, answer: FinalAnswer) {
  const m = answer.message;
  const toolCalls = m.tool_calls ?? [];
  const content: Record<string, unknown>[] = [...reasoningBlocks(m)];
  if (m.content) content.push({ type: 'text', text: m.content });
  for (const call of toolCalls) content.push({ type: 'tool_use', id: call.id, name: call.function.name, input: toolInput(call.function.arguments) });
  const reason: FinishReason = answer.error?.code === 'content_filter' ? 'content_filter' : answer.finishReason;
  return {
    id: ctx.generationId,
    type: 'message',
    role: 'assistant',
    // The model that answered, by its canonical id, as /chat/completions and /responses name it: Anthropic too
    // answers with the model an alias resolved to ("claude-sonnet-4-5" → "claude-sonnet-4-5-20250929"), and a
    // fallback (`models`) that served is named, not the model asked for.
    model: ctx.model,
    content,
    stop_reason: stopReasonOf(reason, toolCalls.length > 0, answer.stopSequence),
    stop_sequence: reason === 'stop' && toolCalls.length === 0 ? (answer.stopSequence ?? null) : null,
    usage: usageOf(answer.usage),
  };
}
