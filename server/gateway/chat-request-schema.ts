// The chat completions request, validated once at the edge. Unknown fields are ignored (zod strips them),
// as OpenAI SDKs and agents send parameters we do not use. The same schema feeds the OpenAPI document.
import { z } from 'zod';
import { AppError, badRequestFromZod } from '@/server/errors';
import { boundedJsonObject } from '@/server/validation/fields';

export const MAX_MESSAGES = 5_000;
export const MAX_BODY_BYTES = 25 * 1024 * 1024;

const modelName = z.string().min(1, 'a model name must not be empty').max(256);
const providerId = z.string().min(1).max(64);

/**
 * A prompt-cache breakpoint (Anthropic's `cache_control`), kept wherever the client puts it: on text, image
 * and file parts of any message, and on tool definitions. Passed to Anthropic at exactly that place.
 */
export const cacheControlSchema = z
  .object({
    type: z.literal('ephemeral'),
    ttl: z.enum(['5m', '1h']).optional().describe('How long the cached prefix lives: "5m" (the default) or "1h" (dearer to write, see the model\'s input_cache_write_1h price).'),
  })
  .describe(
    'A prompt-cache breakpoint: the prompt up to and including this part (or tool) is cached. Passed to Anthropic exactly here (at most 4 per request); other providers cache on their own and ignore it. A string `content` has no place for it: send parts.',
  );

const textPart = z.object({ type: z.literal('text'), text: z.string(), cache_control: cacheControlSchema.optional() });
const imagePart = z.object({
  type: z.literal('image_url'),
  image_url: z.object({ url: z.string().min(1, 'image_url.url must not be empty'), detail: z.enum(['auto', 'low', 'high']).optional() }),
  cache_control: cacheControlSchema.optional(),
});
/** A document (PDF) as OpenAI's file part: `file_data` is a base64 data URL (`data:application/pdf;base64,…`). */
const filePart = z.object({
  type: z.literal('file'),
  file: z
    .object({ filename: z.string().max(1024).optional(), file_data: z.string().min(1).optional(), file_id: z.string().max(256).optional() })
    .refine((f) => f.file_data !== undefined || f.file_id !== undefined, 'a file part needs file.file_data (a base64 data URL) or file.file_id')
    .describe(
      'A PDF document, for models with supportsPdf: `file_data` as `data:application/pdf;base64,…` (to Anthropic as a document block, to Gemini as inline data, to OpenAI as is), or `file_id` of a file uploaded to OpenAI (OpenAI models only).',
    ),
  cache_control: cacheControlSchema.optional(),
});
const part = z.discriminatedUnion('type', [textPart, imagePart, filePart], {
  error: (iss) => (iss.code === 'invalid_union' ? `Unsupported content part${partType(iss.input)}: use {"type":"text"}, {"type":"image_url"} or {"type":"file"}` : undefined),
});

const partType = (input: unknown) => {
  const type = input && typeof input === 'object' ? (input as { type?: unknown }).type : undefined;
  return typeof type === 'string' ? ` "${type.slice(0, 64)}"` : '';
};

/**
 * A string or an array of parts. Zod reports a union that failed as "Invalid input": for an array, the part
 * that is wrong is named instead ("0: Unsupported content part "input_audio": use …").
 */
function contentOf<P extends z.ZodType>(parts: z.ZodArray<P>) {
  return z.union([z.string(), parts], {
    error: (iss) => {
      if (iss.code !== 'invalid_union' || !Array.isArray(iss.input)) return 'content must be a string or an array of content parts';
      const inner = (iss.errors as { path: PropertyKey[]; message: string }[][]).flat().find((e) => e.path.length > 0);
      return inner ? `${inner.path.map(String).join('.')}: ${inner.message}` : undefined;
    },
  });
}
const content = contentOf(z.array(part));

/** OpenAI's refusal part, in an assistant message sent back: kept as its text. */
const refusalPart = z.object({ type: z.literal('refusal'), refusal: z.string() }).transform((p): z.output<typeof textPart> => ({ type: 'text', text: p.refusal }));
const assistantContent = contentOf(
  z.array(
    z.union([part, refusalPart], {
      error: (iss) => (iss.code === 'invalid_union' ? `Unsupported content part${partType(iss.input)}: use {"type":"text"}, {"type":"refusal"}, {"type":"image_url"} or {"type":"file"}` : undefined),
    }),
  ),
);

const toolCall = z.object({
  id: z.string().min(1),
  type: z.literal('function').default('function'),
  function: z.object({ name: z.string().min(1), arguments: z.string().default('') }),
});

const reasoningDetail = z.union([
  z.object({ type: z.literal('reasoning.text'), text: z.string().default(''), signature: z.string().nullish(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
  z.object({ type: z.literal('reasoning.encrypted'), data: z.string(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
  z.object({ type: z.literal('reasoning.summary'), summary: z.string(), format: z.string().optional(), index: z.number().optional(), id: z.string().optional() }),
]);

const message = z.discriminatedUnion(
  'role',
  [
    z.object({ role: z.enum(['system', 'developer']), content, name: z.string().optional() }),
    z.object({ role: z.literal('user'), content, name: z.string().optional() }),
    z.object({
      role: z.literal('assistant'),
      content: assistantContent.nullish(),
      tool_calls: z.array(toolCall).optional(),
      reasoning: z.string().nullish(),
      reasoning_details: z.array(reasoningDetail).optional(),
      name: z.string().optional(),
    }),
    z.object({ role: z.literal('tool'), content, tool_call_id: z.string({ error: 'tool messages need tool_call_id' }).min(1) }),
  ],
  { error: (iss) => (iss.code === 'invalid_union' ? 'role must be one of system, developer, user, assistant, tool' : undefined) },
);

/**
 * OpenAI's efforts. 'none' is reasoning off (as `reasoning.enabled: false`) and 'xhigh' is sent as 'high':
 * both are folded while parsing (parseChatRequest), so providers see only the four below.
 */
const effort = z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']);
type Effort = 'minimal' | 'low' | 'medium' | 'high';

export const chatRequestSchema = z.object({
  model: z.string({ error: 'model is required, e.g. "openai/gpt-4o-mini"' }).min(1, 'model is required').max(256, 'model must be at most 256 characters'),
  messages: z
    .array(message, { error: 'messages is required and must be an array' })
    .min(1, 'messages must not be empty')
    .max(MAX_MESSAGES, `at most ${MAX_MESSAGES} messages per request`),
  stream: z.boolean().default(true),
  temperature: z.number().min(0, 'temperature must be between 0 and 2').max(2, 'temperature must be between 0 and 2').optional(),
  top_p: z.number().min(0).max(1).optional(),
  max_tokens: z.number().int().positive().optional(),
  max_completion_tokens: z.number().int().positive().optional(),
  stop: z.union([z.string(), z.array(z.string()).max(16)]).optional(),
  seed: z.number().int().optional(),
  n: z
    .number()
    .int()
    .min(1, 'n must be at least 1')
    .max(128)
    .optional()
    .describe('How many choices to generate (default 1). n > 1 where the provider generates several (OpenAI Chat Completions, Azure OpenAI, xAI); elsewhere a 400 naming the model, never silently reduced. The output limit applies to each choice, and the reservation holds it n times.'),
  logprobs: z
    .boolean()
    .optional()
    .describe(
      'Return the log probabilities of the output tokens (choices[].logprobs, and `logprobs` on each stream chunk). Passed to OpenAI chat models and OpenAI-compatible servers (DeepSeek with thinking off); every other model answers 400 naming the parameter and the model.',
    ),
  top_logprobs: z
    .number()
    .int()
    .min(0)
    .max(20)
    .optional()
    .describe('With logprobs: how many most likely alternatives to return per token (0–20). Supported where logprobs is, else 400.'),
  tools: z
    .array(
      z.object({
        type: z.literal('function', { error: 'only function tools are supported here ({"type":"function","function":{…}}); custom (freeform) tools work on /api/v1/responses' }),
        function: z.object({
          name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'function names: letters, digits, _ and -, at most 64'),
          description: z.string().optional(),
          parameters: boundedJsonObject().optional(),
          strict: z.boolean().nullish().transform((v) => v ?? undefined).optional(),
        }),
        cache_control: cacheControlSchema.optional(),
      }),
    )
    .max(512)
    .optional(),
  tool_choice: z
    .union(
      [
        z.enum(['none', 'auto', 'required']),
        z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) }),
        z.object({
          type: z.literal('allowed_tools'),
          allowed_tools: z.object({
            mode: z.enum(['auto', 'required']),
            tools: z.array(z.object({ type: z.literal('function'), function: z.object({ name: z.string() }) })).min(1).max(512),
          }),
        }),
      ],
      { error: 'tool_choice must be "none", "auto", "required", {"type":"function","function":{"name"}} or {"type":"allowed_tools","allowed_tools":{"mode","tools"}}' },
    )
    .optional()
    .describe('As OpenAI\'s. `allowed_tools` limits the model to some of `tools` (mode `auto` or `required`): every provider gets only those tools.'),
  parallel_tool_calls: z.boolean().optional(),
  response_format: z
    .union([
      z.object({ type: z.literal('text') }),
      z.object({ type: z.literal('json_object') }),
      z.object({ type: z.literal('json_schema'), json_schema: z.object({ name: z.string(), schema: boundedJsonObject().optional(), strict: z.boolean().nullish().transform((v) => v ?? undefined).optional(), description: z.string().optional() }) }),
    ])
    .optional(),
  user: z.string().max(256).optional(),
  reasoning: z.object({ effort: effort.optional(), max_tokens: z.number().int().min(0).optional(), exclude: z.boolean().optional(), enabled: z.boolean().optional() }).optional(),
  reasoning_effort: effort.optional(),
  stream_options: z.object({ include_usage: z.boolean().optional() }).optional(),
  verbosity: z
    .enum(['low', 'medium', 'high'])
    .optional()
    .describe("OpenAI's verbosity of the answer, passed to OpenAI's GPT-5 and later models (`text.verbosity` on the Responses API); other models ignore it."),
  safety_identifier: z
    .string()
    .max(256)
    .optional()
    .describe("OpenAI's stable id of your end user for abuse detection, passed to OpenAI models; other providers ignore it."),
  /** OpenAI's prompt-cache routing hint; also our affinity key when X-Task-ID is absent (routing/plan-route.ts). */
  prompt_cache_key: z
    .string()
    .max(1024)
    .optional()
    .describe("OpenAI's prompt-cache routing key, passed to OpenAI. When absent, the X-Task-ID header's value is sent, so the turns of one agent task share a cache."),
  /**
   * Automatic prompt caching (the top-level `cache_control` of Anthropic's Messages API and OpenRouter): for
   * Anthropic models, breakpoints on the last tool, the last system part and the last part of the last user
   * turn, when the request marks none itself (providers/anthropic/place-cache-breakpoints.ts).
   */
  cache_control: cacheControlSchema
    .optional()
    .describe(
      'Automatic prompt caching for Anthropic models: when no part or tool carries its own cache_control, breakpoints with this ttl are added on the last tool, the last system part and the last part of the last user turn. Ignored when the request marks breakpoints itself, and by providers that cache on their own.',
    ),
  /** OpenRouter's fallback models, tried in order after `model` (before the first byte only). */
  models: z.array(modelName).max(10).optional(),
  /** OpenRouter's provider preferences (routing/plan-route.ts). */
  provider: z
    .object({
      order: z.array(providerId).max(50).optional(),
      only: z.array(providerId).max(50).optional(),
      ignore: z.array(providerId).max(50).optional(),
      allow_fallbacks: z.boolean().optional(),
      sort: z.enum(['price', 'latency', 'throughput']).optional(),
    })
    .optional(),
});

/**
 * The client's own body, for an upstream of the same family: a `/api/v1/messages` request to an Anthropic
 * endpoint, a `/api/v1/responses` request to an OpenAI endpoint, passes on nearly unchanged (thinking
 * signatures and cache breakpoints byte for byte). The chat fields are filled all the same: routing,
 * estimates and every other provider's converter read those.
 */
export type NativeRequest =
  | { format: 'anthropic-messages'; body: Record<string, unknown>; /** The client's `anthropic-beta` header, forwarded. */ beta?: string; /** Its `anthropic-version`, forwarded. */ version?: string }
  | { format: 'openai-responses'; body: Record<string, unknown> };

type ParsedChatRequest = z.output<typeof chatRequestSchema>;
type AllowedToolsChoice = Extract<NonNullable<ParsedChatRequest['tool_choice']>, { type: 'allowed_tools' }>;
type ParsedReasoning = NonNullable<ParsedChatRequest['reasoning']>;

/**
 * The validated request: the one type of a chat request (providers/types.ts re-exports it and its parts).
 * `allowed_tools` and the efforts 'none' and 'xhigh' are applied while parsing (parseChatRequest), so no
 * provider sees them.
 */
export type ChatRequest = Omit<ParsedChatRequest, 'tool_choice' | 'reasoning' | 'reasoning_effort'> & {
  tool_choice?: Exclude<ParsedChatRequest['tool_choice'], AllowedToolsChoice>;
  reasoning?: Omit<ParsedReasoning, 'effort'> & { effort?: Effort };
  reasoning_effort?: Effort;
  native?: NativeRequest;
};

/** Validates and checks what a schema cannot: a user message exists, tool results answer earlier calls. */
export function parseChatRequest(json: unknown): ChatRequest {
  const r = chatRequestSchema.safeParse(json);
  if (!r.success) throw badRequestFromZod(r.error);
  const req = applyChoices(r.data);
  if (!req.messages.some((m) => m.role === 'user')) throw new AppError('bad_request', 'messages must include at least one user message');
  const callIds = new Set<string>();
  req.messages.forEach((m, i) => {
    if (m.role === 'assistant') for (const c of m.tool_calls ?? []) callIds.add(c.id);
    if (m.role === 'tool' && !callIds.has(m.tool_call_id)) {
      throw new AppError('bad_request', `messages.${i}.tool_call_id "${m.tool_call_id}" does not match the id of any earlier assistant tool call`);
    }
  });
  return req;
}

export function hasImages(req: ChatRequest): boolean {
  return req.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'image_url'));
}

export function hasFiles(req: ChatRequest): boolean {
  return req.messages.some((m) => Array.isArray(m.content) && m.content.some((p) => p.type === 'file'));
}

/**
 * What the providers never see, applied to the freshly parsed request in place (no copy: this runs on every
 * chat request): `tool_choice: allowed_tools` narrows `tools` to the allowed ones with its mode as the
 * tool_choice; effort 'none' is reasoning off (`reasoning.effort` wins over `reasoning_effort`, as
 * everywhere) and 'xhigh' is 'high'.
 */
function applyChoices(req: ParsedChatRequest): ChatRequest {
  const choice = req.tool_choice;
  if (typeof choice === 'object' && choice.type === 'allowed_tools') {
    const allowed = new Set(choice.allowed_tools.tools.map((t) => t.function.name));
    const tools = (req.tools ?? []).filter((t) => allowed.has(t.function.name));
    const missing = [...allowed].filter((name) => !tools.some((t) => t.function.name === name));
    if (missing.length > 0) throw new AppError('bad_request', `tool_choice.allowed_tools names ${missing.map((n) => `"${n}"`).join(', ')}, which tools does not define`);
    req.tools = tools;
    req.tool_choice = choice.allowed_tools.mode;
  }
  const off = (req.reasoning?.effort ?? req.reasoning_effort) === 'none';
  const fold = (e: z.output<typeof effort> | undefined): Effort | undefined => (e === 'none' ? undefined : e === 'xhigh' ? 'high' : e);
  if (req.reasoning_effort === 'none' || req.reasoning_effort === 'xhigh') req.reasoning_effort = fold(req.reasoning_effort);
  if (req.reasoning?.effort === 'none' || req.reasoning?.effort === 'xhigh') req.reasoning.effort = fold(req.reasoning.effort);
  if (off) req.reasoning = { ...req.reasoning, enabled: false };
  return req as ChatRequest;
}
