// OpenAI chat messages → Responses API `input` items (developers.openai.com, "Migrate to the Responses
// API"): messages keep their role, an assistant's tool calls become `function_call` items, tool messages
// `function_call_output` items, and reasoning we returned earlier (encrypted, as reasoning_details) comes
// back as `reasoning` items ahead of what it led to.
import type { ChatMessage, ContentPart, ReasoningDetail } from '../types';
import { isUrlFileData } from './convert-request';

/** The `format` of the reasoning_details we produce from the Responses API (OpenRouter's name for it). */
export const RESPONSES_REASONING_FORMAT = 'openai-responses-v1';

type InputPart =
  | { type: 'input_text'; text: string }
  | { type: 'input_image'; image_url: string; detail: 'auto' | 'low' | 'high' }
  | { type: 'input_file'; filename?: string; file_data?: string; file_id?: string; file_url?: string };
export type ResponsesInputItem = Record<string, unknown>;

function convertParts(content: string | ContentPart[]): string | InputPart[] {
  if (typeof content === 'string') return content;
  return content.map((part): InputPart => {
    if (part.type === 'text') return { type: 'input_text', text: part.text };
    // A file part's fields have the same names in the Responses API, one level up (developers.openai.com "File
    // inputs"), but file_data is the file's content only: a web address (an Anthropic document block by URL)
    // goes as `file_url`, which OpenAI fetches itself.
    if (part.type === 'file') {
      const { file_data: data, ...rest } = part.file;
      if (isUrlFileData(data)) return { type: 'input_file', ...rest, file_url: data };
      return { type: 'input_file', ...part.file };
    }
    return { type: 'input_image', image_url: part.image_url.url, detail: part.image_url.detail ?? 'auto' };
  });
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
        // Text results go back as a string; with images or files, as input parts (function outputs take all three).
        const hasMedia = typeof message.content !== 'string' && message.content.some((part) => part.type !== 'text');
        return [{ type: 'function_call_output', call_id: message.tool_call_id, output: hasMedia ? convertParts(message.content) : textOf(message.content) }];
      }
    }
  });
}
