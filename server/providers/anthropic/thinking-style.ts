// Which thinking controls a Claude model takes, read from its upstream model name. The catalog's schema
// (server/routing/config-schema.ts) is a public contract with no field for this, and the rules follow the
// model generation, so they live here, in one table, instead of as name tests scattered in the converter.
//
// Sources (platform.claude.com/docs, read 2026-11-24): "Adaptive thinking", "Effort", "Thinking",
// "Preserved thinking", "Thinking in tool and multi-turn workflows", and the "What's new" / migration
// pages of Claude Opus 4.7, Sonnet 5, Opus 5.5, Sonnet 5.5, Haiku 5.5 and Fable 5.1.

export interface AnthropicThinkingStyle {
  /**
   * 'budget': `thinking: {type: "enabled", budget_tokens}`, off when the field is absent (Claude ≤ 4.5).
   * 'adaptive': `thinking: {type: "adaptive"}` with `output_config.effort`: Opus 4.6 and Sonnet 4.6 (where
   * budgets still work but are deprecated), and Opus 4.7 and later, every Claude 5 model (where manual
   * budgets answer 400).
   */
  mode: 'budget' | 'adaptive';
  /**
   * How an adaptive model stops thinking: 'omit' (off unless asked: Opus 4.7/4.8), 'disabled'
   * (`{type: "disabled"}`: Haiku 5.5, Opus 5, Sonnet 5), 'between_tools' (Sonnet 5.5, which answers 400
   * to "disabled"), or null when it always thinks (Opus 5.5, Fable). Unused in budget mode.
   */
  off: 'omit' | 'disabled' | 'between_tools' | null;
  /**
   * False when non-default temperature/top_p/top_k answer 400 (Opus 4.7 and later, Claude 5). True: taken
   * while thinking is off (thinking itself refuses them, as in budget mode).
   */
  samplingParams: boolean;
  /**
   * False when tool_choice {type: "any"} or {type: "tool"} answers 400 whatever the thinking setting
   * (Opus 5.5, Sonnet 5.5, Fable). Elsewhere adaptive thinking accepts it and skips thinking; budget
   * mode refuses it only while thinking, which convert-request.ts handles by not thinking.
   */
  forcedToolChoice: boolean;
  /**
   * False when a forced tool must go without thinking (budget mode, and the 4.6 models, whose adaptive
   * thinking keeps extended thinking's rules): the plan leaves thinking off for that request.
   */
  thinksWithForcedTool: boolean;
  /** Thinking text comes back only when asked for with `display: "summarized"` (default "omitted"). */
  displayOmittedByDefault: boolean;
  /** Replayed thinking blocks are checked against their conversation prefix (preserved thinking). */
  preservedThinking: boolean;
}

const BUDGET: AnthropicThinkingStyle = {
  mode: 'budget',
  off: 'omit',
  samplingParams: true,
  forcedToolChoice: true,
  thinksWithForcedTool: false,
  displayOmittedByDefault: false,
  preservedThinking: false,
};

/**
 * Opus 4.6 and Sonnet 4.6: adaptive thinking is the recommended way and budget_tokens is deprecated
 * (docs.aws.amazon.com/bedrock/latest/userguide/claude-messages-adaptive-thinking.html, platform.claude.com
 * "Adaptive thinking"); otherwise extended thinking's rules: off when the field is absent, sampling
 * parameters only without thinking, summarized thinking shown by default.
 */
const ADAPTIVE_4_6: AnthropicThinkingStyle = { ...BUDGET, mode: 'adaptive' };

const ADAPTIVE = { mode: 'adaptive', samplingParams: false, thinksWithForcedTool: true, displayOmittedByDefault: true } as const;

/**
 * The thinking style of a Claude model, from names such as "claude-sonnet-4-5", "claude-opus-5-5",
 * "claude-fable-5-1", "claude-opus-4-7-20260416" or "claude-3-7-sonnet-latest". Names it cannot read
 * (another vendor's model behind an Anthropic-compatible proxy, an old Claude 3 name) get the budget
 * style, which every Claude before Opus 4.7 takes.
 */
export function anthropicThinkingStyle(upstreamModel: string): AnthropicThinkingStyle {
  const match = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d)(?!\d))?/.exec(upstreamModel);
  if (!match) return BUDGET;
  const [, family, majorText, minorText] = match;
  const version = Number(majorText) + Number(minorText ?? 0) / 10;

  // Fable and Mythos (5 and later) only think adaptively, cannot stop, and refuse forced tools.
  if (family === 'fable' || family === 'mythos') return { ...ADAPTIVE, off: null, forcedToolChoice: false, preservedThinking: version >= 5.1 };
  if (version >= 5.5) {
    if (family === 'opus') return { ...ADAPTIVE, off: null, forcedToolChoice: false, preservedThinking: true };
    if (family === 'sonnet') return { ...ADAPTIVE, off: 'between_tools', forcedToolChoice: false, preservedThinking: true };
    return { ...ADAPTIVE, off: 'disabled', forcedToolChoice: true, preservedThinking: true }; // haiku
  }
  if (version >= 5) return { ...ADAPTIVE, off: 'disabled', forcedToolChoice: true, preservedThinking: false };
  // Opus 4.7/4.8: adaptive only, sampling parameters refused, thinking off unless the field is sent.
  if (version >= 4.7) return { ...ADAPTIVE, off: 'omit', forcedToolChoice: true, preservedThinking: false };
  if (version >= 4.6 && (family === 'opus' || family === 'sonnet')) return ADAPTIVE_4_6;
  return BUDGET;
}
