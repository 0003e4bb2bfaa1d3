import { AppError } from '@/server/errors';
import { refuseLogprobs } from '../refuse-logprobs';
import type { ChatRequest, ConvertContext, ResolvedModel, ToolChoice, ToolDefinition, UpstreamRequest } from '../types';
import { convertMessages } from './convert-messages';
import { convertToolParameters } from './convert-schema';
import { convertThinking } from './convert-thinking';
import { geminiThinkingStyle } from './thinking-style';

/**
 * ChatRequest → Gemini v1beta `generateContent` (or `streamGenerateContent?alt=sse`, whose SSE framing the
 * shared parser reads; without alt=sse Gemini streams one JSON array). The key goes in `x-goog-api-key`,
 * never in the URL, where proxies and logs would keep it.
 */
export function convertGeminiRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  const body = convertGeminiBody(req, ctx);
  // Tolerate a base URL configured with or without the version segment.
  const base = ctx.config.baseUrl.replace(/\/+$/, '').replace(/\/v1beta$/, '');
  const model = encodeURIComponent(ctx.model.upstreamModel.replace(/^models\//, ''));
  const action = req.stream ? 'streamGenerateContent?alt=sse' : 'generateContent';
  return {
    url: `${base}/v1beta/models/${model}:${action}`,
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(ctx.config.apiKey ? { 'x-goog-api-key': ctx.config.apiKey } : {}),
    },
    body: JSON.stringify(body),
  };
}

/**
 * The GenerateContentRequest body, the same on Google AI and on Vertex AI (server/providers/vertex), which
 * differ only in URL and credentials.
 */
export function convertGeminiBody(req: ChatRequest, ctx: ConvertContext): Record<string, unknown> {
  // Gemini's responseLogprobs exists on some models only, in its own shape (logprobsResult per candidate):
  // not mapped, so refused rather than answered without them.
  refuseLogprobs(req, ctx.model.id, 'log probabilities are not available through the Gemini adapter');
  // Gemini 3+ answers 400 to a function call sent back without its thought signature (thinking-style.ts).
  const signedCalls = geminiThinkingStyle(ctx.model.upstreamModel).kind === 'level';
  const { systemInstruction, contents } = convertMessages(req.messages, { signedCalls });
  const tools = convertTools(req.tools);
  const toolConfig = tools && req.tool_choice !== undefined ? convertToolChoice(req.tool_choice, req.tools ?? []) : undefined;
  const generationConfig = convertGenerationConfig(req, ctx.model);

  return {
    ...(systemInstruction ? { systemInstruction } : {}),
    contents,
    ...(tools ? { tools } : {}),
    ...(toolConfig ? { toolConfig } : {}),
    ...(Object.keys(generationConfig).length ? { generationConfig } : {}),
  };
}

function convertTools(tools: ToolDefinition[] | undefined) {
  if (!tools?.length) return undefined;
  const functionDeclarations = tools.map(({ function: fn }) => {
    const parameters = convertToolParameters(fn.parameters, fn.name);
    // `strict` has no Gemini equivalent and is dropped.
    return { name: fn.name, ...(fn.description ? { description: fn.description } : {}), ...(parameters ? { parameters } : {}) };
  });
  return [{ functionDeclarations }];
}

function convertToolChoice(choice: ToolChoice, tools: ToolDefinition[]) {
  if (choice === 'auto') return { functionCallingConfig: { mode: 'AUTO' } };
  if (choice === 'none') return { functionCallingConfig: { mode: 'NONE' } };
  if (choice === 'required') return { functionCallingConfig: { mode: 'ANY' } };
  const name = choice.function.name;
  if (!tools.some((t) => t.function.name === name)) throw new AppError('bad_request', `tool_choice names "${name}", which is not among tools`);
  return { functionCallingConfig: { mode: 'ANY', allowedFunctionNames: [name] } };
}

/** Dropped on purpose: n (we read one candidate), parallel_tool_calls (no Gemini switch), user. */
function convertGenerationConfig(req: ChatRequest, model: ResolvedModel): Record<string, unknown> {
  const config: Record<string, unknown> = {};
  // Gemini's temperature range is 0–2 like OpenAI's: passed through as is.
  if (req.temperature !== undefined) config.temperature = req.temperature;
  if (req.top_p !== undefined) config.topP = req.top_p;
  const maxTokens = req.max_completion_tokens ?? req.max_tokens;
  if (maxTokens !== undefined) config.maxOutputTokens = maxTokens;
  if (req.stop !== undefined) {
    const stops = typeof req.stop === 'string' ? [req.stop] : req.stop;
    if (stops.length) config.stopSequences = stops;
  }
  if (req.seed !== undefined) config.seed = req.seed;

  const format = req.response_format;
  if (format?.type === 'json_object') config.responseMimeType = 'application/json';
  if (format?.type === 'json_schema') {
    config.responseMimeType = 'application/json';
    // responseJsonSchema (v1beta) takes the client's JSON Schema as a free-form value, $ref, $defs and
    // additionalProperties included; responseSchema would need the same lossy OpenAPI-subset conversion as
    // tool parameters and fails the request on any keyword it does not know.
    if (format.json_schema.schema) config.responseJsonSchema = format.json_schema.schema;
  }

  const thinkingConfig = convertThinking(req, model);
  if (thinkingConfig) config.thinkingConfig = thinkingConfig;
  return config;
}
