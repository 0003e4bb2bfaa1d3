// DeepSeek's thinking controls (api-docs.deepseek.com/guides/thinking_mode, read 2026-11-24), for the
// deepseek adapter: `thinking: {type: "enabled" | "disabled"}` switches thinking mode (on by default, at
// effort "high"), and `reasoning_effort` takes low / high / max, DeepSeek itself reading minimal as low and
// medium or xhigh as high. In thinking mode temperature, top_p and the penalties are accepted but ignored.
import type { ChatRequest } from '../types';

/**
 * Whether a DeepSeek model takes these controls: every current model (deepseek-flash, deepseek-v4-pro and
 * their successors) does. The retired names had a fixed mode — deepseek-chat never thought, deepseek-reasoner
 * always did — and keep the treatment they always had here (an operator may still point at a server that
 * serves them).
 */
export function deepseekThinkingControl(upstreamModel: string): boolean {
  return upstreamModel !== 'deepseek-chat' && upstreamModel !== 'deepseek-reasoner';
}

export interface DeepseekThinking {
  thinking?: { type: 'disabled' };
  reasoning_effort?: 'low' | 'high';
}

/**
 * OpenRouter's reasoning parameters → DeepSeek's. `reasoning.enabled: false` (or a zero `max_tokens`
 * without an effort) turns thinking mode off; an effort is sent as the DeepSeek level it means; a
 * `max_tokens` budget has no DeepSeek equivalent and leaves the default. Nothing asked leaves thinking on.
 *
 * An alias cannot help here: the catalog resolves deepseek/deepseek-chat to the same model entry as
 * deepseek/deepseek-v4.1-flash, so a client that relied on deepseek-chat never thinking must now say so
 * with `reasoning: {enabled: false}`, as it would on OpenRouter.
 */
export function convertDeepseekThinking(req: ChatRequest): DeepseekThinking {
  const reasoning = req.reasoning ?? {};
  const effort = reasoning.effort ?? req.reasoning_effort;
  if (reasoning.enabled === false || (reasoning.max_tokens === 0 && effort === undefined)) return { thinking: { type: 'disabled' } };
  if (effort === undefined) return {};
  return { reasoning_effort: effort === 'minimal' || effort === 'low' ? 'low' : 'high' };
}
