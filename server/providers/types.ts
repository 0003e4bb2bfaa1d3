// The provider spec: every upstream adapter (openai, anthropic, gemini, openai-compatible, echo) implements
// ProviderAdapter with pure converters. Adapters never touch the database, the ledger or the network:
// the gateway (server/gateway) sends the UpstreamRequest with undici, feeds the parsed SSE events
// (server/providers/sse.ts) to a StreamConverter and writes OpenAI-shaped chunks to the client.

// ---------- the OpenAI-shaped request, after validation ----------
// Derived from its zod schema (server/gateway/chat-request-schema.ts), the one definition: what the schema
// accepts is exactly what adapters are typed to receive.
import type { ChatRequest } from '@/server/gateway/chat-request-schema';
import type { CancelSignal } from '@/server/http/cancel-signal';

export type { ChatRequest };
export type ChatMessage = ChatRequest['messages'][number];
export type ContentPart = Exclude<Extract<ChatMessage, { role: 'user' }>['content'], string>[number];
export type TextPart = Extract<ContentPart, { type: 'text' }>;
export type ImagePart = Extract<ContentPart, { type: 'image_url' }>;
export type FilePart = Extract<ContentPart, { type: 'file' }>;
export type ToolCall = NonNullable<Extract<ChatMessage, { role: 'assistant' }>['tool_calls']>[number];
/**
 * OpenRouter-style reasoning details. Sent to clients in `reasoning_details` and accepted back on later
 * assistant messages so a provider's signed/encrypted reasoning survives tool turns.
 *  - reasoning.text: plain reasoning with an optional signature (Anthropic thinking, Gemini thought + thoughtSignature)
 *  - reasoning.encrypted: opaque data (Anthropic redacted_thinking, a Gemini thoughtSignature on a non-thought part)
 *  - reasoning.summary: a summary (OpenAI-style)
 */
export type ReasoningDetail = NonNullable<Extract<ChatMessage, { role: 'assistant' }>['reasoning_details']>[number];
export type ToolDefinition = NonNullable<ChatRequest['tools']>[number];
export type ToolChoice = NonNullable<ChatRequest['tool_choice']>;
export type ReasoningParam = NonNullable<ChatRequest['reasoning']>;
export type ResponseFormat = NonNullable<ChatRequest['response_format']>;

// ---------- the catalog entry an adapter is given ----------

export interface ResolvedModel {
  /** Our public id, e.g. "anthropic/claude-sonnet-4.5". */
  id: string;
  /** Provider id, e.g. "anthropic", "deepseek" or an operator-defined openai-compatible provider. */
  provider: string;
  /** The model name the upstream API expects, e.g. "claude-sonnet-4-5". */
  upstreamModel: string;
  contextLength: number;
  maxOutputTokens: number;
  supportsReasoning: boolean;
  supportsImages: boolean;
}

export interface ProviderConfig {
  /** Base URL as configured, e.g. OPENAI_BASE_URL = "https://api.openai.com/v1". */
  baseUrl: string;
  apiKey?: string;
}

// ---------- what an adapter produces for the gateway ----------

export interface UpstreamRequest {
  /** Absolute URL. */
  url: string;
  method: 'POST';
  headers: Record<string, string>;
  body: string;
}

export type FinishReason = 'stop' | 'length' | 'tool_calls' | 'content_filter' | 'error';

/** Token counts in OpenAI's sense: promptTokens includes cached and cache-write tokens; completionTokens includes reasoning. */
export interface NormalizedUsage {
  promptTokens: number;
  completionTokens: number;
  cachedTokens: number;
  cacheWriteTokens: number;
  /**
   * The part of cacheWriteTokens written to the 1-hour cache (Anthropic's `ttl: "1h"`), priced apart
   * (Pricing.cacheWrite1hPrice). Absent means 0: only providers that report such writes set it.
   */
  cacheWrite1hTokens?: number;
  reasoningTokens: number;
  /**
   * What the provider itself says the request cost it, in micro-dollars (OpenRouter's `usage.cost`), when it
   * says so. Recorded in the usage record for the operator; the customer's charge is our list price.
   */
  providerCostMicros?: bigint;
}

/** One assistant message as returned to the client (non-streaming). */
export interface AssistantMessage {
  role: 'assistant';
  content: string | null;
  tool_calls?: ToolCall[];
  reasoning?: string | null;
  reasoning_details?: ReasoningDetail[];
}

/**
 * Log probabilities of the output, in OpenAI's `choices[].logprobs` shape (`{content: [{token, logprob, bytes,
 * top_logprobs}], refusal}`), passed on as the upstream sent them: only Chat Completions upstreams produce them.
 */
export type ChoiceLogprobs = Record<string, unknown>;

/** A choice after the first of an answer to a request with n > 1 (Chat Completions' `n`). */
export interface ConvertedChoice {
  /** 1 … n − 1. */
  index: number;
  message: AssistantMessage;
  finishReason: FinishReason;
  logprobs?: ChoiceLogprobs;
}

export interface ConvertedResponse {
  /** Choice 0 (the only one unless the request asked for n > 1: then see otherChoices). */
  message: AssistantMessage;
  /** Only when the client asked for logprobs and the upstream returned them. */
  logprobs?: ChoiceLogprobs;
  finishReason: FinishReason;
  /**
   * The stop sequence (one of the request's `stop`) that ended the answer, when the upstream says which
   * (Anthropic's stop_sequence); finishReason is then `stop`. OpenAI-style upstreams cannot tell it apart.
   */
  stopSequence?: string;
  usage: NormalizedUsage;
  /** The upstream's own id for the response, kept in usage metadata. */
  upstreamId?: string;
  /** Set when the upstream answered 200 but refused the content (e.g. Gemini promptFeedback.blockReason). */
  error?: MidStreamError;
  /** Choices 1 … n − 1, in index order, for a request with n > 1 (usage counts every choice). */
  otherChoices?: ConvertedChoice[];
}

/** A streamed tool-call fragment in OpenAI's shape: the first for an index carries id/type/name. */
export interface ToolCallDelta {
  index: number;
  id?: string;
  type?: 'function';
  function: { name?: string; arguments?: string };
}

/** One delta to send to the client; the gateway adds id, model, created and object. */
export interface StreamDelta {
  /** The choice it belongs to, for a request with n > 1; absent means 0. */
  choice?: number;
  content?: string;
  reasoning?: string;
  reasoning_details?: ReasoningDetail[];
  tool_calls?: ToolCallDelta[];
  /** This chunk's token log probabilities (rendered beside the delta, on the choice, not inside it). */
  logprobs?: ChoiceLogprobs;
}

export type MidStreamErrorCode = 'context_length_exceeded' | 'content_filter' | 'rate_limit' | 'server_error';

export interface MidStreamError {
  code: MidStreamErrorCode;
  message: string;
}

/** An SSE event as parsed by server/providers/sse.ts. */
export interface SseEvent {
  event?: string;
  data: string;
}

/**
 * Stateful translator of one upstream stream. The gateway calls `push` for each SSE event in order and
 * `finish` once the upstream body has ended (or failed). Deltas are forwarded to the client at once.
 */
export interface StreamConverter {
  push(event: SseEvent): StreamDelta[];
  /** The finish reason once the upstream has told it (null until then). */
  readonly finishReason: FinishReason | null;
  /** The stop sequence that ended the answer, when the upstream says which (see ConvertedResponse). */
  readonly stopSequence?: string | null;
  /** For a request with n > 1: the finish reason of each choice after the first, by index (finishReason is choice 0's). */
  readonly otherFinishReasons?: ReadonlyMap<number, FinishReason>;
  /** Usage as reported so far (upstreams report it at the start and/or at the end). */
  readonly usage: NormalizedUsage | null;
  /** An error the upstream reported inside the stream (Anthropic `error` event, OpenAI `{"error":…}` chunk…). */
  readonly error: MidStreamError | null;
  /** True once the upstream sent its terminal event ([DONE], message_stop, last Gemini chunk with finishReason). */
  readonly done: boolean;
  /** The upstream's own id for the response, once known (kept in usage records). */
  readonly upstreamId?: string | null;
}

/** An upstream's non-2xx answer, classified. */
export interface UpstreamFailure {
  /** What the client gets before the first byte. */
  kind: 'rate_limited' | 'context_length_exceeded' | 'bad_request' | 'auth' | 'not_found' | 'overloaded' | 'server_error';
  message: string;
  /** Seconds, from Retry-After or the provider's own hint. */
  retryAfter?: number;
  upstreamRequestId?: string;
  /** Why a provider refused, when it says more than `kind` (Azure's content filter on a prompt): told to the client in the error's metadata. */
  reason?: 'content_filter';
}

export interface ConvertContext {
  model: ResolvedModel;
  config: ProviderConfig;
}

export interface ProviderAdapter {
  /** Adapter id: "openai" | "anthropic" | "gemini" | "openai-compatible" | "echo". */
  readonly id: string;
  /** Build the upstream HTTP request (streaming or not, per req.stream). Throws AppError('bad_request') for what cannot be mapped. */
  convertRequest(req: ChatRequest, ctx: ConvertContext): UpstreamRequest;
  /** Parse a 2xx non-streaming JSON body. */
  convertResponse(body: unknown, ctx: ConvertContext): ConvertedResponse;
  /** A fresh converter for a 2xx streaming body. */
  createStreamConverter(ctx: ConvertContext): StreamConverter;
  /** Classify a non-2xx answer (body is the raw text, possibly not JSON). */
  convertError(status: number, body: string, headers: Record<string, string | string[] | undefined>): UpstreamFailure;
  /**
   * Whether this upstream and model return several choices (Chat Completions' `n`). Absent or false: a
   * request with n > 1 is refused (400 naming the model and `n`) before credit is reserved, never answered
   * with one choice.
   */
  supportsChoices?(ctx: ConvertContext): boolean;
  /** Echo-style adapters answer in-process instead of over HTTP. */
  readonly local?: LocalProvider;
  /**
   * Last step before the request is sent, after the gateway added the provider's configured headers: for
   * credentials that are not a static key — a SigV4 signature over the final request (Bedrock), an OAuth
   * access token from a cache refreshed before it expires (Vertex, Microsoft Entra ID). Throws AppError
   * (e.g. service_unavailable) when no credential can be had; the route then tries the next endpoint.
   */
  authorize?(request: UpstreamRequest, ctx: ConvertContext, signal: CancelSignal): Promise<UpstreamRequest>;
  /**
   * The framing of a 2xx streaming body when it is not server-sent events (Bedrock's binary
   * application/vnd.amazon.eventstream): decodes bytes into events for this adapter's StreamConverter.
   * Default: the shared SSE parser (sse.ts).
   */
  createStreamParser?(): StreamParser;
}

/** Bytes of a streaming body → events, chunk by chunk (sse.ts's SseParser is one). */
export interface StreamParser {
  push(chunk: Uint8Array): SseEvent[];
  end(): SseEvent[];
}

/** For the built-in echo model: produces the stream itself, no network. */
export interface LocalProvider {
  /** Refuses (AppError bad_request) what the local model cannot do, as convertRequest does; runs before credit is reserved. */
  check?(req: ChatRequest, ctx: ConvertContext): void;
  /** Yields SSE events in the adapter's own format; the same StreamConverter translates them. */
  stream(req: ChatRequest, signal: CancelSignal): AsyncIterable<SseEvent>;
  complete(req: ChatRequest): unknown;
}

export const EMPTY_USAGE: NormalizedUsage = Object.freeze({ promptTokens: 0, completionTokens: 0, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 });
