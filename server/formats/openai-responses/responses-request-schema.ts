// The OpenAI Responses API request (POST /v1/responses), as OpenAI documents it (platform.openai.com/docs/
// api-reference/responses/create) and as Codex CLI sends it (codex-rs ResponsesApiRequest: instructions,
// input items, tools, tool_choice "auto", parallel_tool_calls, reasoning {effort, summary}, store false,
// stream true, include ["reasoning.encrypted_content"], prompt_cache_key, text). Unknown fields are ignored.
// Item and tool types we cannot translate (hosted tools, item references…) are accepted: an OpenAI endpoint
// gets them in the client's own body; other models do without them (see convert-input.ts). Custom tools are
// translated to function tools for other models (custom-tools.ts).
import { z } from 'zod';
import { boundedJsonObject } from '@/server/validation/fields';

const inputText = z.object({ type: z.literal('input_text'), text: z.string() });
const outputText = z.object({ type: z.literal('output_text'), text: z.string() });
const refusal = z.object({ type: z.literal('refusal'), refusal: z.string() });
const inputImage = z.object({
  type: z.literal('input_image'),
  image_url: z.string().min(1).nullish(),
  file_id: z.string().nullish(),
  detail: z.enum(['auto', 'low', 'high']).nullish(),
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

const messageItem = z.object({
  type: z.literal('message'),
  role: z.enum(['user', 'assistant', 'system', 'developer'], { error: 'role must be one of user, assistant, system, developer' }),
  content: z.union([z.string(), z.array(contentPart)]),
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
  output: z.union([z.string(), z.array(contentPart)]),
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
  output: z.union([z.string(), z.array(contentPart)]),
});
const reasoningItem = z.object({
  type: z.literal('reasoning'),
  id: z.string().nullish(),
  summary: z.array(z.object({ type: z.string().optional(), text: z.string() })).default([]),
  encrypted_content: z.string().nullish(),
});
/** Any other item (web_search_call, item_reference…): kept for OpenAI, skipped elsewhere. */
const otherItem = z.looseObject({ type: z.string() });

/** An item; a message may leave `type` out (EasyInputMessage). */
const inputItem = z.preprocess(
  (v) => (typeof v === 'object' && v !== null && !('type' in v) && 'role' in v ? { ...v, type: 'message' } : v),
  z.union([z.discriminatedUnion('type', [messageItem, functionCallItem, functionCallOutputItem, customToolCallItem, customToolCallOutputItem, reasoningItem]), otherItem]),
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
const tool = z.union([functionTool, z.looseObject({ type: z.string() })]);

const textFormat = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text') }),
  z.object({ type: z.literal('json_object') }),
  z.object({ type: z.literal('json_schema'), name: z.string().min(1).max(64), schema: boundedJsonObject(), strict: z.boolean().nullish(), description: z.string().nullish() }),
]);

export const responsesRequestSchema = z.object({
  model: z.string({ error: 'model is required, e.g. "openai/gpt-6.2-sol"' }).min(1, 'model is required').max(256),
  input: z.union([z.string(), z.array(inputItem).max(MAX_INPUT_ITEMS, `at most ${MAX_INPUT_ITEMS} input items`)], { error: 'input must be a string or an array of items' }).optional(),
  instructions: z.string().nullish(),
  tools: z.array(tool).max(512).optional(),
  tool_choice: z.union([z.enum(['none', 'auto', 'required']), z.object({ type: z.literal('function'), name: z.string().min(1) }), z.looseObject({ type: z.string() })]).optional(),
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
  previous_response_id: z.string().min(1).max(200).nullish(),
  metadata: z.record(z.string().max(64), z.string().max(512)).nullish(),
  prompt_cache_key: z.string().max(1024).nullish(),
  user: z.string().max(256).nullish(),
});

export type ResponsesRequest = z.output<typeof responsesRequestSchema>;
