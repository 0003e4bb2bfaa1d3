// A Messages API request → the gateway's internal request (the Chat Completions shape), which routing,
// estimates, limits and every non-Anthropic converter read. The client's own body rides along as `native`
// so an Anthropic endpoint receives it nearly unchanged (providers/anthropic/convert-native-request.ts).
import type { z } from 'zod';
import { parseChatRequest, type chatRequestSchema } from '@/server/gateway/chat-request-schema';
import type { ChatRequest, ReasoningDetail } from '@/server/providers/types';
import type { CountTokensRequest, MessagesContentBlock } from './messages-request-schema';
import { redactedToDetail, thinkingToDetail } from './reasoning-envelope';

type ChatInput = z.input<typeof chatRequestSchema>;
type ChatMessageInput = ChatInput['messages'][number];
type PartInput = Exclude<Extract<ChatMessageInput, { role: 'user' }>['content'], string>[number];
type Block = MessagesContentBlock;

/** OpenAI's `user` is at most 256 characters; Claude Code's metadata.user_id is shorter, others may not be. */
const MAX_USER = 256;

function cacheOf(block: { cache_control?: { type: 'ephemeral'; ttl?: '5m' | '1h' } | null }) {
  return block.cache_control ? { cache_control: block.cache_control } : {};
}

/**
 * A search_result block as the text a model reads: its title, its source and its text, so that no provider
 * but Anthropic (which gets the block itself, with citations) loses what the user sent.
 */
function searchResultText(block: Extract<Block, { type: 'search_result' }>): string {
  const texts = block.content.map((c) => c.text).filter((t) => t !== '');
  return [`Search result: ${block.title}`, `Source: ${block.source}`, ...(texts.length > 0 ? ['', texts.join('\n\n')] : [])].join('\n');
}

/**
 * image / document / search_result / text blocks → content parts; block types with no Chat equivalent (those
 * Anthropic runs itself: server_tool_use, web_search_tool_result, …) are dropped.
 */
function toParts(blocks: readonly Block[]): PartInput[] {
  return blocks.flatMap((block): PartInput[] => {
    switch (block.type) {
      case 'text':
        return [{ type: 'text', text: block.text, ...cacheOf(block) }];
      case 'image': {
        const s = block.source;
        if (s.type === 'file') return [{ type: 'file', file: { file_id: s.file_id }, ...cacheOf(block) }];
        const url = s.type === 'url' ? s.url : `data:${s.media_type};base64,${s.data}`;
        return [{ type: 'image_url', image_url: { url }, ...cacheOf(block) }];
      }
      case 'document': {
        const s = block.source;
        const filename = block.title ?? undefined;
        if (s.type === 'text') return [{ type: 'text', text: s.data, ...cacheOf(block) }];
        if (s.type === 'content') {
          const texts = typeof s.content === 'string' ? [s.content] : s.content.flatMap((c) => (typeof c.text === 'string' ? [c.text] : []));
          return texts.map((text) => ({ type: 'text' as const, text, ...cacheOf(block) }));
        }
        if (s.type === 'file') return [{ type: 'file', file: { file_id: s.file_id, ...(filename ? { filename } : {}) }, ...cacheOf(block) }];
        const data = s.type === 'url' ? s.url : `data:${s.media_type};base64,${s.data}`;
        // A URL stays one: each provider's converter sends it where its API takes a URL, or refuses it by name.
        return [{ type: 'file', file: { file_data: data, ...(filename ? { filename } : {}) }, ...cacheOf(block) }];
      }
      case 'search_result':
        return [{ type: 'text', text: searchResultText(block), ...cacheOf(block) }];
      default:
        return [];
    }
  });
}

/** A list of parts as Chat content: a plain string when that loses nothing (what most converters expect). */
function toContent(parts: PartInput[]): string | PartInput[] {
  if (parts.length === 1 && parts[0].type === 'text' && !parts[0].cache_control) return parts[0].text;
  return parts;
}

/** tool_result blocks become `tool` messages, before the rest of the user turn (Anthropic's order too). */
function convertUserTurn(blocks: Block[]): ChatMessageInput[] {
  const out: ChatMessageInput[] = [];
  const rest: Block[] = [];
  for (const block of blocks) {
    if (block.type !== 'tool_result') {
      rest.push(block);
      continue;
    }
    let content: string | PartInput[];
    if (typeof block.content === 'string' || block.content === undefined) {
      const text = block.content ?? '';
      content = block.cache_control ? [{ type: 'text', text, cache_control: block.cache_control }] : text;
    } else {
      const parts = toParts(block.content as Block[]);
      // A breakpoint on the tool_result itself marks its last part.
      const last = parts.at(-1);
      if (block.cache_control && last && last.type === 'text') last.cache_control = block.cache_control;
      content = parts.length === 0 ? '' : toContent(parts);
    }
    // Chat Completions has no error flag on tool results: the model is told in words.
    if (block.is_error) content = typeof content === 'string' ? `Error: ${content}` : [{ type: 'text', text: 'Error:' }, ...content];
    out.push({ role: 'tool', tool_call_id: block.tool_use_id, content });
  }
  const parts = toParts(rest);
  if (parts.length > 0) out.push({ role: 'user', content: toContent(parts) });
  return out;
}

/** Thinking first, then text, then tool calls (Anthropic's order within a turn). */
function convertAssistantTurn(blocks: Block[]): ChatMessageInput {
  const details: ReasoningDetail[] = [];
  const plain: string[] = [];
  const texts: PartInput[] = [];
  const toolCalls: { id: string; type: 'function'; function: { name: string; arguments: string } }[] = [];
  for (const block of blocks) {
    if (block.type === 'thinking') {
      const detail = thinkingToDetail(block.thinking, block.signature, details.length);
      if (detail) details.push(detail);
      else plain.push(block.thinking);
    } else if (block.type === 'redacted_thinking') details.push(redactedToDetail(block.data, details.length));
    else if (block.type === 'text') texts.push({ type: 'text', text: block.text, ...cacheOf(block) });
    else if (block.type === 'tool_use') toolCalls.push({ id: block.id, type: 'function', function: { name: block.name, arguments: JSON.stringify(block.input) } });
  }
  return {
    role: 'assistant',
    content: texts.length > 0 ? toContent(texts) : null,
    ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}),
    ...(details.length > 0 ? { reasoning_details: details } : {}),
    ...(plain.length > 0 ? { reasoning: plain.join('') } : {}),
  };
}

function convertThinking(req: CountTokensRequest): ChatInput['reasoning'] {
  const thinking = req.thinking;
  // No `thinking` means no thinking in Anthropic's API; the chat converters would otherwise use a default effort.
  if (!thinking || thinking.type === 'disabled') return { enabled: false };
  if (thinking.type === 'enabled') return { max_tokens: thinking.budget_tokens };
  const effort = req.output_config?.effort;
  if (effort === 'low' || effort === 'medium' || effort === 'high') return { effort };
  if (effort === 'max' || effort === 'xhigh') return { effort: 'high' };
  return { enabled: true };
}

function convertToolChoice(req: CountTokensRequest): Pick<ChatInput, 'tool_choice' | 'parallel_tool_calls'> {
  const choice = req.tool_choice;
  if (!choice) return {};
  const parallel = 'disable_parallel_tool_use' in choice && choice.disable_parallel_tool_use ? { parallel_tool_calls: false } : {};
  if (choice.type === 'none') return { tool_choice: 'none' };
  if (choice.type === 'tool') return { tool_choice: { type: 'function', function: { name: choice.name } }, ...parallel };
  return { tool_choice: choice.type === 'any' ? 'required' : 'auto', ...parallel };
}

/**
 * The internal request. `stream` defaults to false, as Anthropic's does. Anthropic's server tools
 * (web search, bash, text editor…) reach Anthropic endpoints through `native` only: no other provider
 * runs them, so they are not among the internal request's tools. `top_k` has no Chat equivalent either.
 */
export function convertMessagesRequest(req: CountTokensRequest, body: Record<string, unknown>, headers: { beta?: string; version?: string } = {}): ChatRequest {
  const messages: ChatMessageInput[] = [];
  if (req.system !== undefined) {
    const system = typeof req.system === 'string' ? req.system : toContent(toParts(req.system));
    if (system !== '' && !(Array.isArray(system) && system.length === 0)) messages.push({ role: 'system', content: system });
  }
  for (const m of req.messages) {
    const blocks: Block[] = typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content;
    if (m.role === 'assistant') messages.push(convertAssistantTurn(blocks));
    else if (m.role === 'system') messages.push({ role: 'system', content: toContent(toParts(blocks)) });
    else messages.push(...convertUserTurn(blocks));
  }

  const tools = (req.tools ?? []).flatMap((tool) =>
    tool.type === 'server'
      ? []
      : [{ type: 'function' as const, function: { name: tool.name, ...(tool.description !== undefined ? { description: tool.description } : {}), parameters: tool.input_schema }, ...cacheOf(tool) }],
  );
  const user = req.metadata?.user_id ?? undefined;
  const input: ChatInput = {
    model: req.model,
    messages,
    stream: req.stream ?? false,
    ...(req.max_tokens !== undefined ? { max_tokens: req.max_tokens } : {}),
    ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
    ...(req.top_p !== undefined ? { top_p: req.top_p } : {}),
    ...(req.stop_sequences?.length ? { stop: req.stop_sequences } : {}),
    ...(tools.length > 0 ? { tools, ...convertToolChoice(req) } : {}),
    ...(user ? { user: user.slice(0, MAX_USER) } : {}),
    reasoning: convertThinking(req),
  };
  const chat = parseChatRequest(input);
  // Claude Code's gateway contract: anthropic-beta and anthropic-version reach Anthropic unchanged.
  chat.native = { format: 'anthropic-messages', body, ...(headers.beta ? { beta: headers.beta } : {}), ...(headers.version ? { version: headers.version } : {}) };
  return chat;
}
