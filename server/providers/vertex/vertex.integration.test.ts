// Gemini and Claude on Vertex AI through the whole gateway: a fake Google token endpoint that verifies the
// service account's signed JWT assertion and mints 60-second tokens, and a fake Vertex that refuses
// missing or expired tokens with 401 like Google. Text, tools, images and reasoning, streaming and not;
// three minutes of requests across several token expiries; concurrent requests sharing one refresh;
// failover from an endpoint whose key Google refuses.
import { generateKeyPairSync } from 'node:crypto';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { startFakeGoogleToken, type FakeGoogleToken, type FakeServiceAccount } from '@/test/fake-google-token';
import { fixtureChunks, readFixture, startFakeUpstream, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { startFakeVertex, type VertexCall } from '@/test/fake-vertex';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const CLAUDE = 'claude-sonnet-4-5@20250929';
const GEMINI = 'gemini-2.5-pro';

describeEachDatabase('vertex provider through the gateway', () => {
  let token: FakeGoogleToken;
  let vertex: FakeUpstream;
  let direct: FakeUpstream; // an OpenAI-compatible endpoint after Vertex, which takes image URLs
  let h: GatewayHarness;
  let key: string;
  let account: FakeServiceAccount;
  let scenario: string;
  const calls: VertexCall[] = [];

  // Answers from the adapters' recorded fixtures: Anthropic's for Claude, Gemini's for Gemini.
  const answer = (req: RecordedRequest, call: VertexCall): FakeResponse => {
    calls.push(call);
    if (scenario === 'not-enabled' && call.location === 'global') {
      // Vertex's answer for a model the project has not enabled in Model Garden (sometimes wrapped in an array).
      const error = { error: { code: 400, message: `Project \`acme-prod\` is not allowed to use Publisher Model \`projects/acme-prod/locations/global/publishers/${call.publisher}/models/${call.model}\``, status: 'FAILED_PRECONDITION' } };
      return { status: 400, json: call.publisher === 'anthropic' ? [error] : error };
    }
    if (scenario === 'disabled-api') {
      const message = 'Vertex AI API has not been used in project 123456789012 before or it is disabled. Enable it by visiting https://console.developers.google.com/apis/api/aiplatform.googleapis.com/overview?project=123456789012 then retry.';
      return { status: 400, json: { error: { code: 400, message: `${message} (projects/acme-prod)`, status: 'INVALID_ARGUMENT' } } };
    }
    const provider = call.publisher === 'anthropic' ? 'anthropic' : 'gemini';
    const fixture = scenario === 'not-enabled' ? 'text' : scenario;
    const name = call.publisher === 'anthropic' ? ({ tools: 'tool_use' } as Record<string, string>)[fixture] ?? fixture : ({ tools: 'function_call' } as Record<string, string>)[fixture] ?? fixture;
    if (call.action.startsWith('stream')) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks(provider, `${name}.chunks.txt`) };
    return { status: 200, json: JSON.parse(readFixture(provider, `${name}.json`)) };
  };

  const config = (): RoutingFileInput => {
    // A key whose private key is not the registered one: Google answers invalid_grant.
    const forged = { ...JSON.parse(account.json), private_key: generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString() };
    process.env.VERTEX_FORGED_KEY = JSON.stringify(forged);
    const model = (id: string, endpoints: { provider: string; upstream: string }[]) => ({
      id,
      name: id,
      context_length: 200_000,
      max_output_tokens: 8_000,
      supports_reasoning: true,
      supports_images: true,
      endpoints: endpoints.map((e) => ({ provider: e.provider, upstream_model: e.upstream, pricing: { input: 3, output: 15 } })),
    });
    return {
      providers: [
        { id: 'vertex', type: 'vertex', project: 'acme-prod', location: 'us-east5', credentials_file: token.writeKeyFile(account), base_url: vertex.url },
        { id: 'vertex-global', type: 'vertex', project: 'acme-prod', location: 'global', credentials_file: token.writeKeyFile(account), base_url: vertex.url },
        { id: 'vertex-forged', type: 'vertex', project: 'acme-prod', location: 'global', credentials_env: 'VERTEX_FORGED_KEY', base_url: vertex.url },
        { id: 'direct', type: 'openai-compatible', base_url: `${direct.url}/v1`, keys: [{ key: 'sk-direct' }] },
      ],
      models: [
        model('test/claude', [{ provider: 'vertex', upstream: CLAUDE }]),
        model('test/gemini', [{ provider: 'vertex', upstream: GEMINI }]),
        model('test/claude-failover', [{ provider: 'vertex-forged', upstream: CLAUDE }, { provider: 'vertex', upstream: CLAUDE }]),
        model('test/claude-global-first', [{ provider: 'vertex-global', upstream: CLAUDE }, { provider: 'vertex', upstream: CLAUDE }]),
        model('test/gemini-global-first', [{ provider: 'vertex-global', upstream: GEMINI }, { provider: 'vertex', upstream: GEMINI }]),
        model('test/claude-then-direct', [{ provider: 'vertex', upstream: CLAUDE }, { provider: 'direct', upstream: 'claude-sonnet' }]),
      ],
    };
  };

  beforeAll(async () => {
    token = await startFakeGoogleToken({ lifetimeSeconds: 60 });
    account = token.createServiceAccount('acme-prod');
    vertex = await startFakeVertex(token, answer);
    direct = await startFakeUpstream(() => ({ status: 200, json: JSON.parse(readFixture('openai', 'text.json')) }));
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await vertex?.close();
    await direct?.close();
    await token?.close();
    delete process.env.VERTEX_FORGED_KEY;
  });
  beforeEach(async () => {
    scenario = 'text';
    calls.length = 0;
    vertex.requests.length = 0;
    token.requests.length = 0;
    await h.renewRuntime({ routing: { config: config(), database: false } }); // fresh adapters: no cached token
  });
  afterEach(() => vi.useRealTimers());

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }], stream: false, ...body }),
    });
  const streamed = async (res: Response) => {
    const { chunks, done } = await readSse(res);
    const deltas = chunks.flatMap((c) => c.choices?.map((ch: any) => ch.delta) ?? []);
    return {
      done,
      content: deltas.map((d) => d.content ?? '').join(''),
      reasoning: deltas.map((d) => d.reasoning ?? '').join(''),
      toolNames: deltas.flatMap((d) => d.tool_calls ?? []).map((t: any) => t.function?.name).filter(Boolean),
      finish: chunks.map((c) => c.choices?.[0]?.finish_reason).find(Boolean),
    };
  };

  describe.each([
    ['Claude', 'test/claude', 'anthropic', CLAUDE],
    ['Gemini', 'test/gemini', 'google', GEMINI],
  ])('%s on Vertex', (_name, model, publisher, upstream) => {
    it('text, not streaming: a bearer token from the service account, the publisher path, the fixture text', async () => {
      const res = await post({ model });
      expect(res.status).toBe(200);
      const body = await res.json();
      expect(body.provider).toBe('vertex');
      expect(body.choices[0].message.content).toBe(
        publisher === 'anthropic' ? 'Hello! How can I help you today?' : "The capital of France is **Paris**. It is also the country's largest city.\n",
      );
      expect(calls).toEqual([{ project: 'acme-prod', location: 'us-east5', publisher, model: upstream, action: publisher === 'anthropic' ? 'rawPredict' : 'generateContent', auth: 'oauth' }]);
      expect(vertex.requests[0]!.headers.authorization).toMatch(/^Bearer ya29\.fake-/);
      expect(vertex.requests[0]!.headers).not.toHaveProperty('x-goog-api-key');
      expect(vertex.requests[0]!.headers).not.toHaveProperty('anthropic-version');
      expect(token.requests).toEqual([{ status: 200 }]);
    });

    it('text, streaming', async () => {
      const res = await post({ model, stream: true });
      expect(res.status).toBe(200);
      const s = await streamed(res);
      expect(s.done).toBe(true);
      expect(s.content.length).toBeGreaterThan(0);
      expect(calls[0]!.action).toBe(publisher === 'anthropic' ? 'streamRawPredict' : 'streamGenerateContent');
    });

    it.each([false, true])('tools and an image go out in the publisher format; tool calls come back (stream: %s)', async (stream) => {
      scenario = 'tools';
      const res = await post({
        model,
        stream,
        tools: [{ type: 'function', function: { name: 'get_weather', parameters: { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] } } }],
        messages: [{ role: 'user', content: [{ type: 'text', text: 'Weather here?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }],
      });
      expect(res.status).toBe(200);
      const names = stream ? (await streamed(res)).toolNames : (await res.json()).choices[0].message.tool_calls.map((t: any) => t.function.name);
      expect(names).toContain('get_weather');
      const sent = vertex.requests[0]!.body as any;
      if (publisher === 'anthropic') {
        expect(sent.tools[0]).toMatchObject({ name: 'get_weather', input_schema: { type: 'object' } });
        expect(sent.messages[0].content[1]).toEqual({ type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw0KGgo=' } });
      } else {
        expect(sent.tools[0].functionDeclarations[0].name).toBe('get_weather');
        expect(sent.contents[0].parts[1]).toEqual({ inlineData: { mimeType: 'image/png', data: 'iVBORw0KGgo=' } });
      }
    });

    it.each([false, true])('reasoning comes back (stream: %s)', async (stream) => {
      scenario = 'thinking';
      const res = await post({ model, stream, reasoning: { effort: 'low' } });
      expect(res.status).toBe(200);
      const reasoning = stream ? (await streamed(res)).reasoning : (await res.json()).choices[0].message.reasoning;
      expect(reasoning.length).toBeGreaterThan(10);
    });
  });

  it('an http(s) image URL, which Claude on Vertex cannot take, is a 400 saying to send base64, before anything is sent', async () => {
    const res = await post({ model: 'test/claude', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } }] }] });
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toContain('takes images as base64 data URLs');
    expect(vertex.requests).toHaveLength(0);
  });

  it('a request its first endpoint cannot carry (an image URL for Claude on Vertex) is served by the next one', async () => {
    const image = { type: 'image_url', image_url: { url: 'https://example.com/cat.png' } };
    const res = await post({ model: 'test/claude-then-direct', messages: [{ role: 'user', content: [{ type: 'text', text: 'What is this?' }, image] }] });
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).toBe(200);
    expect(body.provider).toBe('direct');
    expect(vertex.requests).toHaveLength(0);
    expect(direct.requests.at(-1)?.body).toMatchObject({ model: 'claude-sonnet', messages: [{ content: [{ type: 'text' }, image] }] });
    // A data URL, which Vertex takes, still goes to Vertex first.
    const inline = await post({ model: 'test/claude-then-direct', messages: [{ role: 'user', content: [{ type: 'text', text: 'And this?' }, { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } }] }] });
    expect((await inline.json()).provider).toBe('vertex');
  });

  it('a signed reasoning detail is replayed to Claude as a thinking block and to Gemini as a thoughtSignature', async () => {
    scenario = 'thinking';
    const answered = await (await post({ model: 'test/claude', reasoning: { effort: 'low' }, messages: [{ role: 'user', content: '27 * 453?' }] })).json();
    const assistant = answered.choices[0].message;
    expect(assistant.reasoning_details?.[0]?.signature).toBeTruthy();
    scenario = 'text';
    vertex.requests.length = 0;
    const res = await post({ model: 'test/claude', reasoning: { effort: 'low' }, messages: [{ role: 'user', content: '27 * 453?' }, assistant, { role: 'user', content: 'Thanks' }] });
    expect(res.status).toBe(200);
    const sent = vertex.requests[0]!.body as any;
    expect(sent.messages[1].content[0]).toMatchObject({ type: 'thinking', signature: assistant.reasoning_details[0].signature });

    scenario = 'thinking';
    const gem = (await (await post({ model: 'test/gemini', reasoning: { effort: 'low' } })).json()).choices[0].message;
    const signed = gem.reasoning_details?.find((d: any) => d.signature || d.data);
    expect(signed).toBeTruthy();
    scenario = 'text';
    vertex.requests.length = 0;
    expect((await post({ model: 'test/gemini', messages: [{ role: 'user', content: 'Hello' }, gem, { role: 'user', content: 'Thanks' }] })).status).toBe(200);
    expect(JSON.stringify((vertex.requests[0]!.body as any).contents[1])).toContain('thoughtSignature');
  });

  it('three minutes of requests across the 60 s token expiry all succeed, with one token fetch per refresh', async () => {
    // Only Date is faked: the token endpoint, google-auth-library (iat/exp, expiry_date) and the adapter's
    // cache all read the same clock, which the test moves 3 s per request; sockets and timers stay real.
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    const tokensSeen = new Set<string>();
    let sent = 0;
    for (let s = 0; s <= 180; s += 3) {
      vi.setSystemTime(start + s * 1000);
      const model = s % 2 === 0 ? 'test/claude' : 'test/gemini';
      const stream = s % 4 < 2;
      const res = await post({ model, stream });
      expect(res.status, `request at t=${s}s`).toBe(200);
      if (stream) expect((await streamed(res)).done).toBe(true);
      else await res.json();
      tokensSeen.add(String(vertex.requests.at(-1)!.headers.authorization));
      sent++;
    }
    // No request was refused and retried: the fake saw each once, always with a token valid at that time.
    expect(vertex.requests).toHaveLength(sent);
    // 60 s tokens refreshed with 15 s left: a new one every 45 s or so (4–5 over three minutes), not one per request.
    const fetched = token.requests.filter((r) => r.status === 200).length;
    expect(fetched).toBeGreaterThanOrEqual(4);
    expect(fetched).toBeLessThanOrEqual(6);
    expect(tokensSeen.size).toBe(fetched);
  });

  it('concurrent requests at the refresh boundary share one token fetch', async () => {
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start });
    expect((await post({ model: 'test/gemini' })).status).toBe(200);
    expect(token.requests).toHaveLength(1);
    vi.setSystemTime(start + 50_000); // 10 s left of 60: due for refresh
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => post({ model: i % 2 ? 'test/claude' : 'test/gemini' })));
    expect(results.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(token.requests).toHaveLength(2);
    expect(new Set(vertex.requests.slice(1).map((r) => r.headers.authorization)).size).toBe(1);
  });

  it('a model the project has not enabled (400 FAILED_PRECONDITION, bare or in an array) fails over to the next endpoint', async () => {
    scenario = 'not-enabled';
    for (const model of ['test/claude-global-first', 'test/gemini-global-first']) {
      const res = await post({ model });
      expect(res.status, model).toBe(200);
      expect((await res.json()).provider).toBe('vertex');
    }
    expect(calls.map((c) => c.location)).toEqual(['global', 'us-east5', 'global', 'us-east5']);
  });

  it("an error from Vertex reaches the client without the operator's project id or number", async () => {
    scenario = 'disabled-api';
    for (const model of ['test/claude', 'test/gemini']) {
      const res = await post({ model });
      const text = await res.text();
      expect(res.status, text).toBe(400);
      expect(text).toContain('Vertex AI API has not been used in project … before');
      expect(text).not.toMatch(/acme-prod|123456789012/);
    }
  });

  it('a key Google refuses (invalid_grant) fails over to the next endpoint', async () => {
    const res = await post({ model: 'test/claude-failover' });
    expect(res.status).toBe(200);
    expect((await res.json()).provider).toBe('vertex');
    expect(token.requests.map((r) => r.error ?? r.status)).toEqual(['invalid_grant', 200]);
  });
});
