// POST /api/v1/chat/completions, /api/v1/messages and /api/v1/responses, transport- and format-independent:
// admit (auth, validate, reserve) → open upstream (retries before the first byte) → stream or answer →
// meter → settle. Every admitted generation is settled exactly once, whatever happens: right before its final
// usage is sent (the runners call `commit`), or in the finally block if it never got that far.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { newRequestId } from '@/server/http/request-id';
import { EMPTY_USAGE } from '@/server/providers/types';
import type { SettleInput } from '@/server/ledger/settle-generation';
import type { Runtime } from '@/server/runtime/runtime';
import { admit, type Admission, type AdmissionTrace } from './admit';
import { recordRefusal } from './record-refusal';
import { runNonStreaming } from './run-non-streaming';
import { runStreaming } from './run-streaming';
import { chargeFor, usageErrorOf, type GenerationOutcome } from './outcome';
import { attemptLog, attemptsIn } from './open-route';
import type { ChatTransport } from './transport';
import type { WireFormat } from './wire-format';

/**
 * @param rt the process's runtime (server/runtime): settlement queue, batcher, pools, providers, limits.
 * @param format the client's wire format (wire-format.ts): how the body is read and the answer written.
 */
export async function handleChat(rt: Runtime, t: ChatTransport, format: WireFormat, authenticated?: Principal): Promise<void> {
  const requestId = t.requestId ?? newRequestId();
  const started = performance.now();
  t.annotate?.({ request_id: requestId });
  let a: Admission;
  const trace: AdmissionTrace = {};
  try {
    a = await admit(rt, t, format, authenticated, trace);
  } catch (err) {
    const { status, body, headers } = format.errorReply(err, requestId, 'admission');
    rt.metrics.refused(status);
    t.sendJson(status, body, { ...headers, 'x-request-id': requestId });
    // After the answer: the refusal's record is queued, never awaited.
    recordRefusal(rt, t, trace, err, status, requestId, started);
    return;
  }
  t.annotate?.({ generation_id: a.generationId, account_id: a.principal.accountId });

  // Until settled, this process renews the reservation's lease (a dead process's expire and are swept).
  rt.leases.hold(a.generationId);
  if (a.refused) {
    refuseAdmitted(rt, t, format, a, a.refused, requestId, started);
    return;
  }
  let committed = false;
  // The HTTP status the client got, for the metrics: 200 once an answer or a stream started.
  let replyStatus = 200;
  const commit = (o: GenerationOutcome) => {
    if (committed) return;
    committed = true;
    const input = settle(rt, a, o, requestId, started, o.status === 'ABORTED' ? CLIENT_CLOSED : replyStatus);
    t.annotate?.({ model: input.usage.model, provider: input.usage.provider });
    t.trace?.generation({ startedAt: started, ttftMs: o.ttftMs ?? null, attempts: o.attempts.length, promptTokens: o.usage.promptTokens, completionTokens: o.usage.completionTokens });
  };
  let outcome: GenerationOutcome = { usage: EMPTY_USAGE, produced: false, finishReason: null, status: 'ERROR', streamed: a.req.stream, attempts: [] };
  try {
    await format.afterAdmission?.(a.req, a.principal);
    outcome = a.req.stream ? await runStreaming(rt, t, format, a, requestId, started, commit) : await runNonStreaming(rt, t, format, a, requestId, commit);
  } catch (err) {
    // Only reached before anything was sent: the client gets an HTTP error; nothing is charged. A client that
    // went away is not a server fault: nothing is sent or logged as an error (its AbortError would be a 500).
    const aborted = t.signal.aborted;
    let error: { code: string; message: string };
    if (aborted) {
      error = { code: 'client_closed', message: 'The client closed the connection before the answer' };
    } else {
      const { status, body, headers } = format.errorReply(err, requestId, 'generation');
      replyStatus = status;
      t.sendJson(status, body, { ...headers, 'x-request-id': requestId, 'x-generation-id': a.generationId });
      error = usageErrorOf(err);
    }
    outcome = {
      usage: EMPTY_USAGE,
      produced: false,
      finishReason: null,
      status: aborted ? 'ABORTED' : 'ERROR',
      error,
      streamed: a.req.stream,
      attempts: attemptsIn(err),
    };
  } finally {
    commit(outcome);
  }
}

/**
 * Refused by what admission learned with the reservation (a key's rate limit, the organization's provider
 * allow-list, an unreadable saved provider key): answered as any admission refusal, and the reservation settled
 * as one — status REFUSED with the HTTP status and error code the client got, nothing charged, the hold
 * released, counted by the metrics as refused (journalAndSettle). Nothing was attempted upstream. Settled
 * before the answer is written, so it is settled once even if writing fails.
 */
function refuseAdmitted(rt: Runtime, t: ChatTransport, format: WireFormat, a: Admission, err: unknown, requestId: string, started: number): void {
  const { status, body, headers } = format.errorReply(err, requestId, 'admission');
  const error = usageErrorOf(err);
  const input = settle(rt, a, { usage: EMPTY_USAGE, produced: false, finishReason: null, status: 'REFUSED', error, streamed: a.req.stream, attempts: [] }, requestId, started, status);
  t.annotate?.({ model: input.usage.model, provider: input.usage.provider });
  t.sendJson(status, body, { ...headers, 'x-request-id': requestId, 'x-generation-id': a.generationId });
}

/**
 * Journals the settlement (one synchronous append: a crash from here on cannot lose the charge, see
 * ledger/settlement-journal.ts), then queues it; once it is committed the journal line and the lease go.
 */
function settle(rt: Runtime, a: Admission, o: GenerationOutcome, requestId: string, started: number, httpStatus: number): SettleInput {
  const input = settlementFor(a, o, requestId, started);
  if (o.served && o.status === 'SUCCESS') recordSpeed(rt, o, input.usage.latencyMs);
  if (a.tokenSubject) void rt.rateLimiter.addTokens(a.tokenSubject, o.usage.promptTokens + o.usage.completionTokens);
  journalAndSettle(rt, input, httpStatus);
  return input;
}

const NOTHING_CHARGED = { costMicros: 0n, cacheSavingsMicros: 0n, unbilledMicros: 0n } as const;

/** The metrics' status of a request whose client went away before its answer was complete (nginx's 499). */
export const CLIENT_CLOSED = 499;

/**
 * The settlement's one path for every gateway use case (chat, embeddings): metrics, journal, queue, then
 * drop the lease. `httpStatus` is what the client got (CLIENT_CLOSED when it left first).
 */
export function journalAndSettle(rt: Runtime, input: SettleInput, httpStatus: number): void {
  const u = input.usage;
  u.httpStatus ??= httpStatus;
  // Refused after its reservation: counted as the refusals before it are (handleChat), not as a generation.
  if (u.status === 'REFUSED') {
    rt.metrics.refused(httpStatus);
  } else {
    rt.metrics.generation({
      model: u.model,
      provider: u.provider,
      status: httpStatus,
      streamed: u.streamed,
      latencyMs: u.latencyMs,
      ttftMs: u.ttftMs ?? null,
      promptTokens: u.promptTokens,
      completionTokens: u.completionTokens,
      cachedTokens: u.cachedTokens,
      cacheWriteTokens: u.cacheWriteTokens,
      reasoningTokens: u.reasoningTokens,
      costMicros: input.costMicros,
    });
  }
  const journaled = rt.journal?.append(input) ?? null;
  void rt.settlements.enqueue(input).then(() => {
    if (journaled) rt.journal!.settled(journaled);
    rt.leases.release(input.generationId);
  });
}

/** For `provider.sort`: time to the first token (or the answer) and the output rate after it. */
function recordSpeed(rt: Runtime, o: GenerationOutcome, latencyMs: number): void {
  const firstMs = o.ttftMs ?? latencyMs;
  const streamingMs = latencyMs - firstMs;
  rt.endpointStats.record(o.served!.candidate.endpoint, firstMs, streamingMs > 0 ? (o.usage.completionTokens * 1000) / streamingMs : undefined);
}

function settlementFor(a: Admission, o: GenerationOutcome, requestId: string, started: number): SettleInput {
  // Who served it; when no endpoint answered, the primary (what the client asked for).
  const { model, endpoint } = o.served?.candidate ?? a.route.candidates[0]!;
  // A refusal is never charged (nothing was produced: chargeFor gives nothing; said again here for the ledger).
  const refused = o.status === 'REFUSED';
  const { costMicros, cacheSavingsMicros, unbilledMicros } = refused ? NOTHING_CHARGED : chargeFor(endpoint, o, a.reservedMicros);
  return {
    generationId: a.generationId,
    accountId: a.principal.accountId,
    costMicros,
    usage: {
      userId: a.principal.userId,
      apiKeyId: a.principal.apiKey?.id ?? null,
      authTokenId: a.principal.authTokenId ?? null,
      model: model.id,
      provider: endpoint.provider.id,
      // Nothing was sent upstream for a refusal: as its record made before a reservation, no upstream model.
      upstreamModel: refused ? '' : endpoint.upstreamModel,
      providerKey: o.served?.key?.id ?? null,
      attempts: o.attempts.length,
      attemptLog: attemptLog(o.attempts),
      upstreamId: o.upstreamId ?? null,
      promptTokens: o.usage.promptTokens,
      completionTokens: o.usage.completionTokens,
      cachedTokens: o.usage.cachedTokens,
      cacheWriteTokens: o.usage.cacheWriteTokens,
      reasoningTokens: o.usage.reasoningTokens,
      cacheSavingsMicros,
      unbilledMicros,
      byok: !!o.served?.key?.byok,
      // What the provider says it cost (OpenRouter's usage.cost), for the whole answer it sent.
      providerCostMicros: (o.upstreamUsage ?? o.usage).providerCostMicros ?? null,
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
  };
}
