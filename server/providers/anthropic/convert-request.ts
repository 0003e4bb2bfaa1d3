import { AppError } from '@/server/errors';
import type { ChatMessage, ChatRequest, ContentPart, ConvertContext, FilePart, ReasoningDetail, ResolvedModel, ResponseFormat, ToolCall, UpstreamRequest } from '@/server/providers/types';
import { refuseLogprobs } from '../refuse-logprobs';
import { mergeReasoningFragments, toolCallInput } from '../replay-reasoning';
import { placeCacheBreakpoints, type CacheControl } from './place-cache-breakpoints';
import { planThinking } from './plan-thinking';

export const ANTHROPIC_VERSION = '2023-06-01';

const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

type TextBlock = { type: 'text'; text: string; cache_control?: CacheControl };
type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string }; cache_control?: CacheControl };
/** A PDF (platform.claude.com/docs "PDF support"): base64 in a document block, with a breakpoint if the client set one. */
type DocumentBlock = {
  type: 'document';
  source: { type: 'base64'; media_type: 'application/pdf'; data: string };
  title?: string;
  cache_control?: FilePart['cache_control'];
};
type Block =
  | TextBlock
  | ImageBlock
  | DocumentBlock
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content?: string | (TextBlock | ImageBlock | DocumentBlock)[]; cache_control?: CacheControl }
  | { type: 'thinking'; thinking: string; signature: string }
  | { type: 'redacted_thinking'; data: string };

export interface AnthropicMessage {
  role: 'user' | 'assistant';
  content: Block[];
}

function convertImage(url: string, model: ResolvedModel): ImageBlock {
  if (!model.supportsImages) throw new AppError('bad_request', `Model ${model.id} does not accept images`);
  if (/^https?:\/\//i.test(url)) return { type: 'image', source: { type: 'url', url } };
  const match = /^data:([^;,]+);base64,(.+)$/s.exec(url);
  if (!match) throw new AppError('bad_request', 'Image URLs must be http(s) URLs or base64 data URLs');
  const mediaType = match[1].toLowerCase();
  if (!IMAGE_MEDIA_TYPES.has(mediaType)) throw new AppError('bad_request', `Unsupported image type ${mediaType}; use JPEG, PNG, GIF or WebP`);
  return { type: 'image', source: { type: 'base64', media_type: mediaType, data: match[2] } };
}

const PDF_DATA_URL = /^data:application\/pdf(?:;[\w.+-]+=[^;,]*)*;base64,(.+)$/is;

/** A file part → a document block. Admission has checked supportsPdf; only the file's form is checked here. */
function convertDocument(part: FilePart, model: ResolvedModel, role: string): DocumentBlock {
  if (role !== 'user' && role !== 'tool') throw new AppError('bad_request', `Anthropic accepts documents only in user and tool messages, not in ${role} messages`);
  const { file_data: data, file_id: fileId, filename } = part.file;
  if (data === undefined) {
    throw new AppError('bad_request', `file.file_id ${fileId ?? ''} names a file uploaded to OpenAI, which ${model.id} cannot read: send the PDF as file.file_data`, { model: model.id, param: 'file_id' });
  }
  const match = PDF_DATA_URL.exec(data);
  if (!match) throw new AppError('bad_request', `${model.id} takes file parts as PDF data URLs (data:application/pdf;base64,…)`, { model: model.id });
  const block: DocumentBlock = { type: 'document', source: { type: 'base64', media_type: 'application/pdf', data: match[1] } };
  if (filename) block.title = filename;
  if (part.cache_control) block.cache_control = part.cache_control;
  return block;
}

/**
 * Text, image and document parts. Empty text is dropped: Anthropic rejects empty text blocks, OpenAI clients send them.
 * A part's `cache_control` stays on its block, exactly where the client put it.
 */
function convertParts(content: string | ContentPart[], model: ResolvedModel, role: string): (TextBlock | ImageBlock | DocumentBlock)[] {
  const parts: ContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return parts.flatMap((part): (TextBlock | ImageBlock | DocumentBlock)[] => {
    const cache = part.cache_control ? { cache_control: part.cache_control } : {};
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text, ...cache }];
    if (part.type === 'file') return [convertDocument(part, model, role)];
    if (role !== 'user' && role !== 'tool') throw new AppError('bad_request', `Anthropic accepts images only in user and tool messages, not in ${role} messages`);
    return [{ ...convertImage(part.image_url.url, model), ...cache }];
  });
}

/**
 * Signatures only verify against the provider that produced them, so only details stamped with an
 * Anthropic format (ours is "anthropic-claude-v1", as OpenRouter's) or none are replayed. A client that concatenated streamed fragments naively may
 * send several `reasoning.text` entries sharing an index; they are joined back into one block first.
 * Unsigned text (e.g. a plain `reasoning` string) cannot be replayed: Anthropic rejects unsigned thinking.
 */
function convertReasoningDetails(details: ReasoningDetail[] | undefined): Block[] {
  const anthropic = (details ?? []).filter((detail) => detail.format === undefined || detail.format.startsWith('anthropic'));
  return mergeReasoningFragments(anthropic).flatMap((detail): Block[] => {
    if (detail.type === 'reasoning.text' && detail.signature) return [{ type: 'thinking', thinking: detail.text, signature: detail.signature }];
    if (detail.type === 'reasoning.encrypted') return [{ type: 'redacted_thinking', data: detail.data }];
    return [];
  });
}

function convertToolCall(call: ToolCall): Block {
  return { type: 'tool_use', id: call.id, name: call.function.name, input: toolCallInput(call) };
}

/**
 * OpenAI messages → Anthropic's `system` plus strictly alternating user/assistant turns.
 * system/developer messages may appear anywhere and are hoisted, in order. Tool results become
 * tool_result blocks in a user turn; consecutive same-role messages merge into one turn, with the
 * tool_result blocks first as Anthropic requires. `name` has no Anthropic equivalent and is dropped.
 */
export function convertMessages(messages: ChatMessage[], model: ResolvedModel): { system: TextBlock[]; messages: AnthropicMessage[] } {
  const system: TextBlock[] = [];
  const turns: AnthropicMessage[] = [];
  const toolUseIds = new Set<string>();
  const append = (role: AnthropicMessage['role'], blocks: Block[]) => {
    if (blocks.length === 0) return; // an empty message would break alternation and Anthropic rejects it
    const last = turns[turns.length - 1];
    if (last?.role === role) last.content.push(...blocks);
    else turns.push({ role, content: blocks });
  };

  for (const message of messages) {
    switch (message.role) {
      case 'system':
      case 'developer':
        system.push(...(convertParts(message.content, model, message.role) as TextBlock[]));
        break;
      case 'user':
        append('user', convertParts(message.content, model, 'user'));
        break;
      case 'assistant':
        for (const call of message.tool_calls ?? []) toolUseIds.add(call.id);
        append('assistant', [
          // Signed thinking first: with thinking on, Anthropic requires it before the tool_use it led to.
          ...convertReasoningDetails(message.reasoning_details),
          ...(message.content ? convertParts(message.content, model, 'assistant') : []),
          ...(message.tool_calls ?? []).map(convertToolCall),
        ]);
        break;
      case 'tool': {
        if (!toolUseIds.has(message.tool_call_id)) {
          throw new AppError('bad_request', `Tool message references tool_call_id ${message.tool_call_id}, which no earlier assistant tool call has`);
        }
        const content = typeof message.content === 'string' ? message.content : convertParts(message.content, model, 'tool');
        const isEmpty = content.length === 0;
        append('user', [{ type: 'tool_result', tool_use_id: message.tool_call_id, ...(isEmpty ? {} : { content }) }]);
        break;
      }
    }
  }

  for (const turn of turns) {
    if (turn.role === 'user') turn.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  if (turns.length === 0) throw new AppError('bad_request', 'At least one non-empty user or assistant message is required');
  return { system, messages: turns };
}

function convertToolChoice(req: ChatRequest): Record<string, unknown> | undefined {
  const choice = req.tool_choice;
  let converted: Record<string, unknown> | undefined;
  if (choice === 'auto' || (choice === undefined && req.parallel_tool_calls === false)) converted = { type: 'auto' };
  else if (choice === 'required') converted = { type: 'any' };
  else if (choice === 'none') converted = { type: 'none' };
  else if (choice !== undefined) {
    const name = choice.function.name;
    if (!req.tools?.some((tool) => tool.function.name === name)) throw new AppError('bad_request', `tool_choice names ${name}, which is not among the tools`);
    converted = { type: 'tool', name };
  }
  // {type:'none'} does not take the flag; with no tool use there is nothing to parallelise.
  if (converted && converted.type !== 'none' && req.parallel_tool_calls === false) converted.disable_parallel_tool_use = true;
  return converted;
}

/** This API version has no JSON mode: the schema becomes a system instruction (no guarantee, but close). */
function responseFormatInstruction(format: ResponseFormat | undefined): string | null {
  if (format?.type === 'json_object') return 'Respond only with a single JSON object, with no text before or after it.';
  if (format?.type === 'json_schema') {
    const schema = format.json_schema.schema ? JSON.stringify(format.json_schema.schema) : '{"type":"object"}';
    return `Respond only with a JSON object matching this JSON schema, with no text before or after it: ${schema}`;
  }
  return null;
}

/**
 * Removes replayed thinking from the history (plan-thinking.ts says when), in place. A turn left empty is
 * dropped and its neighbours, now of the same role, merged, as convertMessages would have built them.
 */
function dropThinkingBlocks(messages: AnthropicMessage[]): void {
  const kept: AnthropicMessage[] = [];
  for (const message of messages) {
    const content = message.content.filter((block) => block.type !== 'thinking' && block.type !== 'redacted_thinking');
    if (content.length === 0) continue;
    const last = kept[kept.length - 1];
    if (last?.role === message.role) last.content.push(...content);
    else kept.push({ role: message.role, content });
  }
  for (const turn of kept) {
    if (turn.role === 'user') turn.content.sort((a, b) => Number(b.type === 'tool_result') - Number(a.type === 'tool_result'));
  }
  messages.splice(0, messages.length, ...kept);
}

/**
 * ChatRequest → POST /v1/messages. Prompt-cache breakpoints go where the client put them, or where the
 * top-level `cache_control` option puts them (place-cache-breakpoints.ts). Dropped: `seed` (no equivalent), `stream_options` (Anthropic always
 * reports usage), image `detail`, tool `strict`, message `name`. `reasoning.exclude` does not stop the
 * model thinking (the gateway strips reasoning from what the client sees); on models that omit thinking
 * text by default it only means the text is not asked for (plan-thinking.ts).
 */
export function convertRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  const { config } = ctx;
  const { body, betas } = convertMessagesBody(req, ctx);
  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  if (betas.length > 0) headers['anthropic-beta'] = betas.join(',');
  // No key: a key-injecting proxy as baseUrl is legitimate; Anthropic answers 401 otherwise.
  if (config.apiKey) headers['x-api-key'] = config.apiKey;
  // Accept "https://api.anthropic.com" and "https://api.anthropic.com/v1" alike.
  const base = config.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { url: `${base}/v1/messages`, method: 'POST', headers, body: JSON.stringify(body) };
}

/**
 * The Messages API body and the betas it needs, shared by POST /v1/messages and Claude on Vertex AI
 * (server/providers/vertex), which sends the same body without `model` and with its own `anthropic_version`.
 */
export function convertMessagesBody(req: ChatRequest, ctx: ConvertContext): { body: Record<string, unknown>; betas: string[] } {
  const { model } = ctx;
  refuseLogprobs(req, model.id, 'Anthropic returns no log probabilities');
  const { system, messages } = convertMessages(req.messages, model);
  const tools = req.tools?.length
    ? req.tools.map((tool) => ({
        name: tool.function.name,
        ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
        input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
        ...(tool.cache_control ? { cache_control: tool.cache_control } : {}),
      }))
    : undefined;
  const plan = planThinking(req, model, messages, tools ? convertToolChoice(req) : undefined);
  if (plan.dropThinkingBlocks) dropThinkingBlocks(messages);

  const instruction = responseFormatInstruction(req.response_format);
  if (instruction) system.push({ type: 'text', text: instruction });
  placeCacheBreakpoints({ tools, system, messages }, req.cache_control);

  const body: Record<string, unknown> = { model: model.upstreamModel, max_tokens: plan.maxTokens, messages, stream: req.stream };
  if (system.length > 0) body.system = system;
  if (plan.thinking) body.thinking = plan.thinking;
  if (plan.effort) body.output_config = { effort: plan.effort };
  if (plan.sampling) {
    // Anthropic's range is 0–1, OpenAI's 0–2. Clamping keeps common values (0, 0.2, 0.7, 1) meaning the same.
    if (req.temperature !== undefined) body.temperature = Math.min(1, Math.max(0, req.temperature));
    // Newer Claude models reject temperature and top_p together; temperature is the one clients mean.
    else if (req.top_p !== undefined) body.top_p = req.top_p;
  }
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (stop?.length) body.stop_sequences = stop;
  if (req.user) body.metadata = { user_id: req.user };
  if (tools) body.tools = tools;
  if (plan.toolChoice) body.tool_choice = plan.toolChoice;
  return { body, betas: plan.betas };
}
