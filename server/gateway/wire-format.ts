// The wire format a client speaks. One gateway use case (handle-chat.ts: admit → route → stream or answer →
// meter → settle) serves three formats: OpenAI Chat Completions (chat-format.ts), the Anthropic Messages API
// (server/formats/anthropic-messages) and the OpenAI Responses API (server/formats/openai-responses). A
// format parses the client's body into the internal request (the Chat Completions shape, plus `native` when
// the body can be passed on nearly unchanged to an upstream of the same family) and renders the answer,
// the stream and errors in its own shape. Routing, limits, reservation and metering never see the format.
import type { Principal } from '@/server/auth/authenticate-bearer';
import type { AssistantMessage, ChatRequest, ChoiceLogprobs, ConvertedChoice, FinishReason, MidStreamError, NormalizedUsage, StreamDelta } from '@/server/providers/types';

export type WireFormatId = 'chat' | 'anthropic-messages' | 'openai-responses';

/** What every rendering knows about the generation. */
export interface RenderContext {
  generationId: string;
  requestId: string;
  /** Our model id (the serving one, when a fallback model served). */
  model: string;
  provider: string;
  req: ChatRequest;
  /** Unix seconds. */
  created: number;
}

/** The final figures: the usage billed and its exact charge (usage.cost). */
export interface FinalUsage {
  usage: NormalizedUsage;
  costMicros: bigint;
}

/** A complete (non-streaming) answer. */
export interface FinalAnswer extends FinalUsage {
  message: AssistantMessage;
  finishReason: FinishReason;
  /** The stop sequence that ended the answer, when the upstream said which (finishReason is `stop`). */
  stopSequence?: string;
  /** Token log probabilities, when asked for and returned (providers/types.ts ChoiceLogprobs). */
  logprobs?: ChoiceLogprobs;
  /** The upstream answered 200 but refused (content filter) or failed inside the body. */
  error?: MidStreamError;
  /** Choices 1 … n − 1 of a request with n > 1 (only Chat Completions asks for them); the fields above are choice 0. */
  otherChoices?: ConvertedChoice[];
}

/** What the terminal events may say besides the finish reason and usage. */
export interface FinishDetails {
  /** The stop sequence that ended the answer, when the upstream said which (only the Messages API tells it). */
  stopSequence?: string;
  /** A request with n > 1: the finish reason of choices 1 … n − 1 (the `reason` argument is choice 0's). */
  otherChoices?: { index: number; finishReason: FinishReason }[];
}

/**
 * Renders one stream. Each method returns the exact text to write (SSE framing included), possibly ''.
 * The runner calls start() once, delta() per upstream delta, then exactly one of finish() or error().
 */
export interface StreamRenderer {
  start(): string;
  delta(d: StreamDelta): string;
  /** The terminal events: usage, the finish reason (of each choice) and the format's end marker. */
  finish(reason: FinishReason, final: FinalUsage, details?: FinishDetails): string;
  /** A failure after the stream began (never a silent cut): the format's error event(s) and end marker. */
  error(err: MidStreamError, final: FinalUsage, metadata: Record<string, unknown>): string;
  /** Written while waiting (an SSE comment, or Anthropic's ping event). */
  readonly keepAlive: string;
}

export interface ErrorReplyOf {
  status: number;
  body: unknown;
  headers: Record<string, string>;
}

export interface WireFormat {
  readonly id: WireFormatId;
  /**
   * Validates the client's JSON body (already parsed, an object) into the internal request. Throws AppError
   * (400) for what is wrong. `header` reads request headers (Accept, anthropic-beta, X-Task-ID…).
   */
  parse(json: Record<string, unknown>, header: (name: string) => string | undefined): ChatRequest | Promise<ChatRequest>;
  /** A refusal before anything was streamed, in the format's own error shape (and logs a 5xx, via errors.ts). */
  errorReply(err: unknown, requestId: string, where: string): ErrorReplyOf;
  /** Headers of an answer (JSON or stream) besides x-request-id and x-generation-id: Anthropic's `request-id`. */
  answerHeaders?(requestId: string): Record<string, string>;
  /** The body of a complete answer. */
  complete(ctx: RenderContext, answer: FinalAnswer): unknown;
  stream(ctx: RenderContext): StreamRenderer;
  /**
   * Runs once the caller is known and credit is reserved, before any upstream output is used (e.g. the
   * Responses API checks that `previous_response_id` belongs to this account). A throw is answered with
   * errorReply and nothing is charged.
   */
  afterAdmission?(req: ChatRequest, principal: Principal): void | Promise<void>;
  /**
   * Runs after the generation is charged and before its final answer or terminal event is written
   * (the Responses API stores the response when `store` is true), so what the client sees exists.
   */
  beforeFinal?(ctx: RenderContext, principal: Principal, answer: FinalAnswer): Promise<void>;
}
