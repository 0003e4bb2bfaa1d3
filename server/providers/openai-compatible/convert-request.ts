// Our ChatRequest → a Chat Completions request for a server that speaks OpenAI's protocol without being
// OpenAI (DeepSeek, vLLM, Ollama, LM Studio, llama.cpp…). Such servers follow the protocol as it was in
// 2024: `max_tokens`, no reasoning_effort, stream_options maybe. What each one supports beyond that is
// an option, set by the provider's configuration.
import { AppError } from '@/server/errors';
import { chatCompletionsUrl, convertOpenAIMessages, jsonHeaders, pickPortableParams, requestedEffort } from '../openai/convert-request';
import { refuseLogprobs } from '../refuse-logprobs';
import type { ChatMessage, ChatRequest, ConvertContext, ResolvedModel, UpstreamRequest } from '../types';
import { convertDeepseekThinking } from './deepseek-thinking';

export interface OpenAICompatibleOptions {
  /** Used when the ProviderConfig handed to the adapter has none (the config wins, so tests can point it at a fake). */
  baseUrl?: string;
  /** Used when the ProviderConfig has no apiKey. Local servers (Ollama, vLLM) usually need none. */
  apiKey?: string;
  /** Sent with every request, after ours (so they may replace `authorization`, e.g. with an `api-key` scheme). */
  headers?: Record<string, string>;
  /** Default true. Older vLLM, Ollama and llama.cpp builds reject `stream_options`; without it usage may be missing. */
  supportsStreamOptions?: boolean;
  /** Default false. Forward reasoning.effort / reasoning_effort as `reasoning_effort` to reasoning models. */
  supportsReasoningEffort?: boolean;
  /** Default false. Send an assistant message's reasoning back as `reasoning_content` (DeepSeek thinking mode). */
  sendReasoningContent?: boolean;
  /** Models that ignore temperature/top_p while they think; those parameters are then not sent (unless thinking is off). */
  ignoresSamplingParams?: (model: ResolvedModel) => boolean;
  /** Models that take DeepSeek's `thinking: {type}` switch and reasoning_effort levels (deepseek-thinking.ts). */
  deepseekThinking?: (model: ResolvedModel) => boolean;
  /** Models that answer 400 to logprobs/top_logprobs while they think (DeepSeek); refused here unless thinking is off. */
  refusesLogprobsWhileThinking?: (model: ResolvedModel) => boolean;
  /** Default false. The server returns `n` choices (xAI); otherwise n > 1 is refused before credit is reserved. */
  supportsChoices?: boolean;
  /** A service profile's last word on the body (profiles/: Mistral's tool-call ids, xAI's and Groq's reasoning, OpenRouter's extensions). */
  adjustBody?: (body: Record<string, unknown>, req: ChatRequest, model: ResolvedModel) => void;
}

/** `file_id` names a file uploaded to OpenAI: no other server can read it. */
function refuseFileIds(messages: ChatMessage[], model: ResolvedModel): void {
  for (const message of messages) {
    if (typeof message.content === 'string' || !message.content) continue;
    for (const part of message.content) {
      if (part.type === 'file' && part.file.file_data === undefined) {
        throw new AppError('bad_request', `file.file_id ${part.file.file_id ?? ''} names a file uploaded to OpenAI, which ${model.id} cannot read: send the PDF as file.file_data`, { model: model.id, param: 'file_id' });
      }
    }
  }
}

function reasoningText(message: Extract<ChatMessage, { role: 'assistant' }>): string | undefined {
  if (message.reasoning) return message.reasoning;
  // Clients that keep OpenRouter-style reasoning_details rather than the flat field.
  const text = (message.reasoning_details ?? []).map((d) => (d.type === 'reasoning.text' ? d.text : '')).join('');
  return text || undefined;
}

/**
 * DeepSeek's thinking mode (deepseek-reasoner and later) needs the reasoning of an assistant turn that
 * called tools to come back as `reasoning_content` in every later request, or it answers 400 "The
 * reasoning_content in the thinking mode must be passed back to the API"; on other turns it ignores it
 * (https://api-docs.deepseek.com/guides/thinking_mode). A tool-calling turn whose reasoning the client
 * did not keep gets an empty one, which DeepSeek accepts. (The first R1 release rejected the field; the
 * API no longer does, and dropping it now breaks every agent loop.)
 */
function convertMessages(messages: ChatMessage[], sendReasoning: boolean): Record<string, unknown>[] {
  const converted = convertOpenAIMessages(messages);
  if (!sendReasoning) return converted;
  return converted.map((message, i) => {
    const original = messages[i];
    if (original.role !== 'assistant') return message;
    const reasoning = reasoningText(original);
    if (reasoning) return { ...message, reasoning_content: reasoning };
    if (original.tool_calls?.length) return { ...message, reasoning_content: '' };
    return message;
  });
}

export function convertCompatibleRequest(req: ChatRequest, ctx: ConvertContext, options: OpenAICompatibleOptions = {}): UpstreamRequest {
  const { model } = ctx;
  const baseUrl = ctx.config.baseUrl || options.baseUrl;
  if (!baseUrl) throw new AppError('internal', `No base URL is configured for provider "${model.provider}"`);

  refuseFileIds(req.messages, model);
  const body: Record<string, unknown> = {
    model: model.upstreamModel,
    messages: convertMessages(req.messages, Boolean(options.sendReasoningContent) && model.supportsReasoning),
    ...pickPortableParams(req),
  };
  // `max_tokens` is the name every compatible server knows; several reject max_completion_tokens.
  const limit = req.max_completion_tokens ?? req.max_tokens;
  if (limit !== undefined) body.max_tokens = limit;
  const deepseek = model.supportsReasoning && options.deepseekThinking?.(model) ? convertDeepseekThinking(req) : undefined;
  Object.assign(body, deepseek);
  // Thinking is on unless the request turned it off (deepseek-thinking.ts).
  if (options.refusesLogprobsWhileThinking?.(model) && !deepseek?.thinking) refuseLogprobs(req, model.id, 'DeepSeek returns no log probabilities in thinking mode (turn it off with reasoning: {enabled: false})');
  if (options.ignoresSamplingParams?.(model) && !deepseek?.thinking) {
    delete body.temperature;
    delete body.top_p;
  }
  if (options.supportsReasoningEffort && model.supportsReasoning && !deepseek) {
    const effort = requestedEffort(req);
    if (effort) body.reasoning_effort = effort;
  }
  if (req.stream) {
    body.stream = true;
    // As for OpenAI: the gateway bills from the usage chunk, whatever the client asked for.
    if (options.supportsStreamOptions !== false) body.stream_options = { include_usage: true };
  }
  options.adjustBody?.(body, req, model);

  return {
    url: chatCompletionsUrl(baseUrl),
    method: 'POST',
    headers: jsonHeaders(ctx.config.apiKey || options.apiKey, options.headers),
    body: JSON.stringify(body),
  };
}
