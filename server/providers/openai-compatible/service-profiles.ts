// Provider profiles for well-known OpenAI-compatible services, chosen by the provider's `type`: the
// openai-compatible converters plus what each service does differently. Base URLs and key variables are in
// server/routing/builtin-providers.ts.
import { requestedEffort } from '../openai/convert-request';
import type { ChatRequest, ProviderAdapter, ResolvedModel } from '../types';
import { createOpenAICompatibleAdapter } from '.';
import { remapMistralToolCallIds } from './mistral-tool-ids';

/**
 * Mistral (docs.mistral.ai/api, base https://api.mistral.ai/v1): tool-call ids of exactly 9 alphanumerics
 * (mistral-tool-ids.ts); no `stream_options` (Mistral sends usage in the last chunk unasked); `random_seed`
 * for OpenAI's `seed`; `user`, which Mistral does not define, not sent. Magistral's reasoning (content as
 * an array of `thinking` chunks) is not read here: the default catalog lists no Magistral model.
 */
export function adjustMistralBody(body: Record<string, unknown>): void {
  body.messages = remapMistralToolCallIds(body.messages as Record<string, unknown>[]);
  if (body.seed !== undefined) {
    body.random_seed = body.seed;
    delete body.seed;
  }
  delete body.user;
}

/**
 * xAI (docs.x.ai, base https://api.x.ai/v1): only grok-3-mini takes `reasoning_effort` (low | high); Grok 4
 * and later reasoning models answer 400 to it ("Grok 4 does not have a reasoning_effort parameter"), their
 * reasoning being chosen by the model id (…-reasoning / …-non-reasoning). Reasoning text comes back as
 * `reasoning_content`, read by the compatible dialect.
 */
export function adjustXaiBody(body: Record<string, unknown>, req: ChatRequest, model: ResolvedModel): void {
  const effort = requestedEffort(req);
  if (effort && model.upstreamModel.startsWith('grok-3-mini')) body.reasoning_effort = effort === 'minimal' || effort === 'low' ? 'low' : 'high';
}

/**
 * Groq (console.groq.com/docs/reasoning, base https://api.groq.com/openai/v1): `reasoning_effort` is
 * low | medium | high for openai/gpt-oss-* (which cannot stop reasoning) and none | default for qwen/qwen3-*;
 * gpt-oss returns its reasoning in `reasoning`, read by the compatible dialect, left out with
 * `include_reasoning: false` when the client asked for `reasoning.exclude`.
 */
export function adjustGroqBody(body: Record<string, unknown>, req: ChatRequest, model: ResolvedModel): void {
  if (!model.supportsReasoning) return;
  const effort = requestedEffort(req);
  if (model.upstreamModel.startsWith('openai/gpt-oss')) {
    if (effort) body.reasoning_effort = effort === 'minimal' ? 'low' : effort;
    if (req.reasoning?.exclude) body.include_reasoning = false;
  } else if (model.upstreamModel.startsWith('qwen/qwen3')) {
    if (req.reasoning?.enabled === false) body.reasoning_effort = 'none';
    else if (effort) body.reasoning_effort = 'default';
  }
}

/**
 * OpenRouter as an upstream (openrouter.ai/docs, base https://openrouter.ai/api/v1): our request IS
 * OpenRouter's shape, so its extensions go through unchanged — `cache_control` on parts and tools (which
 * OpenRouter relays to Anthropic and Gemini), `reasoning_details` on assistant messages (signed reasoning
 * across tool turns) and the `reasoning` parameter itself. Its `reasoning_details` in answers and streams
 * reach the client (openrouter-dialect.ts). Its `usage.cost` is kept in the usage record
 * (providerCostMicros, `provider_cost` of GET /generation); the customer is charged our own price list.
 */
export function adjustOpenRouterBody(body: Record<string, unknown>, req: ChatRequest): void {
  body.messages = req.messages;
  if (req.tools) body.tools = req.tools;
  const reasoning = req.reasoning ?? (req.reasoning_effort ? { effort: req.reasoning_effort } : undefined);
  if (reasoning) body.reasoning = reasoning;
}

export const mistralAdapter: ProviderAdapter = { ...createOpenAICompatibleAdapter({ supportsStreamOptions: false, adjustBody: adjustMistralBody }), id: 'mistral' };
// xAI's Chat Completions take `n` (docs.x.ai, "Chat completions"); Mistral's only for some models, Groq's not at all.
export const xaiAdapter: ProviderAdapter = { ...createOpenAICompatibleAdapter({ adjustBody: adjustXaiBody, supportsChoices: true }), id: 'xai' };
export const groqAdapter: ProviderAdapter = { ...createOpenAICompatibleAdapter({ adjustBody: adjustGroqBody }), id: 'groq' };
