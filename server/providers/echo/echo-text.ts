// What the built-in `switchboard/echo` model answers, and what it counts. No tokenizer: the estimate
// (4 characters a token) is the usual rule of thumb and good enough to meter a test model.
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

/** ceil(characters of every message's text and tool calls / 4). */
export function estimatePromptTokens(messages: ChatMessage[]): number {
  let chars = 0;
  for (const message of messages) {
    chars += textOf(message.content).length;
    if (message.role === 'assistant') {
      for (const call of message.tool_calls ?? []) chars += call.function.name.length + call.function.arguments.length;
    }
  }
  return Math.ceil(chars / 4);
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
