// POST /api/v1/chat/completions, transport-independent:
// admit (auth, validate, reserve) → open upstream (retries before the first byte) → stream or answer →
// meter → settle. Every admitted generation is settled exactly once, whatever happens (finally block).
import type { Principal } from '@/server/auth/authenticate-bearer';
import { errorReply } from '@/server/errors';
import { newRequestId } from '@/server/http/request-id';
import { EMPTY_USAGE } from '@/server/providers/types';
import type { Runtime } from '@/server/runtime/runtime';
import { admit, type Admission } from './admit';
import { runNonStreaming } from './run-non-streaming';
import { runStreaming } from './run-streaming';
import { chargeFor, type GenerationOutcome } from './outcome';
import type { ChatTransport } from './transport';

/** @param rt the process's runtime (server/runtime): settlement queue, batcher, pools, providers, limits. */
export async function handleChat(rt: Runtime, t: ChatTransport, authenticated?: Principal): Promise<void> {
  const requestId = newRequestId();
  const started = performance.now();
  let a: Admission;
  try {
    a = await admit(rt, t, authenticated);
  } catch (err) {
    const { status, body, headers } = errorReply(err, requestId, 'admission');
    t.sendJson(status, body, { ...headers, 'x-request-id': requestId });
    return;
  }

  let outcome: GenerationOutcome = { usage: EMPTY_USAGE, produced: false, finishReason: null, status: 'ERROR', streamed: a.req.stream };
  try {
    outcome = a.req.stream ? await runStreaming(rt, t, a, requestId, started) : await runNonStreaming(rt, t, a, requestId);
  } catch (err) {
    // Only reached before anything was sent: the client gets an HTTP error; nothing is charged.
    const aborted = t.signal.aborted;
    const { status, body, headers } = errorReply(err, requestId, 'generation');
    if (!aborted) {
      t.sendJson(status, body, { ...headers, 'x-request-id': requestId });
    }
    outcome = {
      usage: EMPTY_USAGE,
      produced: false,
      finishReason: null,
      status: aborted ? 'ABORTED' : 'ERROR',
      error: { code: String(body.error.metadata.error_type ?? body.error.code), message: body.error.message },
      streamed: a.req.stream,
    };
  } finally {
    settle(rt, a, outcome, requestId, started);
  }
}

function settle(rt: Runtime, a: Admission, o: GenerationOutcome, requestId: string, started: number): void {
  const { costMicros, cacheSavingsMicros, unbilledMicros } = chargeFor(a.model, o, a.reservedMicros);
  void rt.settlements.enqueue({
    generationId: a.generationId,
    accountId: a.principal.accountId,
    costMicros,
    usage: {
      userId: a.principal.userId,
      apiKeyId: a.principal.apiKey?.id ?? null,
      authTokenId: a.principal.authTokenId ?? null,
      model: a.model.id,
      provider: a.model.provider,
      upstreamModel: a.model.upstreamModel,
      upstreamId: o.upstreamId ?? null,
      promptTokens: o.usage.promptTokens,
      completionTokens: o.usage.completionTokens,
      cachedTokens: o.usage.cachedTokens,
      cacheWriteTokens: o.usage.cacheWriteTokens,
      reasoningTokens: o.usage.reasoningTokens,
      cacheSavingsMicros,
      unbilledMicros,
      latencyMs: Math.round(performance.now() - started),
      ttftMs: o.ttftMs ?? null,
      finishReason: o.finishReason,
      status: o.status,
      streamed: o.streamed,
      errorCode: o.error?.code ?? null,
      errorMessage: o.error?.message ?? null,
      httpReferer: a.tracking.httpReferer ?? null,
      xTitle: a.tracking.xTitle ?? null,
      taskId: a.tracking.taskId ?? null,
      requestId,
    },
  });
}
