// Our ChatRequest → an OpenAI Chat Completions request. Nearly a pass-through: our request IS the OpenAI
// shape, plus a few fields of our own that OpenAI would reject ("Unrecognized request argument"). Fields
// are picked one by one rather than spread, so nothing we add to ChatRequest later leaks upstream.
import { refuseLogprobs } from '../refuse-logprobs';
import type { ChatMessage, ChatRequest, ConvertContext, UpstreamRequest } from '../types';

/**
 * `cache_control` is Anthropic's breakpoint: OpenAI caches prefixes on its own and answers 400 to a part
 * field it does not know, and compatible servers vary, so it goes no further than here.
 */
function withoutCacheControl<T extends { cache_control?: unknown }>(item: T): Omit<T, 'cache_control'> {
  if (item.cache_control === undefined) return item;
  const { cache_control: _dropped, ...rest } = item;
  return rest;
}

/**
 * Assistant messages may carry our `reasoning`/`reasoning_details` (echoed back by clients from an earlier
 * answer) or a client's copy of DeepSeek's `reasoning_content`; none is part of OpenAI's input schema.
 */
export function convertOpenAIMessages(messages: ChatMessage[]): Record<string, unknown>[] {
  return messages.map((original) => {
    const message = Array.isArray(original.content) ? { ...original, content: original.content.map(withoutCacheControl) } : original;
    if (message.role !== 'assistant') return message;
    const copy: Record<string, unknown> = { ...message };
    delete copy.reasoning;
    delete copy.reasoning_details;
    delete copy.reasoning_content;
    return copy;
  });
}

/** The parameters every OpenAI-compatible server understands the same way, copied only when set. */
export function pickPortableParams(req: ChatRequest): Record<string, unknown> {
  const params: Record<string, unknown> = {};
  const keys = ['temperature', 'top_p', 'stop', 'seed', 'tools', 'tool_choice', 'parallel_tool_calls', 'response_format', 'user', 'logprobs', 'top_logprobs'] as const;
  for (const key of keys) {
    if (req[key] !== undefined) params[key] = req[key];
  }
  if (req.tools) params.tools = req.tools.map(withoutCacheControl);
  // Only servers whose adapter supportsChoices get n > 1 (gateway/choices.ts refuses it for the others).
  if (req.n !== undefined && req.n > 1) params.n = req.n;
  return params;
}

/** `reasoning.effort` wins over the top-level `reasoning_effort`; `reasoning.enabled: false` means none. */
export function requestedEffort(req: ChatRequest): ChatRequest['reasoning_effort'] {
  if (req.reasoning?.enabled === false) return undefined;
  return req.reasoning?.effort ?? req.reasoning_effort;
}

/** `${base}/chat/completions`, whether or not the configured base ends with a slash. */
export function chatCompletionsUrl(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, '')}/chat/completions`;
}

export function jsonHeaders(apiKey: string | undefined, extra: Record<string, string> = {}): Record<string, string> {
  return { 'content-type': 'application/json', ...(apiKey ? { authorization: `Bearer ${apiKey}` } : {}), ...extra };
}

export function convertOpenAIRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest {
  // The catalog's supportsReasoning flag marks OpenAI's reasoning models (o1/o3/o4-mini, gpt-5 and later,
  // not gpt-5-chat). They differ from chat models in the three ways handled below.
  const reasoningModel = ctx.model.supportsReasoning;
  const body: Record<string, unknown> = {
    model: ctx.model.upstreamModel,
    messages: convertOpenAIMessages(req.messages),
    ...pickPortableParams(req),
  };
  // OpenAI's cache routing key (or the X-Task-ID header's value, gateway/prompt-cache-key.ts); not portable.
  if (req.prompt_cache_key) body.prompt_cache_key = req.prompt_cache_key;

  if (reasoningModel) {
    // Reasoning models answer 400 to logprobs ("not supported with this model"): said here, before credit is reserved.
    refuseLogprobs(req, ctx.model.id, 'OpenAI reasoning models return no log probabilities');
    // Reasoning models reject `max_tokens` ("use max_completion_tokens instead"); the latter counts the
    // hidden reasoning tokens too, which is what a client's limit should cap on these models.
    const limit = req.max_completion_tokens ?? req.max_tokens;
    if (limit !== undefined) body.max_completion_tokens = limit;
    // They also reject any temperature/top_p other than the default (400 "Unsupported value"), and clients
    // written for chat models send them routinely; dropping them is what the model would do anyway.
    delete body.temperature;
    delete body.top_p;
    // Only reasoning models accept reasoning_effort (chat models answer 400). `reasoning.max_tokens` has no
    // OpenAI equivalent and `reasoning.exclude` nothing to do, since Chat Completions never returns
    // reasoning text; both are dropped with our `reasoning` object itself.
    const effort = requestedEffort(req);
    if (effort) body.reasoning_effort = effort;
  } else {
    if (req.max_tokens !== undefined) body.max_tokens = req.max_tokens;
    if (req.max_completion_tokens !== undefined) body.max_completion_tokens = req.max_completion_tokens;
  }

  if (req.stream) {
    body.stream = true;
    // The gateway bills from the final usage chunk, so it is asked for whatever the client said.
    // (Sending stream_options on a non-streaming request is a 400, hence only here.)
    body.stream_options = { include_usage: true };
  }

  return { url: chatCompletionsUrl(ctx.config.baseUrl), method: 'POST', headers: jsonHeaders(ctx.config.apiKey), body: JSON.stringify(body) };
}
