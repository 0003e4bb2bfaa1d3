// An operator adds an OpenAI-compatible server (here: a fake Ollama) through CUSTOM_PROVIDERS alone: the
// routing table turns it into a provider and its models into `<provider id>/<model id>`.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { parseEnv, resetEnvCache } from '@/server/env';
import { buildRoutingTable } from '@/server/routing/build-routing-table';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';

describeEachDatabase('custom OpenAI-compatible providers', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
    process.env.CUSTOM_PROVIDERS = JSON.stringify([
      { id: 'ollama', baseUrl: `${h.upstream.url}/v1`, models: [{ id: 'llama3', upstreamModel: 'llama3.1:8b', contextLength: 8192, inputPrice: 0.1, outputPrice: 0.2 }] },
    ]);
    resetEnvCache();
    await h.renewRuntime(); // its routing table now has the custom provider
  });
  afterAll(async () => {
    delete process.env.CUSTOM_PROVIDERS;
    resetEnvCache();
    await h?.close();
  });

  it('lists the operator model and routes it to the configured server with its upstream name', async () => {
    await h.runtime.routing.ready;
    const model = h.runtime.routing.table().models.get('ollama/llama3');
    expect(model).toMatchObject({ source: 'custom_providers', enabled: true });
    h.respond = replay('openai-compatible', 'text');
    const u = await fundedUser(1);
    const client = new OpenAI({ apiKey: u.key, baseURL: h.baseUrl, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: 'ollama/llama3', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(r.model).toBe('ollama/llama3');
    expect((r as unknown as { provider: string }).provider).toBe('ollama');
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect((sent.body as { model: string }).model).toBe('llama3.1:8b');
    expect((r.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
  });

  it('rejects a malformed configuration with a message naming the problem', () => {
    const build = (value: string) => () => buildRoutingTable({ env: parseEnv({ CUSTOM_PROVIDERS: value }) });
    expect(build('[{"id":"openai","baseUrl":"http://x","models":[{"id":"m"}]}]')).toThrow(/CUSTOM_PROVIDERS: "openai" is a built-in provider id/);
    expect(build('[{"id":"Bad Id","baseUrl":"nope","models":[]}]')).toThrow(/CUSTOM_PROVIDERS/);
  });
});
