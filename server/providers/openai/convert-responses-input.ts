import { AppError } from '@/server/errors';
// OpenAI chat messages → Responses API `input` items (developers.openai.com, "Migrate to the Responses
// API"): messages keep their role, an assistant's tool calls become `function_call` items, tool messages
// `function_call_output` items, and reasoning we returned earlier (encrypted, as reasoning_details) comes
// back as `reasoning` items ahead of what it led to.
import type { ChatMessage, ContentPart, ReasoningDetail } from '../types';

/** The `format` of the reasoning_details we produce from the Responses API (OpenRouter's name for it). */
export const RESPONSES_REASONING_FORMAT = 'openai-responses-v1';

type InputPart = { type: 'input_text'; text: string } | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' };
export type ResponsesInputItem = Record<string, unknown>;

function convertParts(content: string | ContentPart[]): string | InputPart[] {
  if (typeof content === 'string') return content;
  return content.map((part): InputPart =>
    part.type === 'file'
      ? (() => {
          throw new AppError('bad_request', 'File (PDF) parts are not accepted here yet', { capability: 'supportsPdf' });
        })()
      : part.type === 'text' ? { type: 'input_text', text: part.text } : { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' },
  );
}

const textOf = (content: string | ContentPart[]): string =>
  typeof content === 'string' ? content : content.map((part) => (part.type === 'text' ? part.text : '')).join('');

/**
 * Our reasoning.encrypted details, fragments joined by index, become reasoning items. With `store: false`
 * an item is only usable through its encrypted_content, so a detail without one (a summary alone) is not
 * sent back: OpenAI would look its id up and answer 404. Other providers' details are skipped.
 */
function reasoningItems(details: ReasoningDetail[] | undefined): ResponsesInputItem[] {
  const encrypted = new Map<string, string>();
  for (const detail of details ?? []) {
    if (detail.format !== RESPONSES_REASONING_FORMAT || detail.type !== 'reasoning.encrypted' || !detail.id) continue;
    encrypted.set(detail.id, (encrypted.get(detail.id) ?? '') + detail.data);
  }
  return [...encrypted].map(([id, data]) => ({ type: 'reasoning', id, encrypted_content: data, summary: [] }));
}

export function convertResponsesInput(messages: ChatMessage[]): ResponsesInputItem[] {
  return messages.flatMap((message): ResponsesInputItem[] => {
    switch (message.role) {
      case 'system':
      case 'developer':
      case 'user':
        // `name` has no Responses equivalent and is dropped.
        return [{ role: message.role, content: convertParts(message.content) }];
      case 'assistant': {
        const text = message.content ? textOf(message.content) : '';
        return [
          ...reasoningItems(message.reasoning_details),
          ...(text ? [{ role: 'assistant', content: text }] : []),
          ...(message.tool_calls ?? []).map((call) => ({ type: 'function_call', call_id: call.id, name: call.function.name, arguments: call.function.arguments })),
        ];
      }
      case 'tool': {
        // Text results go back as a string; with images, as input parts (function outputs take both).
        const hasImage = typeof message.content !== 'string' && message.content.some((part) => part.type === 'image_url');
        return [{ type: 'function_call_output', call_id: message.tool_call_id, output: hasImage ? convertParts(message.content) : textOf(message.content) }];
      }
    }
  });
}
