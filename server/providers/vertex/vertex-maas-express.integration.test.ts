// Vertex AI beyond Gemini and Claude, through the whole gateway against test/fake-vertex.ts:
//  - Model Garden's partner and open models (Llama, Mistral…; upstream_model `publisher/model`) on the
//    OpenAI-compatible endpoint `…/projects/{p}/locations/{l}/endpoints/openapi/chat/completions`, with the
//    service account's OAuth token, streaming and not;
//  - express mode: a provider whose `keys` are Vertex API keys sends Gemini requests to
//    `/v1/publishers/google/models/{m}:generateContent` with `x-goog-api-key` and no OAuth at all; a
//    key Google refuses fails over; a Claude model on a key-only provider answers 503 saying why.
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { startFakeGoogleToken, type FakeGoogleToken, type FakeServiceAccount } from '@/test/fake-google-token';
import { fixtureChunks, readFixture, type FakeResponse, type FakeUpstream, type RecordedRequest } from '@/test/fake-upstream';
import { startFakeVertex, type VertexCall } from '@/test/fake-vertex';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const LLAMA = 'meta/llama-3.3-70b-instruct-maas';
const MISTRAL = 'mistralai/mistral-medium-3';
const GEMINI = 'gemini-2.5-flash';

describeEachDatabase('vertex: partner models (Chat Completions) and express-mode API keys', () => {
  let token: FakeGoogleToken;
  let vertex: FakeUpstream;
  let h: GatewayHarness;
  let key: string;
  let account: FakeServiceAccount;
  const calls: { call: VertexCall; req: RecordedRequest }[] = [];

  const answer = (req: RecordedRequest, call: VertexCall): FakeResponse => {
    calls.push({ call, req });
    const stream = call.publisher === 'openapi' ? (req.body as { stream?: boolean }).stream === true : call.action.startsWith('stream');
    const provider = call.publisher === 'openapi' ? 'openai-compatible' : 'gemini';
    if (stream) return { status: 200, headers: { 'content-type': 'text/event-stream' }, sse: fixtureChunks(provider, 'text.chunks.txt') };
    return { status: 200, json: JSON.parse(readFixture(provider, 'text.json')) };
  };

  const config = (): RoutingFileInput => {
    process.env.VERTEX_MAAS_KEY_JSON = account.json;
    process.env.VERTEX_EXPRESS_KEY = 'AIzaSy-fake-express-key-0001';
    const model = (id: string, endpoints: { provider: string; upstream: string }[]) => ({
      id,
      name: id,
      context_length: 128_000,
      max_output_tokens: 8_000,
      endpoints: endpoints.map((e) => ({ provider: e.provider, upstream_model: e.upstream, pricing: { input: 1, output: 2 } })),
    });
    return {
      providers: [
        { id: 'vertex', type: 'vertex', project: 'acme-prod', location: 'us-central1', credentials_env: 'VERTEX_MAAS_KEY_JSON', base_url: vertex.url },
        { id: 'vertex-express', type: 'vertex', base_url: vertex.url, keys: [{ key_env: 'VERTEX_EXPRESS_KEY' }] },
        { id: 'vertex-bad-key', type: 'vertex', base_url: vertex.url, keys: [{ key: 'AIzaSy-revoked' }] },
      ],
      models: [
        model('test/llama', [{ provider: 'vertex', upstream: LLAMA }]),
        model('test/mistral', [{ provider: 'vertex', upstream: MISTRAL }]),
        model('test/gemini-express', [{ provider: 'vertex-express', upstream: GEMINI }]),
        model('test/gemini-failover', [{ provider: 'vertex-bad-key', upstream: GEMINI }, { provider: 'vertex-express', upstream: GEMINI }]),
        model('test/claude-express', [{ provider: 'vertex-express', upstream: 'claude-sonnet-4-5@20250929' }]),
      ],
    };
  };

  beforeAll(async () => {
    token = await startFakeGoogleToken({ lifetimeSeconds: 3600 });
    account = token.createServiceAccount('acme-prod');
    vertex = await startFakeVertex(token, answer, { apiKeys: ['AIzaSy-fake-express-key-0001'] });
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await vertex?.close();
    await token?.close();
    delete process.env.VERTEX_MAAS_KEY_JSON;
    delete process.env.VERTEX_EXPRESS_KEY;
  });
  beforeEach(async () => {
    calls.length = 0;
    token.requests.length = 0;
    await h.renewRuntime({ routing: { config: config(), database: false } });
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` },
      body: JSON.stringify({ messages: [{ role: 'user', content: 'Hello' }], stream: false, ...body }),
    });

  it('Llama (MaaS): the Chat Completions endpoint of the project and location, the OAuth token, the publisher/model id', async () => {
    const res = await post({ model: 'test/llama', temperature: 0.2, max_tokens: 64 });
    expect(res.status, await res.clone().text()).toBe(200);
    const body = await res.json();
    expect(body.choices[0].message.content).toBe('Hello! How can I help you today?');
    expect(body.usage).toMatchObject({ prompt_tokens: 11, completion_tokens: 9 });
    expect(calls).toHaveLength(1);
    const [{ call, req }] = calls;
    expect(call).toMatchObject({ project: 'acme-prod', location: 'us-central1', publisher: 'openapi', model: LLAMA, auth: 'oauth' });
    expect(req.path).toBe('/v1/projects/acme-prod/locations/us-central1/endpoints/openapi/chat/completions');
    expect(req.headers.authorization).toMatch(/^Bearer /);
    expect(req.body).toEqual({ model: LLAMA, messages: [{ role: 'user', content: 'Hello' }], temperature: 0.2, max_tokens: 64 });
    expect(token.requests).toHaveLength(1);
  });

  it('Mistral (MaaS), streaming: stream_options asks for usage, and the stream is relayed', async () => {
    const res = await post({ model: 'test/mistral', stream: true });
    expect(res.status).toBe(200);
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    expect(chunks.flatMap((c) => c.choices?.map((ch: any) => ch.delta?.content ?? '') ?? []).join('')).toBe('Hello! How can I help you today?');
    expect(calls[0]!.req.body).toMatchObject({ model: MISTRAL, stream: true, stream_options: { include_usage: true } });
  });

  it('express mode: Gemini with x-goog-api-key on the project-less path, no token fetched, no Authorization header', async () => {
    const res = await post({ model: 'test/gemini-express' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect((await res.json()).choices[0].message.content).toMatch(/Paris/);
    const [{ call, req }] = calls;
    expect(call).toEqual({ publisher: 'google', model: GEMINI, action: 'generateContent', auth: 'api_key' });
    expect(req.path).toBe(`/v1/publishers/google/models/${GEMINI}:generateContent`);
    expect(req.headers['x-goog-api-key']).toBe('AIzaSy-fake-express-key-0001');
    expect(req.headers.authorization).toBeUndefined();
    expect(token.requests).toHaveLength(0);

    const streamed = await post({ model: 'test/gemini-express', stream: true });
    expect(streamed.status).toBe(200);
    expect((await readSse(streamed)).done).toBe(true);
    expect(calls[1]!.req.path).toBe(`/v1/publishers/google/models/${GEMINI}:streamGenerateContent?alt=sse`);
  });

  it('a key Google refuses (API_KEY_INVALID) fails over to the next endpoint', async () => {
    const res = await post({ model: 'test/gemini-failover' });
    expect(res.status, await res.clone().text()).toBe(200);
    expect(vertex.requests.map((r) => r.headers['x-goog-api-key'])).toEqual(expect.arrayContaining(['AIzaSy-revoked', 'AIzaSy-fake-express-key-0001']));
    expect(calls).toHaveLength(1);
  });

  it('Claude on a key-only provider: 503 saying a service account is needed, nothing sent', async () => {
    vertex.requests.length = 0;
    const res = await post({ model: 'test/claude-express' });
    expect(res.status).toBe(503);
    expect((await res.json()).error.message).toMatch(/needs a service account \(API keys reach Gemini models only\)/);
    expect(vertex.requests).toHaveLength(0);
  });
});
