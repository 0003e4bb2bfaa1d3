// Our ChatRequest → a Responses API request (POST /responses), for the models openAIModelProfile sends
// there (GPT-5.4 and later, the whole GPT-6 family). Stateless: `store: false`, with the encrypted
// reasoning asked for so that a client returning our reasoning_details keeps the model's reasoning
// across tool turns without OpenAI storing anything.
import { refuseLogprobs } from '../refuse-logprobs';
import type { ChatRequest, ConvertContext, ResponseFormat, ToolChoice, ToolDefinition, UpstreamRequest } from '../types';
import { jsonHeaders } from './convert-request';
import { convertResponsesInput } from './convert-responses-input';
import { mapReasoningEffort } from './map-reasoning-effort';
import { openAIModelProfile } from './model-profile';

function convertTools(tools: ToolDefinition[]): Record<string, unknown>[] {
  return tools.map(({ function: fn }) => ({
    type: 'function',
    name: fn.name,
    ...(fn.description !== undefined ? { description: fn.description } : {}),
    parameters: fn.parameters ?? { type: 'object', properties: {} },
    // Responses treats a function without `strict` as strict, and strict mode refuses most hand-written
    // schemas (every property required, additionalProperties false); Chat Completions' default is false.
    strict: fn.strict ?? false,
  }));
}

function convertToolChoice(choice: ToolChoice): unknown {
  return typeof choice === 'string' ? choice : { type: 'function', name: choice.function.name };
}

function convertFormat(format: ResponseFormat): Record<string, unknown> | undefined {
  if (format.type === 'json_object') return { format: { type: 'json_object' } };
  if (format.type === 'json_schema') {
    const { name, schema, strict, description } = format.json_schema;
    return { format: { type: 'json_schema', name, schema: schema ?? { type: 'object' }, ...(strict !== undefined ? { strict } : {}), ...(description ? { description } : {}) } };
  }
  return undefined;
}

/**
 * Dropped, as the Responses API has no such parameter or these models refuse it: temperature and top_p
 * (reasoning models answer 400), stop, seed, stream_options (usage always comes with the last event).
 */
export function convertResponsesRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  const { model } = ctx;
  // The models sent here are reasoning models, which return no log probabilities (and the Responses API's own
  // logprobs, asked for through `include`, are not mapped back).
  refuseLogprobs(req, model.id, 'OpenAI reasoning models return no log probabilities');
  const body: Record<string, unknown> = { model: model.upstreamModel, input: convertResponsesInput(req.messages), store: false };
  if (req.tools?.length) {
    body.tools = convertTools(req.tools);
    if (req.tool_choice !== undefined) body.tool_choice = convertToolChoice(req.tool_choice);
    if (req.parallel_tool_calls !== undefined) body.parallel_tool_calls = req.parallel_tool_calls;
  }
  const format = req.response_format ? convertFormat(req.response_format) : undefined;
  const text = req.verbosity ? { ...format, verbosity: req.verbosity } : format;
  if (text) body.text = text;
  const limit = req.max_completion_tokens ?? req.max_tokens;
  if (limit !== undefined) body.max_output_tokens = limit;

  if (model.supportsReasoning) {
    // Off is 'none' where the model has it, else its lowest effort; a budget an effort by its share of the
    // output limit; 'minimal', which no GPT-6 model takes, becomes 'low' (map-reasoning-effort.ts).
    const effort = mapReasoningEffort(req, openAIModelProfile(model.upstreamModel).efforts, limit ?? model.maxOutputTokens);
    const reasoning: Record<string, unknown> = {};
    if (effort) reasoning.effort = effort;
    // Summaries are what a client sees as `reasoning`; none are asked for when it excludes them.
    if (effort !== 'none' && req.reasoning?.exclude !== true) reasoning.summary = 'auto';
    if (Object.keys(reasoning).length > 0) body.reasoning = reasoning;
    body.include = ['reasoning.encrypted_content'];
  }
  if (req.user) body.user = req.user;
  if (req.safety_identifier) body.safety_identifier = req.safety_identifier;
  if (req.prompt_cache_key) body.prompt_cache_key = req.prompt_cache_key;
  if (req.stream) body.stream = true;

  const url = `${ctx.config.baseUrl.replace(/\/+$/, '')}/responses`;
  return { url, method: 'POST', headers: jsonHeaders(ctx.config.apiKey), body: JSON.stringify(body) };
}
