// OpenRouter's `reasoning` (effort, max_tokens, enabled) and `reasoning_effort` → the one reasoning effort an
// OpenAI model takes, for both of its APIs (Chat Completions' `reasoning_effort`, the Responses API's
// `reasoning.effort`). OpenAI has no token budget, so a budget (Anthropic's thinking.budget_tokens, OpenRouter's
// reasoning.max_tokens) becomes the effort whose share of the output limit it is nearest, by OpenRouter's own
// ratios the other way round (openrouter.ai/docs "Reasoning Tokens": high 80 %, medium 50 %, low 20 %,
// minimal 10 % of max_tokens). providers/anthropic/plan-thinking.ts maps efforts to budgets.
import type { ChatRequest } from '../types';
import type { OpenAIEffort } from './model-profile';

type Effort = Exclude<OpenAIEffort, 'none'>;

/** Budget / output limit at or above which each effort is the nearest (the midpoints of 0.1, 0.2, 0.5, 0.8). */
const BUDGET_SHARE: readonly [number, Effort][] = [
  [0.65, 'high'],
  [0.35, 'medium'],
  [0.15, 'low'],
  [0, 'minimal'],
];

/** A reasoning budget as an effort, by its share of the request's output limit. */
export function effortForBudget(budget: number, outputLimit: number): Effort {
  const share = budget / Math.max(1, outputLimit);
  return BUDGET_SHARE.find(([atLeast]) => share >= atLeast)![1];
}

/**
 * The effort to send, or undefined for the model's default. With `efforts` (the model's accepted efforts,
 * lowest first: model-profile.ts) reasoning off is the lowest one ('none' where it exists, else 'minimal' or
 * 'low': never silently the default medium), and an effort the model refuses becomes its lowest real one.
 * Without (a model name not recognised), off sends nothing and the rest goes as asked.
 */
export function mapReasoningEffort(req: ChatRequest, efforts: readonly OpenAIEffort[] | undefined, outputLimit: number): OpenAIEffort | undefined {
  const reasoning = req.reasoning ?? {};
  const asked = reasoning.effort ?? req.reasoning_effort;
  const budget = reasoning.max_tokens;
  const off = reasoning.enabled === false || (budget === 0 && asked === undefined);
  const effort = off ? undefined : (asked ?? (budget ? effortForBudget(budget, outputLimit) : undefined));
  if (!efforts) return effort;
  if (off) return efforts[0];
  if (effort === undefined || efforts.includes(effort)) return effort;
  return efforts.find((candidate) => candidate !== 'none' && candidate !== 'minimal') ?? efforts[0];
}
