// Traces for what the node:http fast path does not serve: the generations Next's route handlers answer (the
// console playground's chat in production; every route under `next dev`) and Anthropic's count_tokens on
// both edges. The test server does, per request, what server/main.ts does (traceRequest, then for what goes
// to Next the internal request id and lendRequestTrace) and calls the real app/api route handlers; a second
// one calls them bare, as `next dev` does. For each path, through HTTP with a client `traceparent`: the
// server span is the child of the client's span, the upstream call's span the child of the server span, and
// the fake upstream got the `traceparent` of that attempt span.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { encode } from 'next-auth/jwt';
import { NextRequest } from 'next/server';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { POST as consoleChat } from '@/app/api/console/chat/route';
import { POST as countTokensRoute } from '@/app/api/v1/messages/count_tokens/route';
import { POST as chatCompletionsRoute } from '@/app/api/v1/chat/completions/route';
import { POST as messagesRoute } from '@/app/api/v1/messages/route';
import { createBrowserSession } from '@/server/auth/browser-sessions/create-browser-session';
import { resetEnvCache } from '@/server/env';
import { COUNT_TOKENS_PATH, handleCountTokensNode } from '@/server/formats/anthropic-messages/handle-count-tokens';
import { newRequestId, REQUEST_ID_HEADER } from '@/server/http/request-id';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { createRuntime, type Runtime } from '@/server/runtime/runtime';
import { describeEachDatabase } from '@/test/db';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeUpstream } from '@/test/fake-upstream';
import { fundedUser, readSse } from '@/test/gateway-harness';
import { CLIENT_KIND, SERVER_KIND, spanAttribute, startOtlpReceiver, type OtlpReceiver } from '@/test/otlp-receiver';
import { lendRequestTrace, routeHandlerTrace, traceRequest } from './request-trace';

const CLIENT_SPAN_ID = '0ba902b700f067aa';
/** Each test's own trace (a span of an earlier test may still be on its way to the receiver). */
let TRACE_ID = '';
let TRACEPARENT = '';
beforeEach(() => {
  TRACE_ID = randomBytes(16).toString('hex');
  TRACEPARENT = `00-${TRACE_ID}-${CLIENT_SPAN_ID}-01`;
});
const AUTH_SECRET = 'tracing-route-handlers-secret-0123456789abcdef';
const SESSION_COOKIE = 'authjs.session-token';
const RUNTIME_SLOT = Symbol.for('switchboard.runtime');

type RouteHandler = (request: Request) => Promise<Response> | Response;
const ROUTES: Record<string, RouteHandler> = {
  '/api/console/chat': consoleChat,
  '/api/v1/chat/completions': chatCompletionsRoute,
  '/api/v1/messages': messagesRoute,
  [COUNT_TOKENS_PATH]: countTokensRoute,
};

/**
 * Serves the route handlers above. `production`: as server/main.ts (its server span, lent to the handler;
 * count_tokens on its node:http fast path unless `x-test-via-next` asks for Next's handler). `next-dev`: the
 * handler alone, which then starts the span itself.
 */
async function serve(rt: Runtime, mode: 'production' | 'next-dev') {
  const server = http.createServer(async (req, res) => {
    const pathname = new URL(req.url ?? '/', 'http://x').pathname;
    if (mode === 'production') {
      const trace = rt.tracing ? traceRequest(rt.tracing, req, res) : undefined;
      if (pathname === COUNT_TOKENS_PATH && !req.headers['x-test-via-next']) {
        trace?.route(pathname, 'POST');
        return void handleCountTokensNode(rt, req, res);
      }
      const requestId = newRequestId();
      req.headers[REQUEST_ID_HEADER] = requestId;
      res.setHeader('x-request-id', requestId);
      if (trace) lendRequestTrace(res, requestId);
    }
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const headers = new Headers();
    for (const [k, v] of Object.entries(req.headers)) if (typeof v === 'string') headers.set(k, v);
    const response = await ROUTES[pathname]!(new NextRequest(`http://${req.headers.host}${req.url}`, { method: 'POST', headers, body: Buffer.concat(chunks) }));
    const out: Record<string, string> = {};
    response.headers.forEach((v, k) => (out[k] = v));
    res.writeHead(response.status, out);
    // Streamed as it comes: a stream's span must not end before its last chunk.
    if (response.body) for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk);
    res.end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => {
      server.closeAllConnections();
      return new Promise((r) => server.close(r));
    },
  };
}

describeEachDatabase('traces through route handlers and count_tokens', () => {
  let receiver: OtlpReceiver;
  let upstream: FakeUpstream;
  let rt: Runtime;
  let production: Awaited<ReturnType<typeof serve>>;
  let nextDev: Awaited<ReturnType<typeof serve>>;
  let key: string;
  let sessionCookie: string;
  const savedEnv = { ...process.env };

  const config = (): RoutingFileInput => ({
    providers: [
      { id: 'compat', type: 'openai-compatible', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-compat-SECRET', id: 'compat-key' }] },
      { id: 'claude', type: 'anthropic', base_url: upstream.url, keys: [{ key: 'sk-ant-SECRET', id: 'claude-key' }] },
    ],
    models: [
      { id: 'test/traced', name: 'traced', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'compat', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } }] },
      { id: 'test/claude', name: 'claude', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'claude', upstream_model: 'claude-sonnet-4-5', pricing: { input: 1, output: 2 } }] },
    ],
  });

  beforeAll(async () => {
    Object.assign(process.env, { AUTH_SECRET });
    resetEnvCache();
    receiver = await startOtlpReceiver();
    upstream = await startFakeUpstream((req) => {
      if (req.path.endsWith('/messages/count_tokens')) return { status: 200, json: { input_tokens: 42 } };
      return (req.body as { stream?: boolean }).stream
        ? { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks('openai', 'text.chunks.txt') }
        : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) };
    });
    rt = createRuntime({ routing: { config: config(), database: false }, rateLimitRpm: 100_000, tracing: { tracesUrl: `${receiver.url}/v1/traces`, serviceName: 'switchboard-test' } });
    // The route handlers take the process's runtime (processRuntime()): this one.
    (globalThis as Record<symbol, unknown>)[RUNTIME_SLOT] = rt;
    production = await serve(rt, 'production');
    nextDev = await serve(rt, 'next-dev');
    // next-auth trusts the configured public URL's host (the playground's session cookie is read there).
    process.env.PUBLIC_URL = production.origin;
    resetEnvCache();
    const funded = await fundedUser(10);
    key = funded.key;
    const session = await createBrowserSession({ userId: funded.user.id });
    sessionCookie = `${SESSION_COOKIE}=${await encode({ token: { uid: funded.user.id, sub: funded.user.id, sid: session.id }, secret: AUTH_SECRET, salt: SESSION_COOKIE })}`;
  });
  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[RUNTIME_SLOT];
    await production?.close();
    await nextDev?.close();
    await rt?.close();
    await upstream?.close();
    await receiver?.close();
    for (const k of Object.keys(process.env)) if (!(k in savedEnv)) delete process.env[k];
    resetEnvCache();
  });
  afterEach(() => {
    upstream.requests.length = 0;
    receiver.spans.length = 0;
  });

  /** Flushes until the server span has arrived (it ends when the response closes, after the client read it). */
  const spansOfTrace = async () => {
    for (let i = 0; i < 50; i++) {
      await rt.tracing!.forceFlush();
      const mine = receiver.spans.filter((s) => s.traceId === TRACE_ID);
      if (mine.some((s) => s.kind === SERVER_KIND)) return mine;
      await new Promise((r) => setTimeout(r, 20));
    }
    throw new Error(`no server span; spans received: ${receiver.spans.map((s) => s.name).join(', ')}`);
  };

  /** One server span under the client's, one attempt span under it, and the upstream got that attempt's traceparent. */
  const expectTraced = async (route: string, status: number) => {
    const spans = await spansOfTrace();
    const servers = spans.filter((s) => s.kind === SERVER_KIND);
    expect(servers).toHaveLength(1); // the production server's span is reused, not doubled by the handler
    const server = servers[0]!;
    expect(server.parentSpanId).toBe(CLIENT_SPAN_ID);
    expect(server.name).toBe(`POST ${route}`);
    expect(spanAttribute(server, 'http.route')).toBe(route);
    expect(spanAttribute(server, 'http.response.status_code')).toBe(status);
    const attempts = spans.filter((s) => s.kind === CLIENT_KIND);
    expect(attempts).toHaveLength(1);
    expect(attempts[0]!.parentSpanId).toBe(server.spanId);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]!.headers.traceparent).toBe(`00-${TRACE_ID}-${attempts[0]!.spanId}-01`);
    const exported = JSON.stringify(spans);
    expect(exported).not.toContain('SECRET');
    expect(exported).not.toContain(key);
    return { server, attempt: attempts[0]! };
  };

  const post = (origin: string, path: string, body: unknown, headers: Record<string, string> = {}) =>
    fetch(`${origin}${path}`, { method: 'POST', headers: { 'content-type': 'application/json', traceparent: TRACEPARENT, ...headers }, body: JSON.stringify(body) });

  it("the console playground's chat (a route handler in production): server span and attempt span, streamed", async () => {
    const res = await post(production.origin, '/api/console/chat', { model: 'test/traced', stream: true, messages: [{ role: 'user', content: 'a prompt that must not be traced' }] }, { cookie: sessionCookie });
    expect(res.status).toBe(200);
    expect((await readSse(res)).done).toBe(true);
    const { server, attempt } = await expectTraced('/api/console/chat', 200);
    expect(spanAttribute(server, 'switchboard.model')).toBe('test/traced');
    expect(spanAttribute(server, 'switchboard.generation_id')).toMatch(/^gen-/);
    expect(spanAttribute(attempt, 'switchboard.provider_key')).toBe('compat-key');
    expect(spanAttribute(attempt, 'http.response.status_code')).toBe(200);
    expect(JSON.stringify(receiver.spans)).not.toContain('must not be traced');
  });

  it('a generation route served by Next (chat completions, non-streaming)', async () => {
    const res = await post(production.origin, '/api/v1/chat/completions', { model: 'test/traced', messages: [{ role: 'user', content: 'hi' }] }, { authorization: `Bearer ${key}` });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    const { server } = await expectTraced('/api/v1/chat/completions', 200);
    expect(spanAttribute(server, 'switchboard.attempts')).toBe(1);
  });

  it("count_tokens on the production server's fast path: Anthropic's count is an attempt span carrying traceparent", async () => {
    const res = await post(production.origin, COUNT_TOKENS_PATH, { model: 'test/claude', messages: [{ role: 'user', content: 'count me' }] }, { 'x-api-key': key });
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ input_tokens: 42 });
    const { attempt } = await expectTraced(COUNT_TOKENS_PATH, 200);
    expect(upstream.requests[0]!.path).toBe('/v1/messages/count_tokens');
    expect([spanAttribute(attempt, 'switchboard.provider'), spanAttribute(attempt, 'switchboard.provider_key'), spanAttribute(attempt, 'url.full')]).toEqual(['claude', 'claude-key', `${upstream.url}/v1/messages/count_tokens`]);
  });

  it("count_tokens through Next's route handler", async () => {
    const res = await post(production.origin, COUNT_TOKENS_PATH, { model: 'test/claude', messages: [{ role: 'user', content: 'count me' }] }, { 'x-api-key': key, 'x-test-via-next': '1' });
    expect(res.status).toBe(200);
    await expectTraced(COUNT_TOKENS_PATH, 200);
  });

  it('`next dev` (no custom server): the route handler starts the server span itself, under the client span', async () => {
    const res = await post(nextDev.origin, '/api/v1/messages', { model: 'test/traced', max_tokens: 100, stream: true, messages: [{ role: 'user', content: 'hi' }] }, { 'x-api-key': key });
    expect(res.status).toBe(200);
    await res.text();
    const { server } = await expectTraced('/api/v1/messages', 200);
    expect(spanAttribute(server, 'switchboard.request_id')).toMatch(/^req_/);

  });

  it('`next dev`: count_tokens likewise', async () => {
    const res = await post(nextDev.origin, COUNT_TOKENS_PATH, { model: 'test/claude', messages: [{ role: 'user', content: 'count me' }] }, { 'x-api-key': key });
    expect(res.status).toBe(200);
    await expectTraced(COUNT_TOKENS_PATH, 200);
  });
});

describeEachDatabase('traces off: route handlers and count_tokens', () => {
  let upstream: FakeUpstream;
  let rt: Runtime;
  let production: Awaited<ReturnType<typeof serve>>;
  beforeAll(async () => {
    upstream = await startFakeUpstream((req) => (req.path.endsWith('/messages/count_tokens') ? { status: 200, json: { input_tokens: 7 } } : { status: 200, json: JSON.parse(readFixture('openai', 'text.json')) }));
    rt = createRuntime({
      routing: {
        config: {
          providers: [
            { id: 'compat', type: 'openai-compatible', base_url: `${upstream.url}/v1`, keys: [{ key: 'sk-compat' }] },
            { id: 'claude', type: 'anthropic', base_url: upstream.url, keys: [{ key: 'sk-ant' }] },
          ],
          models: [
            { id: 'test/untraced', name: 'untraced', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'compat', upstream_model: 'gpt-4o-mini', pricing: { input: 1, output: 2 } }] },
            { id: 'test/claude', name: 'claude', context_length: 100_000, max_output_tokens: 1_000, endpoints: [{ provider: 'claude', upstream_model: 'claude-sonnet-4-5', pricing: { input: 1, output: 2 } }] },
          ],
        },
        database: false,
      },
      rateLimitRpm: 100_000,
    });
    (globalThis as Record<symbol, unknown>)[RUNTIME_SLOT] = rt;
    production = await serve(rt, 'production');
  });
  afterAll(async () => {
    delete (globalThis as Record<symbol, unknown>)[RUNTIME_SLOT];
    await production?.close();
    await rt?.close();
    await upstream?.close();
  });

  it('no span, no traceparent upstream (the client one is not passed on), for Next-served chat and both count_tokens edges', async () => {
    expect(rt.tracing).toBeNull();
    const { key } = await fundedUser(10);
    const chat = await fetch(`${production.origin}/api/v1/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}`, traceparent: TRACEPARENT },
      body: JSON.stringify({ model: 'test/untraced', messages: [{ role: 'user', content: 'hi' }] }),
    });
    expect(chat.status).toBe(200);
    await chat.arrayBuffer();
    for (const viaNext of [false, true]) {
      const counted = await fetch(`${production.origin}${COUNT_TOKENS_PATH}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-api-key': key, traceparent: TRACEPARENT, ...(viaNext ? { 'x-test-via-next': '1' } : {}) },
        body: JSON.stringify({ model: 'test/claude', messages: [{ role: 'user', content: 'count me' }] }),
      });
      expect(await counted.json()).toEqual({ input_tokens: 7 });
    }
    expect(upstream.requests.map((r) => r.path)).toEqual(['/v1/chat/completions', '/v1/messages/count_tokens', '/v1/messages/count_tokens']);
    for (const r of upstream.requests) expect(r.headers.traceparent).toBeUndefined();
  });
});

describe('routeHandlerTrace with tracing off', () => {
  it('creates nothing: no span, whatever the request carries', () => {
    const request = new Request('http://localhost/api/v1/chat/completions', { method: 'POST', headers: { traceparent: TRACEPARENT, [REQUEST_ID_HEADER]: newRequestId() } });
    expect(routeHandlerTrace(null, request)).toBeUndefined();
  });
});
