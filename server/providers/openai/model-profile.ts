// Which OpenAI API a model is served through, and which reasoning efforts it takes, read from its upstream
// model name: the catalog schema (server/routing/config-schema.ts) is a public contract with no field for
// this, and the rules follow the model generation, so they live here, in one table.
//
// Sources (read 2026-11-24): developers.openai.com "Using GPT-6" (latest-model), "Migrate to the Responses
// API", "Prompt caching"; OpenAI's GPT-6.x model pages as quoted by API guides; the 400 Chat Completions
// answers to GPT-5.4 and later ("Function tools with reasoning_effort are not supported for <model> in
// /v1/chat/completions. To use function tools, use /v1/responses or set reasoning_effort to 'none'.").

export type OpenAIEffort = 'none' | 'minimal' | 'low' | 'medium' | 'high';

export interface OpenAIModelProfile {
  /**
   * 'responses' for GPT-5.4 and later: on Chat Completions they refuse function tools unless reasoning
   * is 'none', and the GPT-6 models without 'none' (Astra, 6.1 Sol, 6.2 Astra and Sol) cannot call tools
   * there at all. The Responses API takes tools with reasoning, and carries reasoning across tool turns.
   */
  api: 'chat' | 'responses';
  /** The efforts the model accepts, lowest first; undefined when the client's effort is sent as is. */
  efforts?: readonly OpenAIEffort[];
}

const CHAT: OpenAIModelProfile = { api: 'chat' };
/** GPT-5, 5 mini and 5 nano: 'minimal' is the least; they cannot stop reasoning. */
const GPT5: OpenAIModelProfile = { api: 'chat', efforts: ['minimal', 'low', 'medium', 'high'] };
/** GPT-5 pro reasons at 'high' only. */
const GPT5_PRO: OpenAIModelProfile = { api: 'chat', efforts: ['high'] };
/** GPT-5.1 to 5.3: 'none' switches reasoning off (their default); 'minimal' is gone. */
const GPT5_WITH_NONE: OpenAIModelProfile = { api: 'chat', efforts: ['none', 'low', 'medium', 'high'] };
/** o1, o3, o4-mini: low, medium, high. */
const O_SERIES: OpenAIModelProfile = { api: 'chat', efforts: ['low', 'medium', 'high'] };
/** GPT-6 Luna, GPT-6 Sol and GPT-6.1 Terra: 'none' switches reasoning off; no GPT-6 model takes 'minimal'. */
const WITH_NONE: OpenAIModelProfile = { api: 'responses', efforts: ['none', 'low', 'medium', 'high'] };
/** GPT-6 Astra, GPT-6.1 Sol, GPT-6.2 Astra and Sol: reasoning cannot be switched off; 'low' is the least. */
const WITHOUT_NONE: OpenAIModelProfile = { api: 'responses', efforts: ['low', 'medium', 'high'] };

/**
 * From names such as "gpt-6.2-astra", "gpt-6-luna", "gpt-6.1-terra", "gpt-5.6-sol", "gpt-5-mini", "o4-mini" or
 * "gpt-4o-mini". Everything before GPT-5.4 stays on Chat Completions; a name it cannot read (a proxy's or
 * an Azure deployment's own name) has no efforts, so the client's effort is passed through as is.
 */
export function openAIModelProfile(upstreamModel: string): OpenAIModelProfile {
  if (/^o\d/.test(upstreamModel)) return O_SERIES;
  const match = /^gpt-(\d+)(?:\.(\d+))?(?:-([a-z]+))?/.exec(upstreamModel);
  if (!match) return CHAT;
  const major = Number(match[1]);
  const minor = Number(match[2] ?? 0);
  const tier = match[3];
  if (major >= 7) return WITHOUT_NONE; // a later generation: the conservative GPT-6.2 rules until known
  if (major === 6) {
    if (minor >= 2 || tier === 'astra' || (tier === 'sol' && minor === 1)) return WITHOUT_NONE;
    return WITH_NONE;
  }
  // GPT-5.4 … 5.6: same tool restriction on Chat Completions; their efforts are passed through.
  if (major === 5 && minor >= 4) return { api: 'responses' };
  // GPT-5.x on Chat Completions (developers.openai.com "Reasoning models": gpt-5.1 takes none, low, medium, high;
  // the models before it default to medium and take minimal, not none). gpt-5-chat is no reasoning model.
  if (major === 5 && tier !== 'chat') {
    if (minor >= 1) return GPT5_WITH_NONE;
    return tier === 'pro' ? GPT5_PRO : GPT5;
  }
  return CHAT;
}
