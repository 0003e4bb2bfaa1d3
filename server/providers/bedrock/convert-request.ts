// ChatRequest → POST {base}/model/{modelId}/converse (or /converse-stream): one request shape for every
// Bedrock chat model (docs.aws.amazon.com/bedrock/latest/APIReference/API_runtime_Converse.html).
import { AppError } from '@/server/errors';
import type { ChatRequest, ConvertContext, ResolvedModel, UpstreamRequest } from '@/server/providers/types';
import { MIN_THINKING_BUDGET, planAdaptiveThinking, planOutputTokens, THINKING_BUDGETS } from '../anthropic/plan-thinking';
import { anthropicThinkingStyle } from '../anthropic/thinking-style';
import { MAX_CACHE_BREAKPOINTS } from '../anthropic/place-cache-breakpoints';
import { refuseLogprobs } from '../refuse-logprobs';
import { cachePoint, type ContentBlock, convertMessages, type ConverseMessage, isCachePoint } from './convert-messages';

/** Claude on Bedrock (`anthropic.claude-…`, `us.anthropic.claude-…`, an inference profile ARN naming it). */
export const isClaude = (upstreamModel: string) => /anthropic\.claude|claude-/i.test(upstreamModel);

function convertToolChoice(req: ChatRequest): Record<string, unknown> | undefined {
  const choice = req.tool_choice;
  if (choice === undefined || choice === 'auto') return undefined; // auto is Converse's default
  if (choice === 'required') return { any: {} };
  if (choice === 'none') return undefined; // handled by leaving the tools out
  const name = choice.function.name;
  if (!req.tools?.some((tool) => tool.function.name === name)) throw new AppError('bad_request', `tool_choice names ${name}, which is not among the tools`);
  return { tool: { name } };
}

interface ThinkingFields {
  maxTokens: number;
  /** Whether temperature/top_p may be sent. */
  sampling: boolean;
  /** additionalModelRequestFields, when thinking is configured at all. */
  fields?: Record<string, unknown>;
  /** Drop a forced tool choice (models that answer 400 to one). */
  unforce: boolean;
}

/**
 * Adaptive Claude models (Opus/Sonnet 4.6, Opus 4.7+, Claude 5; thinking-style.ts): the same plan as on
 * Anthropic's API (plan-thinking.ts), sent as Bedrock takes the model's own fields, in
 * additionalModelRequestFields: `thinking: {type: "adaptive"}` and `output_config: {effort}`
 * (docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html). Anthropic's
 * block-binding beta is not sent (Bedrock does not list it), so a replayed thinking block whose
 * conversation changed is Bedrock's to refuse.
 */
function adaptiveThinking(req: ChatRequest, model: ResolvedModel, messages: ConverseMessage[], forcedTool: boolean): ThinkingFields {
  const replaysThinking = messages.some((message) => message.content.some((block) => 'reasoningContent' in block));
  const plan = planAdaptiveThinking(req, model, replaysThinking, forcedTool);
  if (plan.dropThinkingBlocks) {
    for (const message of messages) if (message.role === 'assistant' && message.content.some((b) => !('reasoningContent' in b))) message.content = message.content.filter((b) => !('reasoningContent' in b));
  }
  const fields: Record<string, unknown> = {};
  if (plan.thinking) {
    const { block_binding: _notOnBedrock, ...thinking } = plan.thinking;
    fields.thinking = thinking;
  }
  if (plan.effort) fields.output_config = { effort: plan.effort };
  return {
    maxTokens: plan.maxTokens,
    sampling: plan.sampling,
    ...(Object.keys(fields).length > 0 ? { fields } : {}),
    unforce: forcedTool && !anthropicThinkingStyle(model.upstreamModel).forcedToolChoice,
  };
}

/** Budget-style thinking (Claude ≤ 4.5) or none (other families): `thinking: {type: "enabled", budget_tokens}`. */
function budgetThinking(req: ChatRequest, model: ResolvedModel, messages: ConverseMessage[], forcedTool: boolean): ThinkingFields {
  const { maxTokens, budget } = planOutputTokens(req, model, thinkingBudget(req, model, messages, forcedTool));
  if (budget === null) return { maxTokens, sampling: true, unforce: false };
  return { maxTokens, sampling: false, fields: { thinking: { type: 'enabled', budget_tokens: budget } }, unforce: false };
}

/** The thinking budget for Claude, or null: OpenRouter's `reasoning` / `reasoning_effort`, as on Anthropic's API (plan-thinking.ts). */
function thinkingBudget(req: ChatRequest, model: ResolvedModel, messages: ConverseMessage[], forcedTool: boolean): number | null {
  if (!model.supportsReasoning || !isClaude(model.upstreamModel) || forcedTool) return null;
  const reasoning = req.reasoning ?? {};
  const effort = reasoning.effort ?? req.reasoning_effort;
  if (reasoning.enabled === false || (reasoning.max_tokens === 0 && effort === undefined)) return null;
  // Mid tool loop, Claude wants the assistant turn to open with its signed reasoning; a client that dropped it gets no thinking for this call instead of a 400.
  const lastAssistant = messages.findLast((message) => message.role === 'assistant');
  if (lastAssistant?.content.some((block) => 'toolUse' in block) && !('reasoningContent' in lastAssistant.content[0]!)) return null;
  if (reasoning.max_tokens !== undefined && reasoning.max_tokens > 0) return Math.max(MIN_THINKING_BUDGET, reasoning.max_tokens);
  return THINKING_BUDGETS[effort ?? 'medium'];
}

/** Without explicit cache points, `cache_control` on the request marks the last tool, the last system block and the end of the last user turn. */
function placeCachePoints(tools: ContentBlock[] | undefined, system: ContentBlock[], messages: ConverseMessage[], auto: ChatRequest['cache_control']): void {
  const count = [...(tools ?? []), ...system, ...messages.flatMap((message) => message.content)].filter(isCachePoint).length;
  if (count > MAX_CACHE_BREAKPOINTS) {
    throw new AppError('bad_request', `This request marks ${count} prompt-cache points (cache_control); Bedrock allows at most ${MAX_CACHE_BREAKPOINTS} per request. Remove ${count - MAX_CACHE_BREAKPOINTS}.`, {
      cache_breakpoints: count,
      max_cache_breakpoints: MAX_CACHE_BREAKPOINTS,
    });
  }
  if (count > 0 || !auto) return;
  if (tools?.length) tools.push(cachePoint(auto));
  if (system.length) system.push(cachePoint(auto));
  messages.findLast((message) => message.role === 'user')?.content.push(cachePoint(auto));
}

function responseFormatInstruction(format: ChatRequest['response_format']): string | null {
  if (format?.type === 'json_object') return 'Respond only with a single JSON object, with no text before or after it.';
  if (format?.type === 'json_schema') {
    const schema = format.json_schema.schema ? JSON.stringify(format.json_schema.schema) : '{"type":"object"}';
    return `Respond only with a JSON object matching this JSON schema, with no text before or after it: ${schema}`;
  }
  return null;
}

/**
 * Converse refuses toolUse/toolResult blocks in a request without toolConfig. When the client sent none (or
 * tool_choice "none", which Converse cannot say), the tools the history used are declared with an open
 * schema: the model can read the history, and has no tool it was not already using.
 */
function historyTools(messages: ConverseMessage[]): ContentBlock[] | undefined {
  const names = new Set<string>();
  for (const message of messages) for (const block of message.content) if ('toolUse' in block) names.add((block.toolUse as { name: string }).name);
  if (names.size === 0) return undefined;
  return [...names].map((name) => ({ toolSpec: { name, inputSchema: { json: { type: 'object' } } } }));
}

/** The request's body, without URL or headers (the unit tests read it). */
export function convertBody(req: ChatRequest, model: ResolvedModel): Record<string, unknown> {
  refuseLogprobs(req, model.id, 'Bedrock returns no log probabilities');
  const { system, messages } = convertMessages(req.messages, model);
  const useTools = Boolean(req.tools?.length) && req.tool_choice !== 'none';
  const tools = useTools
    ? req.tools!.flatMap((tool): ContentBlock[] => {
        const spec = {
          toolSpec: {
            name: tool.function.name,
            ...(tool.function.description !== undefined ? { description: tool.function.description } : {}),
            inputSchema: { json: tool.function.parameters ?? { type: 'object', properties: {} } },
          },
        };
        return tool.cache_control ? [spec, cachePoint(tool.cache_control)] : [spec];
      })
    : undefined;
  let toolChoice = useTools ? convertToolChoice(req) : undefined;
  const instruction = responseFormatInstruction(req.response_format);
  if (instruction) system.push({ text: instruction });
  placeCachePoints(tools, system, messages, req.cache_control);

  const forcedTool = toolChoice !== undefined && !('auto' in toolChoice);
  const adaptive = isClaude(model.upstreamModel) && anthropicThinkingStyle(model.upstreamModel).mode === 'adaptive';
  const thinking = (adaptive ? adaptiveThinking : budgetThinking)(req, model, messages, forcedTool);
  if (thinking.unforce) toolChoice = undefined; // auto over the same tools: the nearest request such a model takes
  const inference: Record<string, unknown> = { maxTokens: thinking.maxTokens };
  // Claude refuses temperature and top_p (outside 0.95–1) with thinking on: dropped, as on Anthropic's API.
  if (thinking.sampling) {
    // Bedrock's range is 0–1 for every model family it hosts; OpenAI's is 0–2.
    if (req.temperature !== undefined) inference.temperature = Math.min(1, Math.max(0, req.temperature));
    if (req.top_p !== undefined && !(isClaude(model.upstreamModel) && req.temperature !== undefined)) inference.topP = req.top_p;
  }
  const stop = typeof req.stop === 'string' ? [req.stop] : req.stop;
  if (stop?.length) inference.stopSequences = stop;

  const body: Record<string, unknown> = { messages, inferenceConfig: inference };
  if (system.length > 0) body.system = system;
  const declared = tools ?? historyTools(messages);
  if (declared) body.toolConfig = { tools: declared, ...(toolChoice ? { toolChoice } : {}) };
  if (thinking.fields) body.additionalModelRequestFields = thinking.fields;
  return body;
}

/** Bedrock's runtime endpoint for a region (docs.aws.amazon.com/general/latest/gr/bedrock.html). */
export const bedrockBaseUrl = (region: string) => `https://bedrock-runtime.${region}.amazonaws.com`;

/**
 * The request, unsigned: with a Bedrock API key it carries `Authorization: Bearer` and is complete; without
 * one the adapter's authorize step signs it (SigV4) once the gateway has added the provider's headers.
 */
export function convertRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  const body = convertBody(req, ctx.model);
  // A model id may be an ARN (arn:aws:bedrock:…:inference-profile/…): one path segment, encoded.
  const path = `/model/${encodeURIComponent(ctx.model.upstreamModel)}/${req.stream ? 'converse-stream' : 'converse'}`;
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: req.stream ? 'application/vnd.amazon.eventstream' : 'application/json' };
  if (ctx.config.apiKey) headers.authorization = `Bearer ${ctx.config.apiKey}`;
  return { url: `${ctx.config.baseUrl.replace(/\/+$/, '')}${path}`, method: 'POST', headers, body: JSON.stringify(body) };
}
