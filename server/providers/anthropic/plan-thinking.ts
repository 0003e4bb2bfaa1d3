// OpenRouter's `reasoning` (effort, max_tokens, enabled, exclude) and `reasoning_effort` → the thinking
// fields of one Messages API request, for the two styles of thinking-style.ts.
import type { ChatRequest, ResolvedModel } from '@/server/providers/types';
import type { AnthropicMessage } from './convert-request';
import { anthropicThinkingStyle } from './thinking-style';

/** Anthropic requires max_tokens; OpenAI clients often omit it. Used (capped by the model) when thinking is off. */
export const DEFAULT_MAX_TOKENS = 8192;
/**
 * Without a client cap on an adaptive model, thinking and answer share max_tokens (Anthropic's migration
 * guides warn that limits sized for an answer alone truncate it). 32K leaves room for both at any effort.
 */
export const ADAPTIVE_DEFAULT_MAX_TOKENS = 32_000;
/** Anthropic rejects a smaller budget_tokens. */
export const MIN_THINKING_BUDGET = 1024;
/** Output kept free for the visible answer when a thinking budget has to fit under max_tokens. */
export const MIN_ANSWER_TOKENS = 1024;
/** reasoning.effort → budget_tokens. No reasoning param on a reasoning model means `medium`. */
export const THINKING_BUDGETS = { minimal: 1024, low: 4096, medium: 8192, high: 16384 } as const;
/** Lets a request drop replayed thinking blocks whose conversation prefix changed instead of failing (preserved thinking). */
export const THINKING_BINDING_BETA = 'thinking-binding-controls-2026-08-01';

type Effort = keyof typeof THINKING_BUDGETS;
type Block = AnthropicMessage['content'][number];

export interface ThinkingPlan {
  maxTokens: number;
  /** The request's `thinking` field; absent when undefined. */
  thinking?: Record<string, unknown>;
  /** `output_config.effort` (adaptive models only). */
  effort?: 'low' | 'medium' | 'high';
  /** Whether the client's temperature/top_p may be sent. */
  sampling: boolean;
  /** The tool_choice to send (the client's, unless the model refuses it). */
  toolChoice?: Record<string, unknown>;
  /** Thinking turned off on a model that binds replayed thinking to its conversation: replayed blocks must go. */
  dropThinkingBlocks: boolean;
  /** anthropic-beta values the request needs. */
  betas: string[];
}

const isThinkingBlock = (block: Block) => block.type === 'thinking' || block.type === 'redacted_thinking';

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
  return !isThinkingBlock(last.content[0]);
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

const isForced = (choice: Record<string, unknown> | undefined) => choice?.type === 'any' || choice?.type === 'tool';

/** Claude ≤ 4.6: a fixed budget, and no thinking when a tool is forced or a tool turn lost its signed thinking. */
function planBudget(req: ChatRequest, model: ResolvedModel, messages: AnthropicMessage[], toolChoice?: Record<string, unknown>): ThinkingPlan {
  let wantedBudget = requestedThinkingBudget(req, model);
  // Anthropic refuses thinking with a forced tool (any/tool); honouring the client's tool choice wins.
  if (isForced(toolChoice) || toolTurnLacksThinking(messages)) wantedBudget = null;
  const { maxTokens, budget } = planOutputTokens(req, model, wantedBudget);
  // Thinking is incompatible with temperature and with top_p outside 0.95–1: they are dropped, not rejected.
  if (budget === null) return { maxTokens, sampling: true, toolChoice, dropThinkingBlocks: false, betas: [] };
  return { maxTokens, thinking: { type: 'enabled', budget_tokens: budget }, sampling: false, toolChoice, dropThinkingBlocks: false, betas: [] };
}

/** A budget in tokens → the smallest effort whose budget covers it (THINKING_BUDGETS read backwards). */
function effortForBudget(tokens: number): Effort {
  return (Object.keys(THINKING_BUDGETS) as Effort[]).find((effort) => THINKING_BUDGETS[effort] >= tokens) ?? 'high';
}

/**
 * Opus 5.5, Sonnet 5.5 and Fable answer 400 to a forced tool (any/tool) whatever the thinking setting;
 * `auto` over the same tools is the nearest request they take (parallel-call flag kept).
 */
function unforced(choice: Record<string, unknown> | undefined): Record<string, unknown> | undefined {
  if (!choice || !isForced(choice)) return choice;
  const { type: _type, name: _name, ...rest } = choice;
  return { type: 'auto', ...rest };
}

/** `minimal` is not an Anthropic effort level; `low` is the least there is. */
const adaptiveEffort = (effort: Effort): 'low' | 'medium' | 'high' => (effort === 'minimal' ? 'low' : effort);

/**
 * Adaptive models (Opus/Sonnet 4.6, Opus 4.7+, Claude 5): `output_config.effort` steers thinking.
 * `reasoning.max_tokens` has no budget to go to, so it picks the effort whose budget (THINKING_BUDGETS) it
 * fits; no reasoning parameter leaves the model's own default effort. Turning thinking off uses the model's
 * own way, and on a model that cannot stop (Opus 5.5, Fable) becomes the lowest effort. Thinking text is
 * asked for (`display: "summarized"`) unless the client excludes reasoning, since the 4.7+ models omit it
 * by default. Shared with Bedrock (bedrock/convert-request.ts), which sends the same fields in
 * additionalModelRequestFields: `replaysThinking` says whether the history carries thinking blocks, and
 * `forcedTool` whether the request forces a tool.
 */
export function planAdaptiveThinking(req: ChatRequest, model: ResolvedModel, replaysThinking: boolean, forcedTool: boolean): Omit<ThinkingPlan, 'toolChoice'> {
  const style = anthropicThinkingStyle(model.upstreamModel);
  const reasoning = req.reasoning ?? {};
  const requestedEffort = reasoning.effort ?? req.reasoning_effort;
  const off =
    !model.supportsReasoning ||
    reasoning.enabled === false ||
    (reasoning.max_tokens === 0 && requestedEffort === undefined) ||
    // A forced tool the model still takes, on a model that cannot think with one: the tool wins.
    (forcedTool && style.forcedToolChoice && !style.thinksWithForcedTool && style.off !== null);
  const cap = req.max_completion_tokens ?? req.max_tokens;
  const plan: Omit<ThinkingPlan, 'toolChoice'> = {
    maxTokens: Math.min(model.maxOutputTokens, cap ?? ADAPTIVE_DEFAULT_MAX_TOKENS),
    sampling: style.samplingParams,
    dropThinkingBlocks: false,
    betas: [],
  };

  if (off && style.off !== null) {
    if (style.off === 'disabled') plan.thinking = { type: 'disabled' };
    if (style.off === 'between_tools') plan.thinking = { type: 'between_tools' };
    // Anthropic's advice when a request turns thinking off on a model with preserved thinking: remove the replayed blocks.
    plan.dropThinkingBlocks = style.preservedThinking && style.off === 'disabled';
    return plan;
  }

  const thinking: Record<string, unknown> = { type: 'adaptive' };
  if (style.displayOmittedByDefault && reasoning.exclude !== true) thinking.display = 'summarized';
  // A client that rebuilt or trimmed its history would otherwise get a 400 for every replayed block;
  // dropping the mismatched ones costs the model that reasoning, not the request.
  if (style.preservedThinking && replaysThinking) {
    thinking.block_binding = { prefix_mismatch_behavior: 'drop_block' };
    plan.betas.push(THINKING_BINDING_BETA);
  }
  plan.thinking = thinking;
  // Models that take sampling parameters take them only while not thinking (4.6, as in budget mode).
  plan.sampling = false;
  if (off) plan.effort = 'low';
  else if (requestedEffort !== undefined) plan.effort = adaptiveEffort(requestedEffort);
  else if (reasoning.max_tokens !== undefined && reasoning.max_tokens > 0) plan.effort = adaptiveEffort(effortForBudget(reasoning.max_tokens));
  return plan;
}

function planAdaptive(req: ChatRequest, model: ResolvedModel, messages: AnthropicMessage[], toolChoice?: Record<string, unknown>): ThinkingPlan {
  const style = anthropicThinkingStyle(model.upstreamModel);
  const replaysThinking = messages.some((message) => message.content.some(isThinkingBlock));
  const plan = planAdaptiveThinking(req, model, replaysThinking, isForced(toolChoice));
  return { ...plan, toolChoice: style.forcedToolChoice ? toolChoice : unforced(toolChoice) };
}

/** The thinking-related fields of a Messages request for this model. */
export function planThinking(req: ChatRequest, model: ResolvedModel, messages: AnthropicMessage[], toolChoice?: Record<string, unknown>): ThinkingPlan {
  return anthropicThinkingStyle(model.upstreamModel).mode === 'adaptive' ? planAdaptive(req, model, messages, toolChoice) : planBudget(req, model, messages, toolChoice);
}
