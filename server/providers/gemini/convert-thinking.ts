// OpenRouter's `reasoning` (effort, max_tokens, enabled, exclude) and `reasoning_effort` → Gemini's
// generationConfig.thinkingConfig, for the two styles of thinking-style.ts.
import type { ChatRequest, ResolvedModel } from '../types';
import { type GeminiThinkingLevel, geminiThinkingStyle, THINKING_LEVELS } from './thinking-style';

/*
 * Thinking budgets (Gemini 2.5):
 *  - -1 lets the model size its own budget ("dynamic thinking"), the default when the client says nothing.
 *  - Effort → budget: minimal 512, low 1024, medium 8192, high 24576 (Flash's maximum), clamped to the model.
 * The same table turns a client's reasoning.max_tokens into a level on Gemini 3 and later.
 */
const EFFORT_BUDGET = { minimal: 512, low: 1024, medium: 8192, high: 24576 } as const;

export interface GeminiThinkingConfig {
  includeThoughts: boolean;
  thinkingBudget?: number;
  thinkingLevel?: GeminiThinkingLevel;
}

/** The smallest effort whose budget covers `tokens`. */
function levelForBudget(tokens: number): GeminiThinkingLevel {
  return THINKING_LEVELS.find((level) => EFFORT_BUDGET[level] >= tokens) ?? 'high';
}

/** The wanted level if the model has it, else the next one up (more thinking, not less), else its highest. */
function nearestLevel(levels: readonly GeminiThinkingLevel[], wanted: GeminiThinkingLevel): GeminiThinkingLevel {
  if (levels.includes(wanted)) return wanted;
  const rank = THINKING_LEVELS.indexOf(wanted);
  return levels.find((level) => THINKING_LEVELS.indexOf(level) > rank) ?? levels[levels.length - 1];
}

/**
 * `exclude`: the model still thinks (and bills for it) but the summaries are not asked for. "Off" is
 * `enabled: false` or a zero `max_tokens`. On Gemini 3 and later thinking cannot be
 * turned off, so off is the model's lowest level; nothing asked leaves the model's default level.
 */
export function convertThinking(req: ChatRequest, model: ResolvedModel): GeminiThinkingConfig | undefined {
  // Models without thinking answer 400 to any thinkingConfig.
  if (!model.supportsReasoning) return undefined;
  const style = geminiThinkingStyle(model.upstreamModel);
  const reasoning = req.reasoning ?? {};
  const effort = reasoning.effort ?? req.reasoning_effort;
  // A zero budget is the client's way of saying "off" too.
  const off = reasoning.enabled === false || reasoning.max_tokens === 0;
  const includeThoughts = !off && reasoning.exclude !== true;

  if (style.kind === 'level') {
    // reasoning.max_tokens picks the level whose budget covers it; an effort wins over it.
    const budgetLevel = reasoning.max_tokens ? levelForBudget(reasoning.max_tokens) : undefined;
    const wanted = off ? style.levels[0] : effort ?? budgetLevel;
    return { includeThoughts, ...(wanted ? { thinkingLevel: nearestLevel(style.levels, wanted) } : {}) };
  }
  if (off) return { includeThoughts: false, thinkingBudget: style.canDisable ? 0 : style.min };
  const requested = reasoning.max_tokens ?? (effort ? EFFORT_BUDGET[effort] : undefined);
  const thinkingBudget = requested === undefined ? -1 : Math.min(style.max, Math.max(style.min, requested));
  return { includeThoughts, thinkingBudget };
}
