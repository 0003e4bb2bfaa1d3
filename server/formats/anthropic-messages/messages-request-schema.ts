// The Anthropic Messages API request (POST /api/v1/messages), as Anthropic documents it
// (platform.claude.com/docs/en/api/messages): content blocks text, image, document, search_result, tool_use, tool_result,
// thinking, redacted_thinking; `system` as a string or text blocks; tools, tool_choice, thinking, max_tokens
// (required), stop_sequences, temperature, top_p, top_k, metadata, cache_control, stream.
//
// Lenient where Anthropic adds things: unknown top-level fields and block types Anthropic runs itself
// (server_tool_use, web_search_tool_result, …) are accepted. To an Anthropic endpoint the client's own body
// goes on nearly unchanged (convert-native-request.ts), so they keep working there; other providers never
// see them (convert-messages-request.ts drops them). Known block types are checked strictly.
import { z } from 'zod';
import { badRequestFromZod } from '@/server/errors';
import { cacheControlSchema, MAX_MESSAGES } from '@/server/gateway/chat-request-schema';
import { boundedJsonObject } from '@/server/validation/fields';

const cache_control = cacheControlSchema.nullish();

const textBlock = z.object({ type: z.literal('text'), text: z.string(), cache_control, citations: z.unknown().optional() });

const base64Source = z.object({ type: z.literal('base64'), media_type: z.string().min(1), data: z.string().min(1) });
const urlSource = z.object({ type: z.literal('url'), url: z.string().min(1) });
const fileSource = z.object({ type: z.literal('file'), file_id: z.string().min(1) });

const imageBlock = z.object({ type: z.literal('image'), source: z.discriminatedUnion('type', [base64Source, urlSource, fileSource]), cache_control });

const documentBlock = z.object({
  type: z.literal('document'),
  source: z.discriminatedUnion('type', [
    base64Source,
    urlSource,
    fileSource,
    z.object({ type: z.literal('text'), media_type: z.string().optional(), data: z.string() }),
    z.object({ type: z.literal('content'), content: z.union([z.string(), z.array(z.looseObject({ type: z.string(), text: z.string().optional() }).transform((c) => ({ text: c.text })))]) }),
  ]),
  title: z.string().nullish(),
  context: z.string().nullish(),
  citations: z.unknown().optional(),
  cache_control,
});

/**
 * A search result the application retrieved itself (RAG), cited like a document by Anthropic's models. Other
 * providers read it as text (convert-messages-request.ts).
 */
const searchResultBlock = z.object({
  type: z.literal('search_result'),
  source: z.string(),
  title: z.string(),
  content: z.array(textBlock),
  citations: z.unknown().optional(),
  cache_control,
});

const toolUseBlock = z.object({ type: z.literal('tool_use'), id: z.string().min(1), name: z.string().min(1), input: z.record(z.string(), z.unknown()), cache_control });

const KNOWN_BLOCKS = new Set(['text', 'image', 'document', 'search_result', 'tool_use', 'tool_result', 'thinking', 'redacted_thinking']);
/**
 * A block type Anthropic added or runs itself (a malformed known block must not slip through here). Read
 * as `unsupported`: only the client's raw body, passed to Anthropic, keeps it.
 */
const otherBlock = z
  .looseObject({ type: z.string().refine((t) => !KNOWN_BLOCKS.has(t), 'malformed content block') })
  .transform((block) => ({ type: 'unsupported' as const, original_type: block.type }));

const toolResultBlock = z.object({
  type: z.literal('tool_result'),
  tool_use_id: z.string().min(1),
  content: z.union([z.string(), z.array(z.union([textBlock, imageBlock, documentBlock, searchResultBlock, otherBlock]))]).optional(),
  is_error: z.boolean().optional(),
  cache_control,
});

const thinkingBlock = z.object({ type: z.literal('thinking'), thinking: z.string(), signature: z.string() });
const redactedThinkingBlock = z.object({ type: z.literal('redacted_thinking'), data: z.string() });

export const contentBlockSchema = z.union([textBlock, imageBlock, documentBlock, searchResultBlock, toolUseBlock, toolResultBlock, thinkingBlock, redactedThinkingBlock, otherBlock]);
export type MessagesContentBlock = z.output<typeof contentBlockSchema>;

const message = z.object({
  role: z.enum(['user', 'assistant', 'system'], { error: 'role must be "user" or "assistant"' }),
  content: z.union([z.string(), z.array(contentBlockSchema)]),
});

const customTool = z.object({
  type: z.literal('custom').optional(),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,128}$/, 'tool names: letters, digits, _ and -, at most 128'),
  description: z.string().optional(),
  input_schema: boundedJsonObject(),
  cache_control,
});
/** Anthropic's own tools (web_search_20250305, bash_20250124, text_editor_…): run by Anthropic, passed through only. */
const serverTool = z.looseObject({ type: z.string().refine((t) => t !== 'custom'), name: z.string() }).transform((tool) => ({ type: 'server' as const, name: tool.name }));

const toolChoice = z.discriminatedUnion('type', [
  z.object({ type: z.enum(['auto', 'any']), disable_parallel_tool_use: z.boolean().optional() }),
  z.object({ type: z.literal('none') }),
  z.object({ type: z.literal('tool'), name: z.string().min(1), disable_parallel_tool_use: z.boolean().optional() }),
]);

const thinking = z.discriminatedUnion('type', [
  z.object({ type: z.literal('enabled'), budget_tokens: z.number().int().min(1) }),
  z.object({ type: z.literal('disabled') }),
  z.looseObject({ type: z.literal('adaptive') }),
]);

const fields = {
  model: z.string({ error: 'model is required, e.g. "claude-sonnet-4-5" or "anthropic/claude-sonnet-4.5"' }).min(1).max(256, 'model must be at most 256 characters'),
  messages: z.array(message, { error: 'messages is required and must be an array' }).min(1, 'messages must not be empty').max(MAX_MESSAGES),
  system: z.union([z.string(), z.array(textBlock)]).optional(),
  stop_sequences: z.array(z.string()).max(16).optional(),
  stream: z.boolean().optional(),
  temperature: z.number().min(0, 'temperature must be between 0 and 1').max(1, 'temperature must be between 0 and 1').optional(),
  top_p: z.number().min(0).max(1).optional(),
  top_k: z.number().int().min(0).optional(),
  metadata: z.looseObject({ user_id: z.string().nullish() }).optional(),
  tools: z.array(z.union([customTool, serverTool])).max(512).optional(),
  tool_choice: toolChoice.optional(),
  thinking: thinking.optional(),
  output_config: z.looseObject({ effort: z.string().optional() }).optional(),
};

// A schema-level `error` on z.number() also words the failed .int() and .positive() checks: -1, 1.5 and 1e400
// (Infinity once parsed) were all "required". Missing is required; anything else present says what is wrong.
const MAX_TOKENS_INVALID = 'max_tokens must be a positive integer (the most tokens to generate)';
const maxTokens = (params: Parameters<typeof z.number>[0]) => z.number(params).int(MAX_TOKENS_INVALID).positive(MAX_TOKENS_INVALID);

/** POST /v1/messages. Unknown top-level fields are kept (z.looseObject) for the passthrough. */
export const messagesRequestSchema = z.looseObject({
  ...fields,
  max_tokens: maxTokens({ error: (issue) => (issue.input === undefined ? 'max_tokens is required (the most tokens to generate)' : MAX_TOKENS_INVALID) }),
});
export type MessagesRequest = z.output<typeof messagesRequestSchema>;

/** POST /v1/messages/count_tokens: the same body without max_tokens. */
export const countTokensRequestSchema = z.looseObject({ ...fields, max_tokens: maxTokens({ error: MAX_TOKENS_INVALID }).optional() });
export type CountTokensRequest = z.output<typeof countTokensRequestSchema>;

export function parseMessagesRequest(json: unknown): MessagesRequest {
  const r = messagesRequestSchema.safeParse(json);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}

export function parseCountTokensRequest(json: unknown): CountTokensRequest {
  const r = countTokensRequestSchema.safeParse(json);
  if (!r.success) throw badRequestFromZod(r.error);
  return r.data;
}
