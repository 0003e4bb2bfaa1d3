// What the built-in `switchboard/echo` model answers, and what it counts. No tokenizer: the gateway's one
// estimate (4 bytes of text a token) is good enough to meter a test model.
import { estimatePromptTokens as estimateLikelyPromptTokens, estimateTokensFromChars, measurePrompt } from '../estimate-tokens';
import type { ChatMessage, ContentPart } from '../types';

function textOf(content: string | ContentPart[] | null | undefined): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  return content.map((part) => (part.type === 'text' ? part.text : '')).join('');
}

/** The text of the last user message, its text parts joined without separator; '' when there is none. */
export function lastUserText(messages: ChatMessage[]): string {
  for (let i = messages.length - 1; i >= 0; i--) {
    const message = messages[i];
    if (message.role === 'user') return textOf(message.content);
  }
  return '';
}

/** Words with the whitespace that follows them ("Hello, big world" → "Hello, ", "big ", "world"), so the pieces join back to the text. */
export function splitWords(text: string): string[] {
  return text.match(/\s+|\S+\s*/g) ?? [];
}

/** The one estimator's likely count (providers/estimate-tokens.ts): 4 bytes of text a token, images as images. */
export function estimatePromptTokens(messages: ChatMessage[]): number {
  return estimateLikelyPromptTokens(measurePrompt(messages));
}

/** OpenAI's usage object, with the detail counters our converters read. */
export function echoUsage(promptTokens: number, completionTokens: number) {
  return {
    prompt_tokens: promptTokens,
    completion_tokens: completionTokens,
    total_tokens: promptTokens + completionTokens,
    prompt_tokens_details: { cached_tokens: 0 },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

/**
 * The answer's tokens as the gateway estimates output it sees (4 characters a token): a streamed answer's
 * count is never below that estimate (gateway/run-streaming.ts), so counting words here made a streamed
 * echo dearer than the same one not streamed.
 */
export function echoCompletionTokens(text: string): number {
  return estimateTokensFromChars(text.length);
}
