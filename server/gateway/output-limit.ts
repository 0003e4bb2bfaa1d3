// The output limit the reservation was computed for (cost.ts maxOutputTokens), enforced on what the
// upstream sends. Some OpenAI-compatible servers ignore `max_tokens`; the customer is never charged past the
// reservation whatever they do (outcome.ts caps the charge), and these limits keep the operator's loss small:
// a stream is cut as soon as it is seen to exceed the limit, a complete answer is shortened to it.
import type { AssistantMessage, NormalizedUsage } from '@/server/providers/types';

/**
 * Counts a stream's output as it arrives: a lower bound of the tokens generated, so an upstream that honours
 * the limit is never cut. Every delta carrying output is at least one token (OpenAI-compatible servers send
 * one token per delta, others several), and real output averages 3–5 characters per token; 8 leaves room
 * for whitespace-heavy code. An upstream that reports usage while streaming is believed when it says more.
 */
export class OutputMeter {
  private deltas = 0;
  private chars = 0;
  /** Set once the output went past the limit: stop reading, finish with `length`. */
  exceeded = false;

  constructor(readonly limit: number) {}

  /** Counts one delta (before it is sent); false when it takes the output past the limit (do not send it). */
  add(chars: number, reportedCompletionTokens = 0): boolean {
    this.deltas++;
    this.chars += chars;
    if (this.tokens() > this.limit || reportedCompletionTokens > this.limit) this.exceeded = true;
    return !this.exceeded;
  }

  tokens(): number {
    return Math.max(this.deltas, Math.ceil(this.chars / 8));
  }
}

/**
 * A complete answer longer than the limit (the upstream reported more completion tokens than it was allowed):
 * the text is shortened in proportion, finish_reason becomes `length`, and usage counts the limit. Tool
 * calls are kept whole (a cut one would be unusable JSON). With several choices (n > 1) usage counts them
 * all, without a per-choice split: the limit is each choice's times their number, and every one is
 * shortened in the same proportion.
 */
export function capCompleteAnswer<M extends AssistantMessage>(
  messages: M[],
  usage: NormalizedUsage,
  limitPerChoice: number,
): { messages: M[]; usage: NormalizedUsage; capped: boolean } {
  const limit = limitPerChoice * Math.max(1, messages.length);
  if (usage.completionTokens <= limit) return { messages, usage, capped: false };
  const ratio = limit / usage.completionTokens;
  const capped = messages.map((message) => {
    const shortened: M = { ...message, content: shorten(message.content, ratio) };
    if (message.reasoning != null) shortened.reasoning = shorten(message.reasoning, ratio);
    return shortened;
  });
  return { messages: capped, usage: { ...usage, completionTokens: limit, reasoningTokens: Math.min(usage.reasoningTokens, limit) }, capped: true };
}

function shorten(text: string | null | undefined, ratio: number): string | null {
  if (text == null) return null;
  let end = Math.floor(text.length * ratio);
  // Never split a surrogate pair.
  if (end > 0 && end < text.length && /[\udc00-\udfff]/.test(text[end])) end--;
  return text.slice(0, end);
}
