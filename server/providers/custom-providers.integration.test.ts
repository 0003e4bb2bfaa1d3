// An operator adds an OpenAI-compatible server (here: a fake Ollama) through CUSTOM_PROVIDERS alone.
import OpenAI from 'openai';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resetEnvCache } from '@/server/env';
import { seedCatalog } from '@/server/catalog/seed-catalog';
import { listModels } from '@/server/catalog/resolve-model';
import { describeEachDatabase } from '@/test/db';
import { fundedUser, replay, startGatewayHarness, type GatewayHarness } from '@/test/gateway-harness';
import { customCatalogEntries } from './custom-providers';

describeEachDatabase('custom OpenAI-compatible providers', () => {
  let h: GatewayHarness;
  beforeAll(async () => {
    h = await startGatewayHarness();
    process.env.CUSTOM_PROVIDERS = JSON.stringify([
      { id: 'ollama', baseUrl: `${h.upstream.url}/v1`, models: [{ id: 'llama3', upstreamModel: 'llama3.1:8b', contextLength: 8192, inputPrice: 0.1, outputPrice: 0.2 }] },
    ]);
    resetEnvCache();
    await h.renewRuntime(); // its provider registry now has the custom provider
    await seedCatalog(customCatalogEntries());
  });
  afterAll(async () => {
    delete process.env.CUSTOM_PROVIDERS;
    resetEnvCache();
    await h?.close();
  });

  it('lists the operator model and routes it to the configured server with its upstream name', async () => {
    expect((await listModels()).map((m) => m.id)).toContain('ollama/llama3');
    h.respond = replay('openai-compatible', 'text');
    const u = await fundedUser(1);
    const client = new OpenAI({ apiKey: u.key, baseURL: h.baseUrl, maxRetries: 0 });
    const r = await client.chat.completions.create({ model: 'ollama/llama3', messages: [{ role: 'user', content: 'hi' }], stream: false });
    expect(r.model).toBe('ollama/llama3');
    const sent = h.upstream.requests.at(-1)!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect((sent.body as { model: string }).model).toBe('llama3.1:8b');
    expect((r.usage as unknown as { cost: number }).cost).toBeGreaterThan(0);
  });

  it('rejects a malformed configuration with a message naming the problem', () => {
    process.env.CUSTOM_PROVIDERS = '[{"id":"openai","baseUrl":"http://x"}]';
    resetEnvCache();
    expect(() => customCatalogEntries()).toThrow(/CUSTOM_PROVIDERS/);
    process.env.CUSTOM_PROVIDERS = '[{"id":"Bad Id","baseUrl":"nope","models":[]}]';
    resetEnvCache();
    expect(() => customCatalogEntries()).toThrow(/CUSTOM_PROVIDERS/);
  });
});
