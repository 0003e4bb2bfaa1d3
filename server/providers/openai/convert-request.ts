// Our ChatRequest → an OpenAI Chat Completions request. Nearly a pass-through: our request IS the OpenAI
// shape, plus a few fields of our own that OpenAI would reject ("Unrecognized request argument"). Fields
// are picked one by one rather than spread, so nothing we add to ChatRequest later leaks upstream.
import { AppError } from '@/server/errors';
import { refuseLogprobs } from '../refuse-logprobs';
import type { ChatMessage, ChatRequest, ConvertContext, UpstreamRequest } from '../types';
import { mapReasoningEffort } from './map-reasoning-effort';
import { openAIModelProfile } from './model-profile';

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

/** A file part whose file_data is a web address rather than the file's content. */
export const isUrlFileData = (fileData: string | undefined): fileData is string => fileData !== undefined && /^https?:\/\//i.test(fileData);

/**
 * Chat Completions takes a file only as its content (file_data, base64) or an uploaded file's id: a URL in
 * file_data is a 400 upstream ("Invalid file data"), and has no field of its own here (the Responses API's
 * `file_url` does). An Anthropic document block by URL or a client's URL in file_data gets our 400 instead,
 * before credit is reserved, naming what to send.
 */
function refuseFileUrls(messages: ChatMessage[], modelId: string): void {
  for (const message of messages) {
    if (!Array.isArray(message.content)) continue;
    for (const part of message.content) {
      if (part.type !== 'file' || !isUrlFileData(part.file.file_data)) continue;
      const url = part.file.file_data.length > 100 ? `${part.file.file_data.slice(0, 100)}…` : part.file.file_data;
      throw new AppError(
        'bad_request',
        `A document given by URL (${url}) cannot be sent to ${modelId}: OpenAI's Chat Completions API takes a file only as base64 data or a file_id. Send the document's content (a document block with a base64 source, or file.file_data as a data: URL).`,
        { model: modelId, param: 'file_data' },
      );
    }
  }
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

/**
 * `reasoning.effort` wins over the top-level `reasoning_effort`; `reasoning.enabled: false` means none. For
 * OpenAI-compatible servers; OpenAI's own models go through mapReasoningEffort (their accepted efforts known).
 */
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
  refuseFileUrls(req.messages, ctx.model.id);
  const body: Record<string, unknown> = {
    model: ctx.model.upstreamModel,
    messages: convertOpenAIMessages(req.messages),
    ...pickPortableParams(req),
  };
  // OpenAI's cache routing key (or the X-Task-ID header's value, gateway/prompt-cache-key.ts); not portable.
  if (req.prompt_cache_key) body.prompt_cache_key = req.prompt_cache_key;
  if (req.safety_identifier) body.safety_identifier = req.safety_identifier;
  // GPT-5 and later only (a chat model answers 400 to it).
  if (req.verbosity && reasoningModel) body.verbosity = req.verbosity;

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
    // Only reasoning models accept reasoning_effort (chat models answer 400). Off is the model's lowest
    // effort and a budget (`reasoning.max_tokens`, Anthropic's budget_tokens) an effort by its share of the
    // output limit (map-reasoning-effort.ts). `reasoning.exclude` has nothing to do, since Chat Completions
    // never returns reasoning text.
    const effort = mapReasoningEffort(req, openAIModelProfile(ctx.model.upstreamModel).efforts, limit ?? ctx.model.maxOutputTokens);
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
