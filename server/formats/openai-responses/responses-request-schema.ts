// The OpenAI Responses API request (POST /v1/responses), as OpenAI documents it (platform.openai.com/docs/
// api-reference/responses/create) and as Codex CLI sends it (codex-rs ResponsesApiRequest: instructions,
// input items, tools, tool_choice "auto", parallel_tool_calls, reasoning {effort, summary}, store false,
// stream true, include ["reasoning.encrypted_content"], prompt_cache_key, text). Unknown fields are ignored.
// Item and tool types we cannot translate (hosted tools, item references…) are accepted: an OpenAI endpoint
// gets them in the client's own body; other models do without them (see convert-input.ts). Custom tools are
// translated to function tools for other models (custom-tools.ts). Item and tool types we translate are held
// to their own schemas: a wrong field is a 400 naming it (input.0.content), never an unchecked object for the
// converters. With `store: true` nothing a stored response cannot hold (NUL, a lone surrogate) is accepted.
import { z } from 'zod';
import { boundedJsonObject, safeString } from '@/server/validation/fields';
import { customToolSchema } from './custom-tools';

const inputText = z.object({ type: z.literal('input_text'), text: z.string() });
const outputText = z.object({ type: z.literal('output_text'), text: z.string() });
const refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high', 'original']).nullish(),
});
const inputFile = z.object({
  type: z.literal('input_file'),
  file_data: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  file_url: z.string().nullish(),
  filename: z.string().max(1024).nullish(),
});
const contentPart = z.discriminatedUnion('type', [inputText, outputText, refusal, inputImage, inputFile], {
  error: (iss) => (iss.code === 'invalid_union' ? 'Unsupported content part: use input_text, input_image, input_file or output_text' : undefined),
});
export type ResponsesContentPart = z.output<typeof contentPart>;
/** A message's content or a call's output: text, or parts. */
const contentOf = (field: string) =>
  z.union([z.string(), z.array(contentPart)], {
    error: (iss) => (iss.code === 'invalid_union' ? `${field} must be a string or an array of content parts (input_text, input_image, input_file, output_text, refusal)` : undefined),
  });

const messageItem = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be one of user, assistant, system, developer' }),
  content: contentOf('content'),
  id: z.string().nullish(),
});
const functionCallItem = z.object({
  type: z.literal('function_call'),
  call_id: z.string().min(1, 'function_call items need call_id'),
  name: z.string().min(1),
  arguments: z.string().default(''),
  id: z.string().nullish(),
});
const functionCallOutputItem = z.object({
  type: z.literal('function_call_output'),
  call_id: z.string().min(1, 'function_call_output items need call_id'),
  output: contentOf('output'),
});
/** A custom (freeform) tool's call and its output (custom-tools.ts). */
const customToolCallItem = z.object({
  type: z.literal('custom_tool_call'),
  call_id: z.string().min(1, 'custom_tool_call items need call_id'),
  name: z.string().min(1),
  input: z.string().default(''),
  id: z.string().nullish(),
});
const customToolCallOutputItem = z.object({
  type: z.literal('custom_tool_call_output'),
  call_id: z.string().min(1, 'custom_tool_call_output items need call_id'),
  output: contentOf('output'),
});
const reasoningItem = z.object({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: z.array(z.object({ type: z.string().optional(), text: z.string() })).default([]),
  encrypted_content: z.string().nullish(),
});

/**
 * `known` (a discriminated union on `type`) for the types it names, and any other object with a string `type`
 * as it is (kept for OpenAI, skipped elsewhere). An object of a known type is held to its own schema before the
 * union sees it, so that one failing it is a 400 with that schema's issues, path and all (input.0.content: …):
 * the union alone would let it pass as "other", unchecked (a converter then met a number where it expects
 * text), or report only "Invalid input". The issues are marked non-fatal so that an enclosing union (input: a
 * string or items) reports them too, rather than its own "Invalid input".
 */
function knownOrOther<Known extends z.ZodDiscriminatedUnion<readonly z.ZodObject<{ type: z.ZodLiteral<string> }>[], 'type'>>(known: Known) {
  const types = new Set<unknown>(known.options.map((option) => option.shape.type.value));
  return z.preprocess(
    (value, ctx) => {
      if (typeof value !== 'object' || value === null || !types.has((value as { type?: unknown }).type)) return value;
      const checked = known.safeParse(value);
      if (!checked.success) for (const issue of checked.error.issues) ctx.addIssue({ code: 'custom', message: issue.message, path: issue.path, continue: true });
      return value;
    },
    z.union([known, z.looseObject({ type: z.string() })]),
  );
}

/** An item; a message may leave `type` out (EasyInputMessage). Other types (web_search_call, item_reference…) pass as they are. */
const inputItem = z.preprocess(
  (v) => (typeof v === 'object' && v !== null && !('type' in v) && 'role' in v ? { ...v, type: 'message' } : v),
  knownOrOther(z.discriminatedUnion('type', [messageItem, functionCallItem, functionCallOutputItem, customToolCallItem, customToolCallOutputItem, reasoningItem])),
);
export type ResponsesInputItem = z.output<typeof inputItem>;

export const MAX_INPUT_ITEMS = 10_000;

const functionTool = z.object({
  type: z.literal('function'),
  name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'function names: letters, digits, _ and -, at most 64'),
  description: z.string().nullish(),
  parameters: boundedJsonObject().nullish(),
  strict: z.boolean().nullish(),
});
/** Function and custom tools are checked; hosted ones (web_search…) pass as they are, for OpenAI. */
const tool = knownOrOther(z.discriminatedUnion('type', [functionTool, customToolSchema]));

/** Every form of OpenAI's tool_choice (openai-node ResponseCreateParams.tool_choice). */
const HOSTED_TOOL_CHOICES = ['file_search', 'web_search_preview', 'web_search_preview_2025_03_11', 'computer', 'computer_use_preview', 'computer_use', 'code_interpreter', 'image_generation', 'apply_patch', 'shell', 'programmatic_tool_calling'] as const;
const toolChoice = z.union(
  [
    z.enum(['none', 'auto', 'required']),
    z.object({ type: z.enum(['function', 'custom']), name: z.string().min(1) }),
    z.looseObject({ type: z.literal('allowed_tools'), mode: z.enum(['auto', 'required']), tools: z.array(z.looseObject({ type: z.string() })) }),
    z.looseObject({ type: z.literal('mcp'), server_label: z.string() }),
    z.looseObject({ type: z.enum(HOSTED_TOOL_CHOICES) }),
  ],
  {
    error: (iss) =>
      iss.code === 'invalid_union' ? 'tool_choice must be "none", "auto", "required", {"type": "function" or "custom", "name": …}, allowed_tools, mcp or a hosted tool type' : undefined,
  },
);

const textFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), name: z.string().min(1).max(64), schema: boundedJsonObject(), strict: z.boolean().nullish(), description: z.string().nullish() }),
]);

// NUL, a high surrogate not followed by a low one, a low surrogate not preceded by a high one.
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** The path of the first string (value or key) PostgreSQL's jsonb cannot hold; walked without recursion. */
function unstorablePath(value: unknown): PropertyKey[] | undefined {
  const stack: [unknown, PropertyKey[]][] = [[value, []]];
  while (stack.length) {
    const [v, path] = stack.pop()!;
    if (typeof v === 'string') {
      if (UNSTORABLE.test(v)) return path;
    } else if (Array.isArray(v)) {
      for (let i = v.length - 1; i >= 0; i--) stack.push([v[i], [...path, i]]); // popped in order
    } else if (v !== null && typeof v === 'object') {
      const entries = Object.entries(v);
      if (entries.some(([key]) => UNSTORABLE.test(key))) return path;
      for (let i = entries.length - 1; i >= 0; i--) stack.push([entries[i]![1], [...path, entries[i]![0]]]);
    }
  }
  return undefined;
}

export const responsesRequestSchema = z.object({
  model: z.string({ error: 'model is required, e.g. "openai/gpt-6.2-sol"' }).min(1, 'model is required').max(256, 'model must be at most 256 characters'),
  input: z
    .union([z.string(), z.array(inputItem).max(MAX_INPUT_ITEMS, `at most ${MAX_INPUT_ITEMS} input items`)], {
      error: (iss) => (iss.code === 'invalid_union' ? 'input must be a string or an array of items (objects with a type, or a role for a message)' : undefined),
    })
    .optional(),
  instructions: z.string().nullish(),
  tools: z.array(tool).max(512).optional(),
  tool_choice: toolChoice.optional(),
  parallel_tool_calls: z.boolean().nullish(),
  reasoning: z
    .object({
      effort: z.enum(['none', 'minimal', 'low', 'medium', 'high', 'xhigh']).nullish(),
      summary: z.enum(['auto', 'concise', 'detailed']).nullish(),
    })
    .nullish(),
  max_output_tokens: z.number().int().positive().nullish(),
  temperature: z.number().min(0, 'temperature must be between 0 and 2').max(2, 'temperature must be between 0 and 2').nullish(),
  top_p: z.number().min(0).max(1).nullish(),
  text: z.object({ format: textFormat.optional() }).nullish(),
  include: z.array(z.string()).max(32).nullish(),
  stream: z.boolean().default(false),
  /** OpenAI's default: responses are kept unless the client says otherwise. */
  store: z.boolean().nullish().transform((v) => v ?? true),
  /** Looked up in the database whatever `store` says. */
  previous_response_id: safeString().min(1).max(200).nullish(),
  metadata: z.record(safeString().max(64), safeString().max(512)).nullish(),
  prompt_cache_key: safeString().max(1024).nullish(),
  /** Not supported: answered 400 naming them (parse-responses-request.ts), never silently ignored. */
  background: z.boolean().nullish().describe('Not supported: `true` is a 400 (responses are answered while the request is open; stream long ones)'),
  conversation: z.unknown().optional().describe('Not supported: a 400 (continue a stored response with `previous_response_id`)'),
  user: safeString().max(256).nullish(),
}).superRefine((request, ctx) => {
  // Stored (as jsonb) with the response: PostgreSQL refuses the whole row for one such character.
  if (!request.store) return;
  const path = unstorablePath(request);
  if (path) ctx.addIssue({ code: 'custom', path, message: 'must not contain NUL (\\u0000) characters or unpaired surrogates when store is true (a stored response cannot hold them); send store: false' });
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
