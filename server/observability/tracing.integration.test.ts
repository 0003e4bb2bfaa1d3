// Traces end to end: the real OTLP/HTTP exporter posts to a local receiver; a client sends `traceparent`
// through the gateway's real HTTP interface; the first endpoint answers 503 and the request fails over to
// the second. The receiver must get the server span as the child of the client's span (same trace id), one
// client span per upstream attempt under it, and each upstream request must carry its attempt's span id.
// Without an endpoint there is no tracer and no `traceparent` goes upstream.
import { isSpanContextValid, trace } from '@opentelemetry/api';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { createRuntime } from '@/server/runtime/runtime';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { spanAttribute, startOtlpReceiver, type OtlpReceiver, type OtlpSpan } from '@/test/otlp-receiver';
import { tracingOptionsFromEnv } from './tracing';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const CLIENT_SPAN_ID = '00f067aa0ba902b7';
/** The upstream's pause between stream chunks: the request span must last the whole stream. */
const CHUNK_DELAY_MS = 40;

describeEachDatabase('traces (OpenTelemetry, OTLP/HTTP)', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let h: GatewayHarness;
  let key: string;
  let calls = 0;

  const config = (): RoutingFileInput => ({
    providers: ['first', 'second'].map((id) => ({ id, type: 'openai-compatible' as const, base_url: `${upstream.url}/v1`, keys: [{ key: `sk-${id}-SECRET`, id: `${id}-key` }] })),
    models: [{ id: 'test/traced', name: 'traced', context_length: 100_000, max_output_tokens: 1_000, endpoints: ['first', 'second'].map((provider) => ({ provider, upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } })) }],
  });

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    // Fails the first request (503: the next endpoint is tried), answers every later one.
    upstream = await startFakeUpstream((req) =>
      calls++ === 0
        ? { status: 503, json: { error: { message: 'overloaded' } } }
        : (req.body as { stream?: boolean }).stream
          ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt'), delayMs: CHUNK_DELAY_MS }
          : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) },
    );
    h = await startGatewayHarness({ routing: { config: config(), database: false }, tracing: { tracesUrl: `${receiver.url}/v1/traces`, serviceName: 'switchboard-test' } });
    key = (await fundedUser(10)).key;
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
    await receiver?.close();
  });
  afterEach(() => {
    calls = 0;
    upstream.requests.length = 0;
    receiver.spans.length = 0;
  });

  /** Flushes until the server span (ended when the response closed, just after the client read it) has arrived. */
  const spansOfTrace = async (traceId: string) => {
    for (let i = 0; i < 50; i++) {
      await h.runtime.tracing!.forceFlush();
      const mine = receiver.spans.filter((s) => s.traceId === traceId);
      if (mine.some((s) => s.kind === 2)) return mine;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no server span for trace ${traceId}; spans received: ${receiver.spans.map((s) => s.name).join(', ')}`);
  };

  it("a streamed request: server span under the client's span, one child per attempt, each upstream request carrying its attempt's traceparent", async () => {
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`, tracestate: 'vendor=abc' },
      body: JSON.stringify({ model: 'test/traced', stream: true, messages: [{ role: 'user', content: 'a prompt that must not be traced' }] }),
    });
    expect(res.status).toBe(200);
    const { done } = await readSse(res);
    expect(done).toBe(true);

    const spans = await spansOfTrace(TRACE_ID);
    expect(new Set(receiver.contentTypes)).toEqual(new Set(['application/json']));
    const server = spans.find((s) => s.kind === 2)!; // SERVER
    expect(server.parentSpanId).toBe(CLIENT_SPAN_ID);
    expect(server.name).toBe('POST /api/v1/chat/completions');
    expect(spanAttribute(server, 'http.request.method')).toBe('POST');
    expect(spanAttribute(server, 'url.path')).toBe('/api/v1/chat/completions');
    expect(spanAttribute(server, 'http.response.status_code')).toBe(200);
    expect(spanAttribute(server, 'switchboard.model')).toBe('test/traced');
    expect(spanAttribute(server, 'switchboard.provider')).toBe('second');
    expect(spanAttribute(server, 'switchboard.generation_id')).toMatch(/^gen-/);
    expect(spanAttribute(server, 'switchboard.account_id')).toEqual(expect.any(String));
    expect(spanAttribute(server, 'switchboard.attempts')).toBe(2);
    expect(Number(spanAttribute(server, 'switchboard.ttft_ms'))).toBeGreaterThanOrEqual(0);
    expect(server.events?.map((e) => e.name)).toContain('first token');

    const attempts = spans.filter((s) => s.kind === 3).sort((a, b) => Number(spanAttribute(a, 'switchboard.attempt')) - Number(spanAttribute(b, 'switchboard.attempt'))); // CLIENT
    expect(attempts).toHaveLength(2);
    for (const a of attempts) expect(a.parentSpanId).toBe(server.spanId);
    expect(attempts.map((a) => [spanAttribute(a, 'switchboard.provider'), spanAttribute(a, 'switchboard.provider_key'), spanAttribute(a, 'http.response.status_code'), spanAttribute(a, 'switchboard.failover_reason')])).toEqual([
      ['first', 'first-key', 503, 'overloaded'],
      ['second', 'second-key', 200, undefined],
    ]);
    // The stream's span lasts the whole stream (the chunks came CHUNK_DELAY_MS apart), and ends with the serving
    // attempt's (each span keeps its own clock anchor, so allow a few milliseconds between them).
    const ms = (s: OtlpSpan) => Number(BigInt(s.endTimeUnixNano) - BigInt(s.startTimeUnixNano)) / 1e6;
    expect(ms(server)).toBeGreaterThanOrEqual((fixtureChunks('openai', 'text.chunks.txt').length - 1) * CHUNK_DELAY_MS * 0.9);
    expect(Number(BigInt(server.endTimeUnixNano) - BigInt(attempts[1]!.endTimeUnixNano)) / 1e6).toBeGreaterThan(-5);

    // Each upstream request carried the traceparent of its own attempt span (and the client's tracestate).
    expect(upstream.requests).toHaveLength(2);
    upstream.requests.forEach((r, i) => {
      expect(r.headers.traceparent).toBe(`00-${TRACE_ID}-${attempts[i]!.spanId}-01`);
      expect(r.headers.tracestate).toBe('vendor=abc');
    });

    // Ids and names only: neither the prompt nor any key is in what was exported.
    const exported = JSON.stringify(spans);
    expect(exported).not.toContain('must not be traced');
    expect(exported).not.toContain('SECRET');
    expect(exported).not.toContain(key);
  });

  it('without a client traceparent the server span starts a trace of its own (non-streaming)', async () => {
    calls = 1; // no failure this time
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ model: 'test/traced', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const sent = upstream.requests[0]!.headers.traceparent as string;
    const [, traceId, attemptSpanId] = sent.split('-');
    const spans = await spansOfTrace(traceId!);
    const server = spans.find((s) => s.kind === 2)!;
    expect(server.parentSpanId ?? '').toBe('');
    expect(spans.filter((s) => s.kind === 3).map((s) => [s.spanId, s.parentSpanId])).toEqual([[attemptSpanId, server.spanId]]);
  });
});

describe('traces off', () => {
  it('with no OTLP endpoint (or OTEL_SDK_DISABLED) there are no tracing options', () => {
    expect(tracingOptionsFromEnv(parseEnv({}))).toBeNull();
    expect(tracingOptionsFromEnv(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318', OTEL_SDK_DISABLED: 'true' }))).toBeNull();
    expect(tracingOptionsFromEnv(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' }))).toMatchObject({ tracesUrl: 'http://collector:4318/v1/traces', serviceName: 'switchboard', sampler: 'parentbased_always_on' });
    expect(tracingOptionsFromEnv(parseEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://a:4318', OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://b:4318/traces', OTEL_SERVICE_NAME: 'gw' }))).toMatchObject({ tracesUrl: 'http://b:4318/traces', serviceName: 'gw' });
    expect(() => parseEnv({ OTEL_TRACES_SAMPLER: 'sometimes' })).toThrow(/OTEL_TRACES_SAMPLER/);
    expect(() => parseEnv({ OTEL_TRACES_SAMPLER_ARG: '2' })).toThrow(/OTEL_TRACES_SAMPLER_ARG/);
  });

  it('a runtime without tracing options has no tracer, and none is ever registered globally', async () => {
    const rt = createRuntime({ routing: { database: false } });
    expect(rt.tracing).toBeNull();
    await rt.close();
    // This file's traced runtimes ran before: OpenTelemetry's global API still hands out no-op spans.
    const span = trace.getTracer('probe').startSpan('probe');
    expect(span.isRecording()).toBe(false);
    expect(isSpanContextValid(span.spanContext())).toBe(false);
  });
});

describeEachDatabase('traces off: the chat path', () => {
  let upstream: FakeUpstream;
  let h: GatewayHarness;
  beforeAll(async () => {
    upstream = await startFakeUpstream(() => ({ status: 200, json: JSON.parse(readFixture('openai', 'text.json')) }));
    h = await startGatewayHarness({
      routing: { config: { providers: [{ id: 'only', type: 'openai-compatible', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-only' }] }], models: [{ id: 'test/untraced', name: 'untraced', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'only', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } }] }] }, database: false },
    });
  });
  afterAll(async () => {
    await h?.close();
    await upstream?.close();
  });

  it('creates no span: the client traceparent is not passed on, none is made up', async () => {
    const { key } = await fundedUser(10);
    expect(h.runtime.tracing).toBeNull();
    const res = await fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, traceparent: `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01` },
      body: JSON.stringify({ model: 'test/untraced', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.headers.traceparent).toBeUndefined();
  });
});
