// GET /metrics after real gateway requests (the echo model priced at $1/M in and out by
// test/fixtures/priced-echo.yaml, and OpenAI's adapter against the fake upstream): the counters match the
// requests made, and METRICS_TOKEN protects the endpoint.
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

/** The value of one sample in Prometheus's text format (labels in any order), or undefined. */
export function sampleValue(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  for (const line of text.split('\n')) {
    if (!line.startsWith(name + '{') && !line.startsWith(name + ' ')) continue;
    const m = /^([^{ ]+)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const got = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => got[k] === v) && Object.keys(got).length === Object.keys(labels).length) return Number(m[3]);
  }
  return undefined;
}

describeEachDatabase('GET /metrics', () => {
  let h: GatewayHarness;
  let u: Awaited<ReturnType<typeof fundedUser>>;

  beforeAll(async () => {
    h = await startGatewayHarness({ processMetrics: true });
    u = await fundedUser(10);
  });
  afterAll(() => h?.close());
  afterEach(() => {
    delete process.env.METRICS_TOKEN;
    resetEnvCache();
  });

  const chat = (body: Record<string, unknown>, key = u.key) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify(body) });
  const scrape = async () => {
    const res = await fetch(`${h.origin}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    return res.text();
  };

  it('counts requests, tokens, cost and durations per model as the generations are settled', async () => {
    const echo = { model: 'switchboard/echo', messages: [{ role: 'user', content: 'count these words please' }] };
    let prompt = 0;
    let completion = 0;
    for (let i = 0; i < 3; i++) {
      const body = await (await chat({ ...echo, stream: false })).json();
      prompt += body.usage.prompt_tokens;
      completion += body.usage.completion_tokens;
    }
    const streamed = await chat({ ...echo, stream: true, stream_options: { include_usage: true } });
    expect(streamed.status).toBe(200);
    const raw = await streamed.text();
    const usage = raw
      .split('\n')
      .filter((l) => l.startsWith('data: {'))
      .map((l) => JSON.parse(l.slice(6)))
      .find((c) => c.usage)!.usage;
    prompt += usage.prompt_tokens;
    completion += usage.completion_tokens;
    // Refused at admission: a key that does not exist (401) and a missing model (400).
    expect((await chat(echo, 'sk-sb-v1-' + 'x'.repeat(40))).status).toBe(401);
    expect((await chat({ messages: echo.messages })).status).toBe(400);

    const text = await scrape();
    const model = 'switchboard/echo';
    expect(sampleValue(text, 'switchboard_requests_total', { model, provider: 'echo', status: '200' })).toBe(4);
    expect(sampleValue(text, 'switchboard_requests_total', { model: '', provider: '', status: '401' })).toBe(1);
    expect(sampleValue(text, 'switchboard_requests_total', { model: '', provider: '', status: '400' })).toBe(1);
    expect(sampleValue(text, 'switchboard_request_duration_seconds_count', { model, provider: 'echo', stream: 'false' })).toBe(3);
    expect(sampleValue(text, 'switchboard_request_duration_seconds_count', { model, provider: 'echo', stream: 'true' })).toBe(1);
    expect(sampleValue(text, 'switchboard_ttft_seconds_count', { model, provider: 'echo' })).toBe(1);
    expect(prompt).toBeGreaterThan(0);
    expect(sampleValue(text, 'switchboard_tokens_total', { model, type: 'prompt' })).toBe(prompt);
    expect(sampleValue(text, 'switchboard_tokens_total', { model, type: 'completion' })).toBe(completion);
    // $1 per million tokens in and out.
    expect(sampleValue(text, 'switchboard_cost_usd_total', { model })).toBeCloseTo((prompt + completion) / 1e6, 12);
    expect(sampleValue(text, 'switchboard_settlement_queue_depth')).toBeGreaterThanOrEqual(0);
    // prom-client's process metrics.
    expect(text).toMatch(/^process_cpu_user_seconds_total \d/m);
    expect(text).toMatch(/^nodejs_eventloop_lag_seconds /m);
  });

  it('counts each failed upstream attempt by provider and status, and shows a cooling key as unhealthy', async () => {
    const key = { provider: 'openai', key: 'OPENAI_API_KEY' };
    const before = await scrape();
    expect(sampleValue(before, 'switchboard_upstream_key_healthy', key)).toBe(1);

    h.respond = () => ({ status: 500, json: { error: { message: 'boom', type: 'server_error' } } });
    const failed = await chat({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(failed.status).toBe(502);
    const attempts = (await failed.json()).error.metadata.attempts as { provider: string; status: number }[];
    expect(attempts.length).toBeGreaterThan(1);

    h.respond = () => ({ status: 429, headers: { 'retry-after': '60' }, json: { error: { message: 'slow down', type: 'rate_limit' } } });
    const limited = await chat({ model: 'openai/gpt-4o-mini', messages: [{ role: 'user', content: 'hi' }] });
    expect(limited.status).toBeGreaterThanOrEqual(429);

    const text = await scrape();
    expect(sampleValue(text, 'switchboard_upstream_errors_total', { provider: 'openai', code: '500' })).toBe(attempts.filter((a) => a.status === 500).length);
    expect(sampleValue(text, 'switchboard_upstream_errors_total', { provider: 'openai', code: '429' })).toBe(1);
    expect(sampleValue(text, 'switchboard_requests_total', { model: 'openai/gpt-4o-mini', provider: 'openai', status: '502' })).toBe(1);
    expect(sampleValue(text, 'switchboard_upstream_key_healthy', key)).toBe(0);
  });

  it('wants Authorization: Bearer $METRICS_TOKEN when it is set', async () => {
    process.env.METRICS_TOKEN = 'metrics-token-for-tests';
    resetEnvCache();
    const get = (authorization?: string) => fetch(`${h.origin}/metrics`, { headers: authorization ? { authorization } : {} });
    const none = await get();
    expect(none.status).toBe(401);
    expect((await none.json()).error.metadata.error_type).toBe('unauthorized');
    expect((await get('Bearer wrong-token')).status).toBe(401);
    expect((await get('Bearer metrics-token-for-tests-and-more')).status).toBe(401);
    expect((await get('metrics-token-for-tests')).status).toBe(401);
    const ok = await get('Bearer metrics-token-for-tests');
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('# TYPE switchboard_requests_total counter');
    // The scheme is case-insensitive (RFC 7235 §2.1), as for every other Bearer credential (authenticate-bearer.ts).
    for (const scheme of ['bearer', 'BEARER', 'bEaReR']) expect((await get(`${scheme} metrics-token-for-tests`)).status, scheme).toBe(200);
    expect((await get('bearer wrong-token')).status).toBe(401);
    expect((await get('Basic metrics-token-for-tests')).status).toBe(401);
    expect((await fetch(`${h.origin}/metrics`, { method: 'POST', headers: { authorization: 'Bearer metrics-token-for-tests' } })).status).toBe(405);
  });

  it('records nothing and answers 404 with metrics off (METRICS_ENABLED=0)', async () => {
    const rt = await h.renewRuntime({ metrics: false });
    expect(rt.metrics.enabled).toBe(false);
    const res = await chat({ model: 'switchboard/echo', messages: [{ role: 'user', content: 'hi' }] });
    expect(res.status).toBe(200);
    await res.arrayBuffer();
    await rt.settlements.drain();
    expect((await rt.metrics.registry.metrics()).trim()).toBe('');
    const scraped = await fetch(`${h.origin}/metrics`);
    expect(scraped.status).toBe(404);
    expect((await scraped.json()).error.metadata.error_type).toBe('not_found');
    await h.renewRuntime({ processMetrics: true });
  });
});
