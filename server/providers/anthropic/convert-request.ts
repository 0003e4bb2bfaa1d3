import { AppError } from '@/server/errors';
import type { ChatMessage, ChatRequest, ContentPart, ConvertContext, ReasoningDetail, ResolvedModel, ResponseFormat, ToolCall, UpstreamRequest } from '@/server/providers/types';

export const ANTHROPIC_VERSION = '2023-06-01';

/** Anthropic requires max_tokens; OpenAI clients often omit it. Used (capped by the model) when thinking is off. */
export const DEFAULT_MAX_TOKENS = 8192;
/** Anthropic rejects a smaller budget_tokens. */
export const MIN_THINKING_BUDGET = 1024;
/** Output kept free for the visible answer when a thinking budget has to fit under max_tokens. */
export const MIN_ANSWER_TOKENS = 1024;
/** reasoning.effort → budget_tokens. No reasoning param on a reasoning model means `medium`. */
export const THINKING_BUDGETS = { minimal: 1024, low: 4096, medium: 8192, high: 16384 } as const;

const IMAGE_MEDIA_TYPES = new Set(['image/jpeg', 'image/png', 'image/gif', 'image/webp']);

type TextBlock = { type: 'text'; text: string };
type ImageBlock = { type: 'image'; source: { type: 'base64'; media_type: string; data: string } | { type: 'url'; url: string } };
type Block =
  | TextBlock
  | ImageBlock
  | { type: 'tool_use'; id: string; name: string; input: Record<string, unknown> }
  | { type: 'tool_result'; tool_use_id: string; content?: string | (TextBlock | ImageBlock)[] }
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

/** Text and image parts. Empty text is dropped: Anthropic rejects empty text blocks, OpenAI clients send them. */
function convertParts(content: string | ContentPart[], model: ResolvedModel, role: string): (TextBlock | ImageBlock)[] {
  const parts: ContentPart[] = typeof content === 'string' ? [{ type: 'text', text: content }] : content;
  return parts.flatMap((part): (TextBlock | ImageBlock)[] => {
    if (part.type === 'text') return part.text === '' ? [] : [{ type: 'text', text: part.text }];
    if (role !== 'user' && role !== 'tool') throw new AppError('bad_request', `Anthropic accepts images only in user and tool messages, not in ${role} messages`);
    return [convertImage(part.image_url.url, model)];
  });
}

/**
 * Signatures only verify against the provider that produced them, so only details stamped with an
 * Anthropic format (ours is "anthropic-claude-v1", as OpenRouter's) or none are replayed. A client that concatenated streamed fragments naively may
 * send several `reasoning.text` entries sharing an index; they are joined back into one block first.
 * Unsigned text (e.g. a plain `reasoning` string) cannot be replayed: Anthropic rejects unsigned thinking.
 */
function convertReasoningDetails(details: ReasoningDetail[] | undefined): Block[] {
  const merged: ReasoningDetail[] = [];
  for (const detail of details ?? []) {
    if (detail.format !== undefined && !detail.format.startsWith('anthropic')) continue;
    const last = merged[merged.length - 1];
    if (last?.type === 'reasoning.text' && detail.type === 'reasoning.text' && detail.index !== undefined && last.index === detail.index) {
      merged[merged.length - 1] = { ...last, text: last.text + detail.text, signature: detail.signature || last.signature };
    } else merged.push(detail);
  }
  return merged.flatMap((detail): Block[] => {
    if (detail.type === 'reasoning.text' && detail.signature) return [{ type: 'thinking', thinking: detail.text, signature: detail.signature }];
    if (detail.type === 'reasoning.encrypted') return [{ type: 'redacted_thinking', data: detail.data }];
    return [];
  });
}

function convertToolCall(call: ToolCall): Block {
  let input: unknown;
  try {
    // Some clients send "" for a call without arguments.
    input = call.function.arguments.trim() === '' ? {} : JSON.parse(call.function.arguments);
  } catch {
    throw new AppError('bad_request', `Tool call ${call.id} (${call.function.name}) has arguments that are not valid JSON`);
  }
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw new AppError('bad_request', `Tool call ${call.id} (${call.function.name}) must have a JSON object as arguments`);
  }
  return { type: 'tool_use', id: call.id, name: call.function.name, input: input as Record<string, unknown> };
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

/** The thinking budget the request asks for, or null when thinking is off. */
function requestedThinkingBudget(req: ChatRequest, model: ResolvedModel): number | null {
  if (!model.supportsReasoning) return null;
  const reasoning = req.reasoning ?? {};
  const effort = reasoning.effort ?? req.reasoning_effort;
  if (reasoning.enabled === false) return null;
  if (reasoning.max_tokens !== undefined && reasoning.max_tokens > 0) return Math.max(MIN_THINKING_BUDGET, reasoning.max_tokens);
  if (reasoning.max_tokens === 0 && effort === undefined) return null;
  return THINKING_BUDGETS[effort ?? 'medium'];
}

/**
 * With thinking on, Anthropic requires the assistant turn that is mid tool loop to start with its signed
 * thinking block. Most OpenAI clients drop reasoning_details (and `reasoning.exclude` hides them), so
 * when the last assistant turn used tools without one we turn thinking off for this call instead of
 * sending a request Anthropic would reject.
 */
function toolTurnLacksThinking(messages: AnthropicMessage[]): boolean {
  const last = [...messages].reverse().find((message) => message.role === 'assistant');
  if (!last?.content.some((block) => block.type === 'tool_use')) return false;
  return last.content[0].type !== 'thinking' && last.content[0].type !== 'redacted_thinking';
}

/**
 * max_tokens and thinking budget. OpenAI's max_tokens/max_completion_tokens cap all output, reasoning
 * included, and so does Anthropic's max_tokens — so a client's cap is passed as is (capped by the model)
 * and the budget shrinks to leave MIN_ANSWER_TOKENS for the answer. Without a cap, max_tokens is the
 * budget plus DEFAULT_MAX_TOKENS for the answer. If no budget ≥ 1024 fits, thinking is turned off
 * rather than failing the request.
 */
export function planOutputTokens(req: ChatRequest, model: ResolvedModel, wantedBudget: number | null): { maxTokens: number; budget: number | null } {
  const cap = req.max_completion_tokens ?? req.max_tokens;
  const withoutThinking = { maxTokens: Math.min(model.maxOutputTokens, cap ?? DEFAULT_MAX_TOKENS), budget: null };
  if (wantedBudget === null) return withoutThinking;
  const maxTokens = Math.min(model.maxOutputTokens, cap ?? wantedBudget + DEFAULT_MAX_TOKENS);
  const budget = Math.min(wantedBudget, maxTokens - MIN_ANSWER_TOKENS);
  return budget < MIN_THINKING_BUDGET ? withoutThinking : { maxTokens, budget };
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
 * ChatRequest → POST /v1/messages. Dropped: `seed` (no equivalent), `stream_options` (Anthropic always
 * reports usage), image `detail`, tool `strict`, message `name`. `reasoning.exclude` does not change the
 * upstream call — the model still thinks; the gateway strips reasoning from what the client sees.
 */
export function convertRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  const { model, config } = ctx;
  const { system, messages } = convertMessages(req.messages, model);
  const tools = req.tools?.length
    ? req.tools.map((tool) => ({
        name: tool.function.name,
        ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
        input_schema: tool.function.parameters ?? { type: 'object', properties: {} },
      }))
    : undefined;
  const toolChoice = tools ? convertToolChoice(req) : undefined;

  let wantedBudget = requestedThinkingBudget(req, model);
  // Anthropic refuses thinking with a forced tool (any/tool); honouring the client's tool choice wins.
  const forcedTool = toolChoice?.type === 'any' || toolChoice?.type === 'tool';
  if (forcedTool || toolTurnLacksThinking(messages)) wantedBudget = null;
  const { maxTokens, budget } = planOutputTokens(req, model, wantedBudget);

  const instruction = responseFormatInstruction(req.response_format);
  if (instruction) system.push({ type: 'text', text: instruction });

  const body: Record<string, unknown> = { model: model.upstreamModel, max_tokens: maxTokens, messages, stream: req.stream };
  if (system.length > 0) body.system = system;
  if (budget !== null) {
    // Thinking is incompatible with temperature and with top_p outside 0.95–1: they are dropped, not rejected.
    body.thinking = { type: 'enabled', budget_tokens: budget };
  } else {
    // Anthropic's range is 0–1, OpenAI's 0–2. Clamping keeps common values (0, 0.2, 0.7, 1) meaning the same.
    if (req.temperature !== undefined) body.temperature = Math.min(1, Math.max(0, req.temperature));
    // Newer Claude models reject temperature and top_p together; temperature is the one clients mean.
    else if (req.top_p !== undefined) body.top_p = req.top_p;
  }
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (stop?.length) body.stop_sequences = stop;
  if (req.user) body.metadata = { user_id: req.user };
  if (tools) body.tools = tools;
  if (toolChoice) body.tool_choice = toolChoice;

  const headers: Record<string, string> = { 'content-type': 'application/json', 'anthropic-version': ANTHROPIC_VERSION };
  // No key: a key-injecting proxy as baseUrl is legitimate; Anthropic answers 401 otherwise.
  if (config.apiKey) headers['x-api-key'] = config.apiKey;
  // Accept "https://api.anthropic.com" and "https://api.anthropic.com/v1" alike.
  const base = config.baseUrl.replace(/\/+$/, '').replace(/\/v1$/, '');
  return { url: `${base}/v1/messages`, method: 'POST', headers, body: JSON.stringify(body) };
}
