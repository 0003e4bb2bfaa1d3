import { parseUnframedTail, UNFRAMED_TAIL_EVENT } from '../sse';
import type { FinishReason, MidStreamError, NormalizedUsage, SseEvent, StreamConverter, StreamDelta } from '../types';
import { convertGeminiStreamError } from './convert-error';
import { createPartsConverter } from './convert-parts';
import { convertGeminiUsage } from './convert-usage';
import { generateContentResponseSchema, googleRpcErrorSchema } from './generate-content-response';
import { finishReasonError, mapGeminiFinishReason, promptBlockedError } from './map-finish-reason';

/**
 * Translates `streamGenerateContent?alt=sse`. Each `data:` line is a complete GenerateContentResponse holding
 * only the new parts; there is no [DONE]: the chunk carrying `finishReason` is the last one. usageMetadata
 * rides on (nearly) every chunk with running totals, so the last one seen wins.
 */
export function createGeminiStreamConverter(): StreamConverter {
  const parts = createPartsConverter();
  let finishReason: FinishReason | null = null;
  let usage: NormalizedUsage | null = null;
  let error: MidStreamError | null = null;
  let done = false;
  let upstreamId: string | null = null;

  function fail(e: MidStreamError, reason: FinishReason) {
    error = e;
    finishReason = reason;
    done = true;
  }

  function push(event: SseEvent): StreamDelta[] {
    if (event.event === UNFRAMED_TAIL_EVENT) {
      // A failed stream may end with a bare google.rpc.Status body instead of a data line (sse.ts).
      const tail = googleRpcErrorSchema.safeParse(parseUnframedTail(event.data));
      if (tail.success && !done) fail(convertGeminiStreamError(tail.data.error), 'error');
      return [];
    }
    const data = event.data.trim();
    if (!data) return [];
    let json: unknown;
    try {
      json = JSON.parse(data);
    } catch {
      error = { code: 'server_error', message: 'Gemini sent a stream chunk that is not JSON' };
      return [];
    }

    // Errors after the 200 arrive as a data line holding a google.rpc.Status; the connection closes after it.
    const rpcError = googleRpcErrorSchema.safeParse(json);
    if (rpcError.success) {
      fail(convertGeminiStreamError(rpcError.data.error), 'error');
      return [];
    }

    const chunk = generateContentResponseSchema.safeParse(json);
    if (!chunk.success) {
      error = { code: 'server_error', message: 'Gemini sent a stream chunk the gateway cannot read' };
      return [];
    }
    if (chunk.data.usageMetadata) usage = convertGeminiUsage(chunk.data.usageMetadata);
    upstreamId ??= chunk.data.responseId ?? null;

    const candidate = chunk.data.candidates?.[0];
    if (!candidate) {
      const blockReason = chunk.data.promptFeedback?.blockReason;
      if (blockReason) fail(promptBlockedError(blockReason), 'content_filter');
      return [];
    }

    const deltas = parts.convert(candidate.content?.parts ?? []);
    if (candidate.finishReason) {
      // Converted first so that tool calls in this very chunk turn STOP into "tool_calls".
      finishReason = mapGeminiFinishReason(candidate.finishReason, parts.toolCallCount > 0);
      error = finishReasonError(candidate.finishReason) ?? error;
      done = true;
    }
    return deltas;
  }

  return {
    push,
    get finishReason() {
      return finishReason;
    },
    get usage() {
      return usage;
    },
    get error() {
      return error;
    },
    get done() {
      return done;
    },
    get upstreamId() {
      return upstreamId;
    },
  };
}
