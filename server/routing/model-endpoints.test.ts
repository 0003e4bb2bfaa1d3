import { describe, expect, it } from 'vitest';
import { parseEnv } from '@/server/env';
import { buildRoutingTable } from './build-routing-table';
import { routingFileSchema } from './config-schema';
import { KeyHealth } from './key-health';
import { modelEndpoints, usdPerToken } from './model-endpoints';

const table = buildRoutingTable({
  env: parseEnv({}),
  readVar: (name) => ({ TK_A: 'sk-a', TK_B: 'sk-b' })[name],
  file: routingFileSchema.parse({
    providers: [
      { id: 'two-keys', type: 'openai-compatible', name: 'Two Keys', base_url: 'http://127.0.0.1:9/v1', keys: [{ key_env: 'TK_A' }, { key_env: 'TK_B' }] },
      { id: 'off', type: 'openai-compatible', base_url: 'http://127.0.0.1:9/v1', enabled: false },
      { id: 'keyless', type: 'openai-compatible', base_url: 'http://127.0.0.1:8/v1' },
    ],
    models: [
      {
        id: 'acme/ep',
        name: 'Acme EP',
        context_length: 128_000,
        max_output_tokens: 16_384,
        aliases: ['acme/ep-old', 'ep'],
        endpoints: [
          { provider: 'two-keys', upstream_model: 'up-1', pricing: { input: 0.15, output: 0.6, cache_read: 0.075 } },
          { provider: 'openai', upstream_model: 'gpt-4o-mini', pricing: { input: 1.25, output: 10, cache_read: 0.125, cache_write: 1.5, cache_write_1h: 2.5 }, context_length: 64_000, max_output_tokens: 4_096 },
          { provider: 'off', upstream_model: 'up-3', pricing: { input: 0, output: 0 } },
          { provider: 'keyless', upstream_model: 'up-4', pricing: { input: 100_000, output: 0.000001 } },
        ],
      },
      { id: 'acme/hidden', name: 'Hidden', context_length: 1000, max_output_tokens: 100, enabled: false, endpoints: [{ provider: 'keyless', upstream_model: 'x', pricing: { input: 1, output: 1 } }] },
    ],
  }),
});

describe('usdPerToken', () => {
  it('writes micro-dollars per million tokens as exact USD per token, without exponents', () => {
    expect(usdPerToken(150_000)).toBe('0.00000015');
    expect(usdPerToken(75_000)).toBe('0.000000075');
    expect(usdPerToken(1)).toBe('0.000000000001');
    expect(usdPerToken(0)).toBe('0');
    expect(usdPerToken(100_000_000_000)).toBe('0.1');
    expect(usdPerToken(3_000_000_000_000)).toBe('3');
  });
});

describe('GET /models/{author}/{slug}/endpoints (modelEndpoints)', () => {
  it("lists every endpoint with provider, prices (USD per token), limits and status; an alias names its model", () => {
    let now = 1_000_000;
    const health = new KeyHealth({ redisUrl: null, now: () => now });
    const view = modelEndpoints(table, health, 'acme/ep-old');
    expect(view.data).toMatchObject({ id: 'acme/ep', name: 'Acme EP' });
    expect(view.data.endpoints).toEqual([
      {
        provider: 'two-keys', provider_name: 'Two Keys', name: 'Two Keys | acme/ep', upstream_model: 'up-1', context_length: 128_000, max_completion_tokens: 16_384,
        // No cache_write price: billed at the input price, which is what is shown (1-hour writes too).
        pricing: { prompt: '0.00000015', completion: '0.0000006', input_cache_read: '0.000000075', input_cache_write: '0.00000015', input_cache_write_1h: '0.00000015' },
        status: 'healthy',
      },
      expect.objectContaining({ provider: 'openai', context_length: 64_000, max_completion_tokens: 4_096, pricing: { prompt: '0.00000125', completion: '0.00001', input_cache_read: '0.000000125', input_cache_write: '0.0000015', input_cache_write_1h: '0.0000025' }, status: 'unconfigured' }),
      expect.objectContaining({ provider: 'off', status: 'disabled' }),
      expect.objectContaining({ provider: 'keyless', pricing: expect.objectContaining({ prompt: '0.1', completion: '0.000000000001' }), status: 'healthy' }),
    ]);

    // A provider is as usable as its most usable key.
    health.rateLimited('two-keys/TK_A', 60);
    expect(modelEndpoints(table, health, 'acme/ep').data.endpoints[0].status).toBe('healthy');
    for (let i = 0; i < 3; i++) health.failed('two-keys/TK_B', '503');
    expect(modelEndpoints(table, health, 'acme/ep').data.endpoints[0].status).toBe('cooling');
    now += 61_000; // TK_A's cooldown is over; TK_B's circuit (30 s) waits for its probe
    expect(health.view('two-keys/TK_B').state).toBe('half_open');
    expect(modelEndpoints(table, health, 'acme/ep').data.endpoints[0].status).toBe('healthy');
    health.rateLimited('two-keys/TK_A', 600);
    expect(modelEndpoints(table, health, 'acme/ep').data.endpoints[0].status).toBe('half_open');
  });

  it('an unknown or disabled model is a 404', () => {
    const health = new KeyHealth({ redisUrl: null });
    for (const id of ['acme/none', 'acme/hidden']) expect(() => modelEndpoints(table, health, id)).toThrow(expect.objectContaining({ code: 'not_found' }));
  });
});
