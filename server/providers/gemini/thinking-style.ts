// How a Gemini model's thinking is controlled, read from its upstream model name: the catalog schema
// (server/routing/config-schema.ts) is a public contract with no field for it, and the rule follows the
// model generation, so it lives here, in one table.
//
// Sources (read 2026-11-24): ai.google.dev/gemini-api/docs/thinking and /thought-signatures; Google Cloud's
// "Thinking" page (supported thinking_level values per model) and its developer guides for Gemini 3.8
// Flash, Gemini 4 Carbon and Gemini 4 Hydrogen; ai.google.dev "Gemini 4 Argon" (latest-model).

export type GeminiThinkingLevel = 'minimal' | 'low' | 'medium' | 'high';

/** Lowest first. */
export const THINKING_LEVELS: readonly GeminiThinkingLevel[] = ['minimal', 'low', 'medium', 'high'];

export type GeminiThinkingStyle =
  /** Gemini 2.5: `thinkingBudget` in tokens within the model's range; 0 turns thinking off where allowed. */
  | { kind: 'budget'; min: number; max: number; canDisable: boolean }
  /**
   * Gemini 3 and later: `thinkingLevel`, one of `levels` (a level the model lacks answers 400, e.g.
   * "minimal" on Gemini 3.8 Flash); thinking cannot be turned off. These models also answer 400 when a
   * model turn's function call comes back without its thought signature.
   */
  | { kind: 'level'; levels: readonly GeminiThinkingLevel[] };

const ALL_LEVELS: GeminiThinkingStyle = { kind: 'level', levels: THINKING_LEVELS };
const NO_MINIMAL: GeminiThinkingStyle = { kind: 'level', levels: ['low', 'medium', 'high'] };

/**
 * From names such as "gemini-2.5-flash", "gemini-3.8-flash", "gemini-3.5-flash-lite", "gemini-4-argon" or
 * "models/gemini-3.1-pro-preview". Levels per model (Google's table; xhigh, which only Hydrogen has and
 * OpenRouter's effort cannot ask for, is left out):
 *  - Gemini 4 (Argon, Carbon, Hydrogen): low, medium, high.
 *  - Gemini 3.x Flash-Lite, and Flash up to 3.6: minimal, low, medium, high.
 *  - Gemini 3.7 and 3.8 Flash: low, medium, high.   - Gemini 3.1 Pro: low, medium, high.   - Gemini 3 Pro: low, high.
 * Names it cannot read keep the 2.5 budget rules, the only ones older Gemini models take.
 */
export function geminiThinkingStyle(upstreamModel: string): GeminiThinkingStyle {
  const match = /gemini-(\d+)(?:\.(\d+))?-([a-z][a-z0-9-]*)/.exec(upstreamModel);
  const major = match ? Number(match[1]) : 0;
  if (!match || major < 3) {
    // 2.5 Pro: 128…32768 and cannot stop; Flash-Lite: 512…24576; Flash: 1…24576 (0 turns both off).
    if (/flash-lite/.test(upstreamModel)) return { kind: 'budget', min: 512, max: 24576, canDisable: true };
    if (/pro/.test(upstreamModel)) return { kind: 'budget', min: 128, max: 32768, canDisable: false };
    return { kind: 'budget', min: 1, max: 24576, canDisable: true };
  }
  if (major >= 4) return NO_MINIMAL;
  const minor = Number(match[2] ?? 0);
  const variant = match[3];
  if (variant.startsWith('flash-lite')) return ALL_LEVELS;
  if (variant.startsWith('pro')) return minor >= 1 ? NO_MINIMAL : { kind: 'level', levels: ['low', 'high'] };
  return minor >= 7 ? NO_MINIMAL : ALL_LEVELS;
}
