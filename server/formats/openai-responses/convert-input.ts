// Responses input items → the internal (Chat Completions) messages. Consecutive assistant-side items (reasoning,
// an assistant message, function calls) form one assistant message, as a model turn does; a function_call_output
// becomes a tool message. Reasoning items become reasoning_details the OpenAI adapter turns back into reasoning
// items (format openai-responses-v1, with their id), or, for our envelope, the other provider's own details.
// A custom tool's call and output are a function call (arguments {"input": …}, custom-tools.ts) and a tool
// message. Items with no chat equivalent (hosted-tool calls, item references) are left out here: an OpenAI
// endpoint receives them in the client's own body (passthrough), other models cannot use them.
import { AppError } from '@/server/errors';
import { RESPONSES_REASONING_FORMAT } from '@/server/providers/openai/convert-responses-input';
import { customToolArguments } from '@/server/providers/custom-tool-input';
import type { ChatMessage, ContentPart, ReasoningDetail, ToolCall } from '@/server/providers/types';
import { unwrapReasoning } from './reasoning-envelope';
import type { ResponsesContentPart, ResponsesInputItem } from './responses-request-schema';

type AssistantMessage = Extract<ChatMessage, { role: 'assistant' }>;

function convertPart(part: ResponsesContentPart, where: string): ContentPart {
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return { type: 'text', text: part.text };
    case 'refusal':
      return { type: 'text', text: part.refusal };
    case 'input_image':
      if (!part.image_url) throw new AppError('bad_request', `${where}: input_image needs image_url (a URL or a data URL); file_id is not supported`);
      // 'original' (full resolution, OpenAI's newest models) is 'high' to the others: their most detailed.
      return { type: 'image_url', image_url: { url: part.image_url, ...(part.detail ? { detail: part.detail === 'original' ? 'high' : part.detail } : {}) } };
    case 'input_file':
      if (part.file_url) throw new AppError('bad_request', `${where}: input_file with file_url is not supported; send file_data`);
      return { type: 'file', file: { ...(part.filename ? { filename: part.filename } : {}), ...(part.file_data ? { file_data: part.file_data } : {}), ...(part.file_id ? { file_id: part.file_id } : {}) } };
  }
}

function convertContent(content: string | ResponsesContentPart[], where: string): string | ContentPart[] {
  return typeof content === 'string' ? content : content.map((part, i) => convertPart(part, `${where}.content.${i}`));
}

const textOf = (content: string | ResponsesContentPart[]): string =>
  typeof content === 'string' ? content : content.map((p) => (p.type === 'output_text' || p.type === 'input_text' ? p.text : p.type === 'refusal' ? p.refusal : '')).join('');

/** A reasoning item's details: our envelope unwrapped, else OpenAI's summary and encrypted content under its id. */
export function reasoningDetailsOf(item: { id?: string | null; summary: { text: string }[]; encrypted_content?: string | null }): ReasoningDetail[] {
  if (item.encrypted_content) {
    const wrapped = unwrapReasoning(item.encrypted_content);
    if (wrapped) return wrapped;
  }
  const id = item.id ?? undefined;
  const details: ReasoningDetail[] = [];
  const summary = item.summary.map((s) => s.text).filter(Boolean).join('\n\n');
  if (summary) details.push({ type: 'reasoning.summary', summary, format: RESPONSES_REASONING_FORMAT, ...(id ? { id } : {}) });
  if (item.encrypted_content) details.push({ type: 'reasoning.encrypted', data: item.encrypted_content, format: RESPONSES_REASONING_FORMAT, ...(id ? { id } : {}) });
  return details;
}

export function convertInput(instructions: string | null | undefined, input: string | ResponsesInputItem[]): ChatMessage[] {
  const messages: ChatMessage[] = [];
  if (instructions) messages.push({ role: 'system', content: instructions });
  if (typeof input === 'string') {
    messages.push({ role: 'user', content: input });
    return messages;
  }
  let turn: AssistantMessage | null = null;
  const assistant = (): AssistantMessage => {
    if (!turn) {
      turn = { role: 'assistant', content: null };
      messages.push(turn);
    }
    return turn;
  };
  input.forEach((item, i) => {
    const where = `input.${i}`;
    switch (item.type) {
      case 'message': {
        const m = item as Extract<ResponsesInputItem, { type: 'message' }>;
        if (m.role === 'assistant') {
          const a = assistant();
          const text = textOf(m.content);
          a.content = typeof a.content === 'string' && a.content ? `${a.content}\n\n${text}` : text;
        } else {
          turn = null;
          messages.push({ role: m.role, content: convertContent(m.content, where) } as ChatMessage);
        }
        return;
      }
      case 'function_call': {
        const c = item as Extract<ResponsesInputItem, { type: 'function_call' }>;
        const call: ToolCall = { id: c.call_id, type: 'function', function: { name: c.name, arguments: c.arguments } };
        (assistant().tool_calls ??= []).push(call);
        return;
      }
      case 'custom_tool_call': {
        const c = item as Extract<ResponsesInputItem, { type: 'custom_tool_call' }>;
        (assistant().tool_calls ??= []).push({ id: c.call_id, type: 'function', function: { name: c.name, arguments: customToolArguments(c.input) } });
        return;
      }
      case 'reasoning': {
        const details = reasoningDetailsOf(item as Extract<ResponsesInputItem, { type: 'reasoning' }>);
        if (details.length > 0) (assistant().reasoning_details ??= []).push(...details);
        return;
      }
      case 'function_call_output':
      case 'custom_tool_call_output': {
        const o = item as Extract<ResponsesInputItem, { type: 'function_call_output' | 'custom_tool_call_output' }>;
        turn = null;
        messages.push({ role: 'tool', tool_call_id: o.call_id, content: typeof o.output === 'string' ? o.output : convertContent(o.output, where) });
        return;
      }
      default:
        return; // no chat equivalent (see the header)
    }
  });
  // An assistant turn of reasoning alone (no text, no call) has nothing a chat model can take.
  return messages.filter((m) => m.role !== 'assistant' || m.content || m.tool_calls?.length || !m.reasoning_details?.length);
}
