// The streaming path. Upstream bytes are parsed once (shared SSE parser), translated by the provider's
// converter, rendered in the client's wire format (wire-format.ts) and written as they arrive: each upstream
// read is handled synchronously ('data' events, pump-upstream-body.ts) and what its events render goes out in
// one write, never held for a later read; backpressure from a slow client pauses the upstream read. Every
// stream ends with the format's terminal events carrying usage, or its error events — never a silent cut.
//
// Response headers wait for the route to open (so a refusal before the first byte keeps its HTTP status,
// e.g. 429 with Retry-After) but at most `rt.streamHeadersAfterMs`: a client waiting on a slow upstream gets
// headers and keep-alives at once, and a failure after that is reported inside the stream.
import type { Readable } from 'node:stream';
import { AppError, errorReply, isAppError } from '@/server/errors';
import { createSseParser } from '@/server/providers/sse';
import { pumpUpstreamBody, STOP_READING } from './pump-upstream-body';
import type { AssistantMessage, MidStreamError, MidStreamErrorCode, NormalizedUsage, SseEvent, StreamConverter, StreamDelta } from '@/server/providers/types';
import type { Admission } from './admit';
import { maxOutputTokens } from './cost';
import { estimatePromptTokens, estimateTokensFromChars, measurePrompt } from '@/server/providers/estimate-tokens';
import { chargeFor, type GenerationOutcome } from './outcome';
import { OutputMeter } from './output-limit';
import { attemptsIn, openRoute, type AttemptRecord, type ServedRoute } from './open-route';
import { UpstreamHttpError } from './upstream-errors';
import type { Runtime } from '@/server/runtime/runtime';
import type { ChatTransport } from './transport';
import type { FinalAnswer, FinishDetails, RenderContext, WireFormat } from './wire-format';
import { choicesOf } from './choices';

/** @param commit settles the generation; called before its final usage is written (handle-chat.ts). */
export async function runStreaming(
  rt: Runtime,
  t: ChatTransport,
  format: WireFormat,
  a: Admission,
  requestId: string,
  started: number,
  commit: (o: GenerationOutcome) => void,
): Promise<GenerationOutcome> {
  // Upstream bytes (parsed here, chunk by chunk) or, for a local adapter, its events.
  let body: Readable | null = null;
  let events: AsyncIterable<SseEvent> | null = null;
  let earlyError: MidStreamError | null = null;
  let served: ServedRoute | null = null;
  let attempts: AttemptRecord[] = [];
  let headersSent = false;
  let lastWrite = Date.now();
  const write = (s: string) => {
    lastWrite = Date.now();
    return s === '' ? undefined : t.write(s);
  };
  const sendHeaders = (keepAlive: string) => {
    if (headersSent || t.signal.aborted) return;
    headersSent = true;
    t.startStream({ ...format.answerHeaders?.(requestId), 'x-request-id': requestId, 'x-generation-id': a.generationId });
    if (keepAlive) void write(keepAlive);
  };
  const opening = a.upstream ?? openRoute(rt, a.route, t.signal);
  // Once the headers are out, the wait for the route goes on being kept alive: one comment at the headers
  // alone leaves the connection idle for as long as the upstream takes, and proxies cut idle connections.
  let waiting: ReturnType<typeof setInterval> | undefined;
  const holdHeaders = setTimeout(() => {
    const keepAlive = format.stream(renderContext(a, requestId, a.route.candidates[0]!)).keepAlive;
    sendHeaders(keepAlive);
    waiting = setInterval(() => {
      if (Date.now() - lastWrite >= rt.streamKeepAliveMs) void write(keepAlive);
    }, Math.max(50, Math.floor(rt.streamKeepAliveMs / 2)));
  }, rt.streamHeadersAfterMs);
  try {
    served = await opening;
    attempts = served.attempts;
  } catch (err) {
    // Spec 8: an over-long input on a streaming chat request is reported as the mid-stream error code. The
    // native formats answer it as their APIs do, an HTTP 400 before any event (Anthropic's "prompt is too
    // long", which coding agents act on), unless the headers are already out. Any failure once the headers
    // are out can only be reported inside the stream.
    if (format.id === 'chat' && err instanceof UpstreamHttpError && err.failure.kind === 'context_length_exceeded') {
      earlyError = { code: 'context_length_exceeded', message: err.message };
      attempts = attemptsIn(err);
    } else if (headersSent && !t.signal.aborted) {
      earlyError = midStreamErrorOf(err);
      attempts = attemptsIn(err);
    } else throw err;
  } finally {
    clearTimeout(holdHeaders);
    clearInterval(waiting);
  }
  const candidate = served?.candidate ?? a.route.candidates[0]!;
  const endpoint = candidate.endpoint;
  const adapter = endpoint.provider.adapter;
  const converter: StreamConverter = adapter.createStreamConverter(served?.ctx ?? a.route.first!.ctx);
  if (served?.response) body = served.response.body;
  else if (served && adapter.local) events = adapter.local.stream(a.req, t.signal);

  const ctx = renderContext(a, requestId, candidate);
  const render = format.stream(ctx);
  sendHeaders('');
  await write(render.start());
  const keepAliveMs = rt.streamKeepAliveMs;
  const keepAlive = setInterval(() => {
    if (Date.now() - lastWrite >= keepAliveMs) void write(render.keepAlive);
  }, Math.max(50, Math.floor(keepAliveMs / 2)));

  // The whole answer, only for a format that keeps it (the Responses API's `store`).
  const answer: AssistantMessage | null = format.beforeFinal ? { role: 'assistant', content: null } : null;
  const exclude = !!a.req.reasoning?.exclude;
  let outputChars = 0;
  let ttftMs: number | undefined;
  let failure: MidStreamError | null = earlyError;
  // Output past the limit the reservation was computed for is not read (output-limit.ts): the limit of
  // each choice, for all of them together (n > 1).
  const choices = choicesOf(a.req);
  const meter = new OutputMeter(maxOutputTokens(a.req, endpoint) * choices);
  /**
   * What the events of one upstream read rendered, written with one write once the read is handled (never
   * held back for a later read): one syscall per read rather than per delta.
   */
  let out = '';
  /** Converts one event and adds what it renders to `out`. */
  const emit = (ev: SseEvent): void => {
    for (const d of converter.push(ev)) {
      // Counted before hidden reasoning is stripped: it is output the upstream bills all the same.
      const generated = deltaChars(d);
      if ((generated > 0 || d.tool_calls) && !meter.add(generated, converter.usage?.completionTokens)) break;
      if (exclude) stripReasoning(d);
      const n = deltaChars(d);
      if (n === 0 && !d.tool_calls && !d.reasoning_details && !d.logprobs) continue;
      outputChars += n;
      ttftMs ??= Math.round(performance.now() - started);
      if (answer && !d.choice) accumulate(answer, d);
      out += render.delta(d);
    }
  };
  /** Writes what `out` holds; a promise only when the client is not keeping up (backpressure). */
  const flush = (): Promise<void> | void => {
    if (out === '') return undefined;
    const text = out;
    out = '';
    return write(text);
  };
  try {
    if (body) {
      // Each chunk is parsed, converted and written synchronously as it arrives ('data' events, no promise
      // per chunk); a slow client pauses the upstream read until it drains.
      const parser = adapter.createStreamParser?.() ?? createSseParser();
      await pumpUpstreamBody(body, (chunk) => {
        const parsed = parser.push(chunk);
        for (let i = 0; i < parsed.length && !meter.exceeded; i++) emit(parsed[i]!);
        const written = flush();
        // Stopping destroys the upstream body: the provider sees the connection close.
        return t.signal.aborted || meter.exceeded ? STOP_READING : written;
      });
      if (!t.signal.aborted && !meter.exceeded) for (const ev of parser.end()) emit(ev);
      await flush();
    } else if (events) {
      for await (const ev of events) {
        emit(ev);
        const p = flush();
        if (p) await p;
        if (t.signal.aborted || meter.exceeded) break;
      }
    }
  } catch (err) {
    if (!t.signal.aborted) failure = { code: 'server_error', message: `The provider (${endpoint.provider.id}) stream failed: ${(err as Error).message ?? 'connection lost'}` };
  } finally {
    clearInterval(keepAlive);
  }

  const aborted = t.signal.aborted;
  failure ??= converter.error;
  const cut = meter.exceeded && !failure;
  if (!failure && !aborted && !cut && !converter.done && !converter.finishReason) {
    failure = { code: 'server_error', message: `The provider (${endpoint.provider.id}) closed the stream before finishing` };
  }
  let usage = completeUsage(converter.usage, a, outputChars);
  let upstreamUsage: NormalizedUsage | undefined;
  if (cut) {
    // Finished as an upstream honouring the limit would have: `length`, the limit's worth of output billed.
    if (usage.completionTokens > meter.limit) upstreamUsage = usage;
    usage = { ...usage, completionTokens: meter.limit, reasoningTokens: Math.min(usage.reasoningTokens, meter.limit) };
  }
  const finishReason = cut ? 'length' : converter.finishReason ?? 'stop';
  const outcome: GenerationOutcome = {
    usage,
    upstreamUsage,
    produced: outputChars > 0,
    // A stream the client left before the upstream finished it has no finish reason (as a non-streamed one).
    finishReason: failure ? 'error' : aborted && !cut && !converter.finishReason ? null : finishReason,
    status: aborted ? 'ABORTED' : failure ? 'ERROR' : 'SUCCESS',
    error: failure ?? undefined,
    ttftMs,
    upstreamId: converter.upstreamId ?? undefined,
    streamed: true,
    served: served ?? undefined,
    attempts,
  };
  if (!aborted) {
    commit(outcome); // journaled before the client can see usage.cost
    const final = { usage, costMicros: chargeFor(endpoint, outcome, a.reservedMicros).costMicros };
    const stopSequence = finishReason === 'stop' && !cut ? converter.stopSequence ?? undefined : undefined;
    const details: FinishDetails = { stopSequence };
    if (choices > 1) {
      // A choice whose end the upstream did not tell (a cut stream) ends as the stream did.
      details.otherChoices = Array.from({ length: choices - 1 }, (_, i) => ({ index: i + 1, finishReason: cut ? 'length' : (converter.otherFinishReasons?.get(i + 1) ?? finishReason) }));
    }
    if (answer) {
      const full: FinalAnswer = { ...final, message: answer, finishReason: failure ? 'error' : finishReason, stopSequence, error: failure ?? undefined };
      await format.beforeFinal!(ctx, a.principal, full).catch((err: unknown) => void errorReply(err, requestId, 'keeping the answer'));
    }
    await write(failure ? render.error(failure, final, { provider: endpoint.provider.id, request_id: requestId }) : render.finish(finishReason, final, details));
    t.end();
  }
  return outcome;
}

function renderContext(a: Admission, requestId: string, candidate: Admission['route']['candidates'][number]): RenderContext {
  return { generationId: a.generationId, requestId, model: candidate.model.id, provider: candidate.endpoint.provider.id, req: a.req, created: Math.floor(Date.now() / 1000) };
}

/** A failure to open the route after the headers went out, as the stream's error (the provider's own words kept). */
function midStreamErrorOf(err: unknown): MidStreamError {
  if (err instanceof UpstreamHttpError) {
    const code: MidStreamErrorCode = err.failure.kind === 'rate_limited' ? 'rate_limit' : err.failure.kind === 'context_length_exceeded' ? 'context_length_exceeded' : 'server_error';
    return { code, message: err.message };
  }
  if (isAppError(err)) return { code: err.code === 'rate_limited' ? 'rate_limit' : 'server_error', message: err.message };
  return { code: 'server_error', message: new AppError('upstream_error', 'The provider could not be reached').message };
}

/** Appends a delta to the whole answer (tool-call fragments joined by index, as a client would). */
function accumulate(m: AssistantMessage, d: StreamDelta): void {
  if (d.content) m.content = (m.content ?? '') + d.content;
  if (d.reasoning) m.reasoning = (m.reasoning ?? '') + d.reasoning;
  if (d.reasoning_details) (m.reasoning_details ??= []).push(...d.reasoning_details);
  for (const c of d.tool_calls ?? []) {
    const calls = (m.tool_calls ??= []);
    const at = calls[c.index];
    if (!at) calls[c.index] = { id: c.id ?? '', type: 'function', function: { name: c.function.name ?? '', arguments: c.function.arguments ?? '' } };
    else {
      if (c.function.name && !at.function.name) at.function.name = c.function.name;
      at.function.arguments += c.function.arguments ?? '';
    }
  }
}

function stripReasoning(d: StreamDelta): void {
  delete d.reasoning;
  delete d.reasoning_details;
}

function deltaChars(d: StreamDelta): number {
  let n = (d.content?.length ?? 0) + (d.reasoning?.length ?? 0);
  if (d.tool_calls) for (const c of d.tool_calls) n += (c.function.arguments?.length ?? 0) + (c.function.name?.length ?? 0);
  return n;
}

/**
 * Usage for billing when the upstream did not (fully) report it: a stream cut, an abort, an error.
 * We then charge what we can see was generated (≈4 characters per token) and the prompt estimate.
 */
function completeUsage(reported: NormalizedUsage | null, a: Admission, outputChars: number): NormalizedUsage {
  const seenCompletion = estimateTokensFromChars(outputChars);
  if (!reported) return { promptTokens: estimatePromptTokens(measurePrompt(a.req.messages)), completionTokens: seenCompletion, cachedTokens: 0, cacheWriteTokens: 0, reasoningTokens: 0 };
  return reported.completionTokens >= seenCompletion ? reported : { ...reported, completionTokens: seenCompletion };
}
