// POST /api/v1/embeddings, transport-independent (gateway/transport.ts: node:http fast path and Next route):
// admit (auth, limits, validate, reserve) → send along the route with the chat path's failover
// (open-route.ts) → read the vectors → settle (exactly once, before the answer is sent) → answer in OpenAI's
// shape plus `provider`, `id` and `usage.cost`. Billed by input tokens at the serving endpoint's input price.
import type { Principal } from '@/server/auth/authenticate-bearer';
import { AppError, errorReply } from '@/server/errors';
import type { AdmissionTrace } from '@/server/gateway/admit';
import { CLIENT_CLOSED, journalAndSettle } from '@/server/gateway/handle-chat';
import { attemptLog, attemptsIn, sendAlongRoute, type AttemptRecord, type ServedRoute } from '@/server/gateway/open-route';
import { chargeFor, usageErrorOf } from '@/server/gateway/outcome';
import { recordRefusal } from '@/server/gateway/record-refusal';
import type { ChatTransport } from '@/server/gateway/transport';
import { newRequestId } from '@/server/http/request-id';
import { microsToUsd } from '@/server/ledger/money';
import type { SettleInput } from '@/server/ledger/settle-generation';
import { EMPTY_USAGE } from '@/server/providers/types';
import type { Runtime } from '@/server/runtime/runtime';
import { admitEmbeddings, prepareEmbeddingsAttempt, type EmbeddingsAdmission } from './admit-embeddings';
import { embeddingsConverterFor } from './embeddings-converters';
import { inputCount } from './embeddings-request-schema';
import type { EmbeddingsResult } from './embeddings-types';
import { renderEmbedding } from './encode-embedding';
import { likelyEmbeddingTokens } from './estimate-embedding-tokens';

export async function handleEmbeddings(rt: Runtime, t: ChatTransport, authenticated?: Principal): Promise<void> {
  const requestId = t.requestId ?? newRequestId();
  const started = performance.now();
  t.annotate?.({ request_id: requestId });
  let a: EmbeddingsAdmission;
  const trace: AdmissionTrace = {};
  try {
    a = await admitEmbeddings(rt, t, authenticated, trace);
  } catch (err) {
    const { status, body, headers } = errorReply(err, requestId, 'admission');
    rt.metrics.refused(status);
    t.sendJson(status, body, { ...headers, 'x-request-id': requestId });
    // After the answer, as the chat path: the refusal's record is queued, never awaited.
    recordRefusal(rt, t, trace, err, status, requestId, started);
    return;
  }

  // Until settled, this process renews the reservation's lease (a dead process's expire and are swept).
  rt.leases.hold(a.generationId);
  t.annotate?.({ generation_id: a.generationId, account_id: a.principal.accountId });
  const ids = { 'x-request-id': requestId, 'x-generation-id': a.generationId };
  if (a.refused) return refuseAdmitted(rt, t, a, a.refused, requestId, started);
  let served: ServedRoute | undefined;
  let settled = false;
  try {
    served = await sendAlongRoute(rt, a.route, t.signal, (candidate, key) => prepareEmbeddingsAttempt(candidate, key, a.req));
    const result = await readResult(served, inputCount(a.req));
    const { model, endpoint } = served.candidate;
    const promptTokens = result.promptTokens ?? likelyEmbeddingTokens(a.req);
    const usage = { ...EMPTY_USAGE, promptTokens };
    const charge = chargeFor(endpoint, { usage, produced: true, served }, a.reservedMicros);
    const input = settlementFor(a, served, requestId, started, { promptTokens, ...charge, status: 'SUCCESS', attempts: served.attempts });
    journalAndSettle(rt, input, 200);
    settled = true;
    if (a.tokenSubject) void rt.rateLimiter.addTokens(a.tokenSubject, promptTokens);
    t.annotate?.({ model: model.id, provider: endpoint.provider.id });
    t.sendJson(
      200,
      {
        object: 'list',
        data: result.embeddings.map((v, index) => ({ object: 'embedding', index, embedding: renderEmbedding(v, a.req.encoding_format) })),
        model: model.id,
        provider: endpoint.provider.id,
        id: a.generationId,
        usage: { prompt_tokens: promptTokens, total_tokens: promptTokens, cost: microsToUsd(charge.costMicros) },
      },
      ids,
    );
  } catch (err) {
    if (settled) throw err; // charged already; the answer could not be written (the client is gone)
    // Nothing was delivered: the client gets the error and nothing is charged.
    const aborted = t.signal.aborted;
    const { status, body, headers } = errorReply(err, requestId, 'embeddings');
    if (!aborted) t.sendJson(status, body, { ...headers, ...ids });
    const input = settlementFor(a, served, requestId, started, {
        promptTokens: 0,
        costMicros: 0n,
        unbilledMicros: 0n,
        status: aborted ? 'ABORTED' : 'ERROR',
        attempts: served?.attempts ?? attemptsIn(err),
      error: usageErrorOf(err),
    });
    journalAndSettle(rt, input, aborted ? CLIENT_CLOSED : status);
    t.annotate?.({ model: input.usage.model, provider: input.usage.provider });
  }
}

/**
 * Refused by what admission learned with the reservation (the key's rate limits, the organization's provider
 * allow-list, an unreadable saved provider key): answered as an admission refusal and the reservation settled
 * as one, as on the chat path (gateway/handle-chat.ts): status REFUSED, nothing charged, the hold released.
 */
function refuseAdmitted(rt: Runtime, t: ChatTransport, a: EmbeddingsAdmission, err: unknown, requestId: string, started: number): void {
  const { status, body, headers } = errorReply(err, requestId, 'admission');
  const input = settlementFor(a, undefined, requestId, started, {
    promptTokens: 0,
    costMicros: 0n,
    unbilledMicros: 0n,
    status: 'REFUSED',
    attempts: [],
    error: usageErrorOf(err),
  });
  input.usage.upstreamModel = ''; // nothing was sent upstream
  journalAndSettle(rt, input, status);
  t.annotate?.({ model: input.usage.model, provider: input.usage.provider });
  t.sendJson(status, body, { ...headers, 'x-request-id': requestId, 'x-generation-id': a.generationId });
}

/** The upstream's 2xx body as vectors, one per input (a different count is the upstream's fault: 502). */
async function readResult(served: ServedRoute, expected: number): Promise<EmbeddingsResult> {
  const converter = embeddingsConverterFor(served.candidate.endpoint.provider.type)!;
  let body: unknown;
  try {
    body = await served.response!.body.json();
  } catch {
    throw new AppError('upstream_error', `${served.candidate.endpoint.provider.id} answered the embeddings request with a body that is not JSON`, { provider: served.candidate.endpoint.provider.id });
  }
  const result = converter.convertResponse(body);
  if (result.embeddings.length !== expected) {
    throw new AppError('upstream_error', `${served.candidate.endpoint.provider.id} returned ${result.embeddings.length} embeddings for ${expected} inputs`, { provider: served.candidate.endpoint.provider.id });
  }
  return result;
}

interface EmbeddingsOutcome {
  promptTokens: number;
  costMicros: bigint;
  unbilledMicros: bigint;
  status: 'SUCCESS' | 'ERROR' | 'ABORTED' | 'REFUSED';
  /** Upstream requests made, in order, the serving one last. */
  attempts: AttemptRecord[];
  error?: { code: string; message: string };
}

function settlementFor(a: EmbeddingsAdmission, served: ServedRoute | undefined, requestId: string, started: number, o: EmbeddingsOutcome): SettleInput {
  // Who served it; when no endpoint answered, the primary (what the client asked for).
  const { model, endpoint } = served?.candidate ?? a.route.candidates[0]!;
  return {
    generationId: a.generationId,
    accountId: a.principal.accountId,
    costMicros: o.costMicros,
    usage: {
      userId: a.principal.userId,
      apiKeyId: a.principal.apiKey?.id ?? null,
      authTokenId: a.principal.authTokenId ?? null,
      model: model.id,
      provider: endpoint.provider.id,
      upstreamModel: endpoint.upstreamModel,
      providerKey: served?.key?.id ?? null,
      attempts: o.attempts.length,
      attemptLog: attemptLog(o.attempts),
      upstreamId: null,
      promptTokens: o.promptTokens,
      completionTokens: 0,
      cachedTokens: 0,
      cacheWriteTokens: 0,
      reasoningTokens: 0,
      cacheSavingsMicros: 0n,
      unbilledMicros: o.unbilledMicros,
      byok: !!served?.key?.byok,
      latencyMs: Math.round(performance.now() - started),
      ttftMs: null,
      finishReason: o.status === 'SUCCESS' ? 'stop' : null,
      status: o.status,
      streamed: false,
      errorCode: o.error?.code ?? null,
      errorMessage: o.error?.message ?? null,
      httpReferer: a.tracking.httpReferer ?? null,
      xTitle: a.tracking.xTitle ?? null,
      taskId: a.tracking.taskId ?? null,
      requestId,
    },
  };
}
