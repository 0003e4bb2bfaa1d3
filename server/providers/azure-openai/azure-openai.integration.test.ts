// `type: azure-openai` through the real gateway (test/gateway-harness.ts) against a fake Azure resource that
// requires api-version and the deployment path, checks `api-key` or an Entra ID bearer token, and answers in
// Azure's shape with its content-filter annotations (test/fake-azure-openai.ts).
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { RoutingFileInput } from '@/server/routing/config-schema';
import { describeEachDatabase } from '@/test/db';
import { azureText, startFakeAzure, startFakeEntra, type FakeEntra } from '@/test/fake-azure-openai';
import type { FakeResponse, FakeUpstream, RecordedRequest } from '@/test/fake-upstream';
import { fundedUser, readSse, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

const DEPLOYMENT = 'gpt4o-mini-prod';
const SECRET_VAR = 'SWITCHBOARD_TEST_AZURE_CLIENT_SECRET';

describeEachDatabase('azure-openai provider', () => {
  let h: GatewayHarness;
  let key: string;
  let azure: FakeUpstream;
  let entra: FakeEntra;
  let answer: (req: RecordedRequest, deployment: string) => FakeResponse = azureText;
  const entraOptions = { clientId: 'app-1', clientSecret: 'entra-secret', expiresInSeconds: 2 };

  const config = (): RoutingFileInput => {
    const model = (id: string, endpoints: [provider: string, deployment: string][]) => ({
      id, name: id, context_length: 128_000, max_output_tokens: 4_096, supports_images: true,
      endpoints: endpoints.map(([provider, upstream_model]) => ({ provider, upstream_model, pricing: { input: 1, output: 2 } })),
    });
    return {
      providers: [
        { id: 'az-dated', type: 'azure-openai', base_url: azure.url, api_version: '2024-10-21', keys: [{ key: 'azure-key-1' }] },
        { id: 'az-v1', type: 'azure-openai', base_url: `${azure.url}/openai/v1`, keys: [{ key: 'azure-key-1' }] },
        { id: 'az-old', type: 'azure-openai', base_url: azure.url, api_version: '2024-06-01', keys: [{ key: 'azure-key-1' }] },
        { id: 'az-entra', type: 'azure-openai', base_url: azure.url, api_version: '2024-10-21', tenant_id: 'contoso', client_id: 'app-1', client_secret_env: SECRET_VAR, token_url: entra.tokenUrl('contoso') },
      ],
      models: [
        model('test/azure', [['az-dated', DEPLOYMENT]]),
        model('test/azure-v1', [['az-v1', DEPLOYMENT]]),
        model('test/azure-entra', [['az-entra', DEPLOYMENT]]),
        model('test/azure-failover', [['az-dated', 'no-such-deployment'], ['az-v1', DEPLOYMENT]]),
        model('test/azure-old', [['az-old', DEPLOYMENT]]),
      ],
    };
  };

  beforeAll(async () => {
    process.env[SECRET_VAR] = 'entra-secret';
    entra = await startFakeEntra(entraOptions);
    azure = await startFakeAzure({ deployments: [DEPLOYMENT], apiKey: 'azure-key-1', entra, answer: (req, d) => answer(req, d) });
    h = await startGatewayHarness({ routing: { config: config(), database: false } });
    key = (await fundedUser(50)).key;
  });
  afterAll(async () => {
    await h?.close();
    await azure?.close();
    await entra?.upstream.close();
    delete process.env[SECRET_VAR];
  });
  beforeEach(async () => {
    answer = azureText;
    azure.requests.length = 0;
    await h.renewRuntime({ routing: { config: config(), database: false } });
  });

  const post = (body: object) =>
    fetch(`${h.baseUrl}/chat/completions`, { method: 'POST', headers: { 'content-type': 'application/json', authorization: `Bearer ${key}` }, body: JSON.stringify({ messages: [{ role: 'user', content: 'hi' }], stream: false, ...body }) });

  it('dated API: the deployment path, api-version and the api-key header; the answer as ours', async () => {
    const res = await post({ model: 'test/azure' });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.choices[0].message.content).toBe('Hello from Azure');
    expect(body.usage).toMatchObject({ prompt_tokens: 12, completion_tokens: 4 });
    const sent = azure.requests[0]!;
    expect(sent.path).toBe(`/openai/deployments/${DEPLOYMENT}/chat/completions?api-version=2024-10-21`);
    expect(sent.headers['api-key']).toBe('azure-key-1');
    expect(sent.headers.authorization).toBeUndefined();
  });

  it('v1 API, streamed: /openai/v1/chat/completions with the deployment as model; prompt_filter_results chunks are skipped', async () => {
    const res = await post({ model: 'test/azure-v1', stream: true });
    const { chunks, done } = await readSse(res);
    expect(done).toBe(true);
    expect(chunks.map((c) => c.choices?.[0]?.delta?.content ?? '').join('')).toBe('Hello from Azure');
    expect(chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe('stop');
    const sent = azure.requests[0]!;
    expect(sent.path).toBe('/openai/v1/chat/completions');
    expect(sent.body).toMatchObject({ model: DEPLOYMENT, stream: true, stream_options: { include_usage: true } });
  });

  it('tools and images go through, tool calls come back', async () => {
    answer = (req, deployment) => ({
      status: 200,
      json: {
        id: 'chatcmpl-AZ2', object: 'chat.completion', created: 1, model: deployment, prompt_filter_results: [],
        choices: [{ index: 0, finish_reason: 'tool_calls', message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_abc', type: 'function', function: { name: 'describe', arguments: '{"color":"red"}' } }] }, content_filter_results: {} }],
        usage: { prompt_tokens: 90, completion_tokens: 9, total_tokens: 99 },
      },
    });
    const image = { type: 'image_url', image_url: { url: 'data:image/png;base64,iVBORw0KGgo=' } };
    const tools = [{ type: 'function', function: { name: 'describe', parameters: { type: 'object', properties: { color: { type: 'string' } } } } }];
    const res = await post({ model: 'test/azure', tools, messages: [{ role: 'user', content: [{ type: 'text', text: 'what color?' }, image] }] });
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.choices[0].finish_reason).toBe('tool_calls');
    expect(body.choices[0].message.tool_calls[0]).toMatchObject({ id: 'call_abc', function: { name: 'describe', arguments: '{"color":"red"}' } });
    const sent = azure.requests[0]!.body as { messages: { content: unknown[] }[]; tools: unknown[] };
    expect(sent.messages[0]!.content[1]).toEqual(image);
    expect(sent.tools).toHaveLength(1);
  });

  it("a prompt blocked by Azure's content filter is a 400 whose metadata says content_filter", async () => {
    answer = () => ({
      status: 400,
      json: { error: { message: "The response was filtered due to the prompt triggering Azure OpenAI's content management policy.", type: null, param: 'prompt', code: 'content_filter', status: 400, innererror: { code: 'ResponsibleAIPolicyViolation', content_filter_result: { violence: { filtered: true, severity: 'high' } } } } },
    });
    const res = await post({ model: 'test/azure' });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.error.metadata).toMatchObject({ reason: 'content_filter', provider: 'az-dated', upstream_status: 400 });
    expect(body.error.message).toMatch(/content filter/);
  });

  it('finish_reason content_filter in answers and streams is ours', async () => {
    answer = (req, d) => azureText(req, d, 'Partial answer', 'content_filter');
    const plain = await (await post({ model: 'test/azure' })).json();
    expect(plain.choices[0].finish_reason).toBe('content_filter');
    const { chunks } = await readSse(await post({ model: 'test/azure', stream: true }));
    expect(chunks.find((c) => c.choices?.[0]?.finish_reason)?.choices[0].finish_reason).toBe('content_filter');
  });

  it('an unknown deployment (404 DeploymentNotFound) fails over to the next endpoint', async () => {
    const res = await post({ model: 'test/azure-failover' });
    expect(res.status).toBe(200);
    expect((await res.json()).provider).toBe('az-v1');
    expect(azure.requests.map((r) => r.path)).toEqual([`/openai/deployments/no-such-deployment/chat/completions?api-version=2024-10-21`, '/openai/v1/chat/completions']);
  });

  it('an api-version older than stream_options: its streams are a 503 naming the setting, never a 400 blaming the client', async () => {
    expect((await post({ model: 'test/azure-old' })).status).toBe(200); // not streamed: that version serves it
    const res = await post({ model: 'test/azure-old', stream: true });
    expect(res.status).toBe(503);
    const body = await res.json();
    expect(body.error.message).toMatch(/api-version 2024-06-01.*api_version to 2024-10-21 or later/);
    expect(body.error.metadata).toMatchObject({ provider: 'az-old' });
    expect(azure.requests.map((r) => r.path)).toEqual([`/openai/deployments/${DEPLOYMENT}/chat/completions?api-version=2024-06-01`]); // the stream was not sent
  });

  it('Entra ID: a token Azure refuses (401) before it expires is dropped; the next request fetches a new one', async () => {
    entraOptions.expiresInSeconds = 3600;
    try {
      expect((await post({ model: 'test/azure-entra' })).status).toBe(200);
      const issued = entra.issued;
      entra.revokeAll();
      expect((await post({ model: 'test/azure-entra' })).status).toBe(502);
      const res = await post({ model: 'test/azure-entra' });
      expect(res.status).toBe(200);
      expect(entra.issued).toBe(issued + 1);
    } finally {
      entraOptions.expiresInSeconds = 2;
    }
  });

  it('Entra ID: one token for a burst, bearer only, and requests across several 2-second token lifetimes all succeed', { timeout: 30_000 }, async () => {
    const issuedBefore = entra.issued;
    const burst = await Promise.all(Array.from({ length: 8 }, () => post({ model: 'test/azure-entra' })));
    expect(burst.map((r) => r.status)).toEqual(Array(8).fill(200));
    expect(entra.issued - issuedBefore).toBe(1); // concurrent requests shared one token request
    for (const r of azure.requests) {
      expect(r.headers.authorization).toMatch(/^Bearer eyJ0eXAi\.fake-/);
      expect(r.headers['api-key']).toBeUndefined();
    }
    // 5 s of requests: the token (2 s) is refreshed before it expires, and no request fails at the boundary.
    const started = Date.now();
    let count = 0;
    while (Date.now() - started < 5_000) {
      const res = await post({ model: 'test/azure-entra', stream: count % 2 === 1 });
      expect(res.status, `request ${count} at ${Date.now() - started} ms`).toBe(200);
      await res.arrayBuffer();
      count++;
    }
    expect(count).toBeGreaterThan(10);
    expect(entra.issued - issuedBefore).toBeGreaterThanOrEqual(3);
  });
});
